package dev.levee.retry.internal;

import dev.levee.retry.Backoff;

/** {@code min(max, initial + (n - 1) · increment)}, computed without overflow. */
public final class LinearBackoff implements Backoff {
    private final long initialNanos;
    private final long incrementNanos;
    private final long maxNanos;

    /**
     * @param initialNanos the first delay
     * @param incrementNanos added per retry
     * @param maxNanos the cap, at least {@code initialNanos}
     */
    public LinearBackoff(long initialNanos, long incrementNanos, long maxNanos) {
        this.initialNanos = initialNanos;
        this.incrementNanos = incrementNanos;
        this.maxNanos = maxNanos;
    }

    @Override
    public long delayNanos(int retry) {
        long steps = Math.max(0, retry - 1);
        // Compare before multiplying: steps · increment > max - initial means the cap applies.
        if (incrementNanos != 0 && steps > (maxNanos - initialNanos) / incrementNanos) {
            return maxNanos;
        }
        return Math.min(maxNanos, initialNanos + steps * incrementNanos);
    }

    @Override
    public long initialNanos() {
        return initialNanos;
    }

    @Override
    public long maxNanos() {
        return maxNanos;
    }

    @Override
    public String toString() {
        return "Backoff.linear(" + initialNanos + "ns, +" + incrementNanos + "ns, max " + maxNanos + "ns)";
    }
}

package dev.levee.retry.internal;

import dev.levee.retry.Backoff;

/**
 * {@code min(max, initial · multiplier^(n - 1))}. Computed in {@code double}: a huge power becomes
 * infinity, which the {@code min} turns into {@code max}, so no attempt number overflows.
 */
public final class ExponentialBackoff implements Backoff {
    /** 100 ms, ×2, capped at 10 s. */
    public static final ExponentialBackoff DEFAULT = new ExponentialBackoff(100_000_000L, 2.0, 10_000_000_000L);

    private final long initialNanos;
    private final double multiplier;
    private final long maxNanos;

    /**
     * @param initialNanos the first delay
     * @param multiplier at least 1
     * @param maxNanos the cap, at least {@code initialNanos}
     */
    public ExponentialBackoff(long initialNanos, double multiplier, long maxNanos) {
        this.initialNanos = initialNanos;
        this.multiplier = multiplier;
        this.maxNanos = maxNanos;
    }

    @Override
    public long delayNanos(int retry) {
        double delay = initialNanos * Math.pow(multiplier, Math.max(0, retry - 1));
        return delay >= maxNanos ? maxNanos : (long) delay;
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
        return "Backoff.exponential(" + initialNanos + "ns, x" + multiplier + ", max " + maxNanos + "ns)";
    }
}

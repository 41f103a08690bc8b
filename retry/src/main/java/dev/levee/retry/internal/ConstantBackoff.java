package dev.levee.retry.internal;

import dev.levee.retry.Backoff;

/** The same delay before every retry. */
public final class ConstantBackoff implements Backoff {
    private final long delayNanos;

    /** @param delayNanos the delay, at least zero */
    public ConstantBackoff(long delayNanos) {
        this.delayNanos = delayNanos;
    }

    @Override
    public long delayNanos(int retry) {
        return delayNanos;
    }

    @Override
    public long initialNanos() {
        return delayNanos;
    }

    @Override
    public long maxNanos() {
        return delayNanos;
    }

    @Override
    public String toString() {
        return "Backoff.constant(" + delayNanos + "ns)";
    }
}

package dev.levee.retry.internal;

import dev.levee.retry.Backoff;

/** The same delay before every retry. */
public final class ConstantBackoff implements Backoff {
    /** Why a zero delay is refused, for the messages of the {@link Backoff} factories. */
    public static final String HOT_LOOP = "(a zero delay retries in a hot loop; use Backoff.none() to retry without delay on purpose)";
    /** No delay: {@link Backoff#none()}. */
    public static final ConstantBackoff NONE = new ConstantBackoff(0L);

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
        return delayNanos == 0 ? "Backoff.none()" : "Backoff.constant(" + delayNanos + "ns)";
    }
}

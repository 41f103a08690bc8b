package dev.levee.core;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A ticker that moves only when told to: deterministic time for tests, shipped in the main jar so
 * users can test their own code that uses Levee.
 *
 * <p>It is also a {@link Sleeper} that "sleeps" by advancing itself, so a retry's backoff or a
 * limiter's wait completes instantly while the elapsed time is still observable.
 *
 * <p>Thread-safe. Time never moves backwards: {@link #advance} rejects negative amounts.
 */
public final class ManualTicker implements Ticker, Sleeper {
    private final AtomicLong nanos;

    /** A ticker starting at zero. */
    public ManualTicker() {
        this(0L);
    }

    /**
     * A ticker starting at {@code startNanos}. Starting far from zero helps find code that wrongly
     * treats a reading as a duration.
     *
     * @param startNanos the first reading
     */
    public ManualTicker(long startNanos) {
        this.nanos = new AtomicLong(startNanos);
    }

    @Override
    public long read() {
        return nanos.get();
    }

    /**
     * Moves time forward.
     *
     * @param amountNanos how far, in nanoseconds; not negative
     * @return the new reading
     * @throws IllegalArgumentException if {@code amountNanos} is negative
     */
    public long advance(long amountNanos) {
        if (amountNanos < 0) {
            throw new IllegalArgumentException("ManualTicker: advance must be >= 0 ns but was " + amountNanos);
        }
        return nanos.addAndGet(amountNanos);
    }

    /**
     * Moves time forward.
     *
     * @param amount how far; not negative
     * @return the new reading
     * @throws IllegalArgumentException if {@code amount} is negative
     */
    public long advance(Duration amount) {
        return advance(amount.toNanos());
    }

    /**
     * Advances time by {@code nanos} instead of sleeping. Honours the thread's interrupt flag like a
     * real sleep would: an interrupted thread gets {@link InterruptedException} and time does not move.
     */
    @Override
    public void sleep(long nanos) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException("interrupted before a ManualTicker sleep of " + nanos + " ns");
        }
        if (nanos > 0) {
            advance(nanos);
        }
    }

    @Override
    public String toString() {
        return "ManualTicker[" + nanos.get() + " ns]";
    }
}

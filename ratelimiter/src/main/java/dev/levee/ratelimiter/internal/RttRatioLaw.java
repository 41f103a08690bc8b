package dev.levee.ratelimiter.internal;

import java.util.concurrent.locks.ReentrantLock;
import java.util.function.DoubleConsumer;

/**
 * Seed 002's adaptive rate rule ({@code AdaptiveLaw.RTT_RATIO}): base RTT = the smallest sample seen,
 * mean = the integer mean of the last 10 samples, {@code ratio = base / mean}; above 0.9 the rate
 * grows by 10%, below 0.5 it halves, below 0.7 it loses 10%, within [minRate, maxRate]; nothing before
 * 10 samples.
 *
 * <p>Single writer: {@link #sample} takes a try-lock and skips the sample if another thread holds it
 * (no waiting on the completion path); the rate lives here and each change is handed to the limiter
 * under the same lock, so changes apply in order. A fixed ring of 10 longs; no allocation.
 */
public final class RttRatioLaw {
    private static final int WINDOW = 10;

    private final ReentrantLock lock = new ReentrantLock();
    private final long[] recent = new long[WINDOW];
    private final double minRate;
    private final double maxRate;
    private final DoubleConsumer onChange;
    private double rate;
    private long samples;
    private long base;

    /**
     * @param minRate the lowest rate
     * @param maxRate the highest rate
     * @param initialRate the rate at start
     * @param onChange applies a new rate (called under the law's lock)
     */
    public RttRatioLaw(double minRate, double maxRate, double initialRate, DoubleConsumer onChange) {
        this.minRate = minRate;
        this.maxRate = maxRate;
        this.rate = initialRate;
        this.onChange = onChange;
    }

    /**
     * Sets the rate by hand (the base RTT and the samples are kept).
     *
     * @param newRate the rate
     */
    public void setRate(double newRate) {
        lock.lock();
        try {
            rate = newRate;
            onChange.accept(newRate);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Records a round trip and applies the rule.
     *
     * @param rttNanos the round trip (a sample of 0 is kept as 1 ns: the seed treats a base of 0 as unknown)
     * @return false if the sample was skipped (another thread was applying the rule)
     */
    public boolean sample(long rttNanos) {
        if (!lock.tryLock()) {
            return false;
        }
        try {
            long rtt = Math.max(1L, rttNanos);
            recent[(int) (samples % WINDOW)] = rtt;
            samples++;
            if (base == 0 || rtt < base) {
                base = rtt;
            }
            if (samples < WINDOW) {
                return true;
            }
            long sum = 0;
            for (long r : recent) {
                sum += r;
            }
            long mean = sum / WINDOW; // the seed divides a Duration: integer nanoseconds
            double ratio = (double) base / (double) mean;
            double next = rate;
            if (ratio > 0.9) {
                next = Math.min(maxRate, rate * 1.1);
            } else if (ratio < 0.5) {
                next = Math.max(minRate, rate * 0.5);
            } else if (ratio < 0.7) {
                next = Math.max(minRate, rate * 0.9);
            }
            if (next != rate) {
                rate = next;
                onChange.accept(next);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** @return the base RTT in nanoseconds, 0 before the first sample */
    public long baseNanos() {
        lock.lock();
        try {
            return base;
        } finally {
            lock.unlock();
        }
    }
}

package dev.levee.loadshed.internal;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Latencies of one interval in log-linear buckets (4 per power of two of microseconds, so a quantile
 * is within 25 % of the truth), for a controller that needs "p99 of the last interval". Recording is
 * one atomic add, no allocation; {@link #quantileAndReset} is called by the one controller thread.
 */
public final class LatencyQuantile {
    private static final int LINEAR = 16;
    private static final int SUB_BITS = 2;
    private static final int BUCKETS = LINEAR + (63 - 4) * (1 << SUB_BITS);

    private final AtomicLongArray counts = new AtomicLongArray(BUCKETS);

    /** Creates an empty recorder. */
    public LatencyQuantile() {}

    static int index(long micros) {
        if (micros < LINEAR) {
            return (int) Math.max(0L, micros);
        }
        int exp = 63 - Long.numberOfLeadingZeros(micros);           // >= 4
        int sub = (int) (micros >>> (exp - SUB_BITS)) & ((1 << SUB_BITS) - 1);
        return LINEAR + (exp - 4) * (1 << SUB_BITS) + sub;
    }

    static long upperBoundMicros(int index) {
        if (index < LINEAR) {
            return index;
        }
        int exp = (index - LINEAR) / (1 << SUB_BITS) + 4;
        int sub = (index - LINEAR) % (1 << SUB_BITS);
        return (1L << exp) + ((long) (sub + 1) << (exp - SUB_BITS)) - 1;
    }

    /**
     * Records one latency.
     *
     * @param nanos the latency
     */
    public void record(long nanos) {
        counts.incrementAndGet(index(nanos / 1000));
    }

    /**
     * The {@code q}-quantile of what was recorded since the last call, in milliseconds, and clears.
     *
     * @param q the quantile, in [0, 1]
     * @param ifEmpty returned when nothing was recorded
     * @return the quantile's bucket upper bound in milliseconds
     */
    public double quantileAndReset(double q, double ifEmpty) {
        long[] snapshot = new long[BUCKETS];
        long total = 0;
        for (int i = 0; i < BUCKETS; i++) {
            snapshot[i] = counts.getAndSet(i, 0);
            total += snapshot[i];
        }
        if (total == 0) {
            return ifEmpty;
        }
        long rank = Math.max(1L, (long) Math.ceil(q * total));
        long seen = 0;
        for (int i = 0; i < BUCKETS; i++) {
            seen += snapshot[i];
            if (seen >= rank) {
                return upperBoundMicros(i) / 1000.0;
            }
        }
        return upperBoundMicros(BUCKETS - 1) / 1000.0;
    }
}

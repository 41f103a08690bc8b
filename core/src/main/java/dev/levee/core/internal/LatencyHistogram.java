package dev.levee.core.internal;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A lock-free histogram of nanosecond latencies with log-linear buckets: fixed memory, one atomic
 * increment per sample, quantiles by one scan of the buckets (no sorting, no stored samples).
 *
 * <p><b>Buckets.</b> Values below 16 ns get a bucket each. A larger value {@code v} with highest set
 * bit {@code e} (so {@code 2^e <= v < 2^(e+1)}) falls in one of 16 equal sub-buckets of that octave:
 * <pre>{@code
 *   sub   = (v >>> (e - 4)) & 15
 *   index = (e - 3) * 16 + sub                 for v >= 16
 *   lower = (16 + sub) << (e - 4),  width = 1 << (e - 4)
 * }</pre>
 * A bucket is at most 1/16 of its lower bound wide, so reporting its midpoint is off by at most
 * 1/32 ≈ 3.1 % of the true value. 960 buckets cover every positive {@code long}.
 *
 * <p>The one latency histogram of Levee (the adaptive timeout and the hedge read quantiles from it
 * through {@link LatencyQuantile}). Not for users: may change without notice.
 */
public final class LatencyHistogram {
    /** Number of buckets: 16 linear ones plus 16 per octave for octaves 4..62. */
    public static final int BUCKETS = 960;

    private final AtomicLongArray counts = new AtomicLongArray(BUCKETS);

    /**
     * The bucket of a value.
     *
     * @param value nanoseconds; negative counts as 0
     * @return the index in {@code [0, BUCKETS)}
     */
    public static int bucketOf(long value) {
        if (value < 16) {
            return (int) Math.max(0L, value);
        }
        int e = 63 - Long.numberOfLeadingZeros(value);
        int sub = (int) ((value >>> (e - 4)) & 15);
        return (e - 3) * 16 + sub;
    }

    /**
     * The midpoint of a bucket: the value reported for every sample in it.
     *
     * @param index a bucket index
     * @return the midpoint in nanoseconds
     */
    public static long midpointOf(int index) {
        if (index < 16) {
            return index;
        }
        int e = index / 16 + 3;
        long sub = index % 16;
        long lower = (16 + sub) << (e - 4);
        long width = 1L << (e - 4);
        return lower + width / 2;
    }

    /**
     * Counts one sample.
     *
     * @param valueNanos the latency
     */
    public void record(long valueNanos) {
        counts.incrementAndGet(bucketOf(valueNanos));
    }

    /** Forgets every sample. Concurrent records may survive or not; the histogram stays consistent. */
    public void clear() {
        for (int i = 0; i < BUCKETS; i++) {
            counts.set(i, 0L);
        }
    }

    /**
     * The count of one bucket.
     *
     * @param index the bucket
     * @return its count
     */
    public long count(int index) {
        return counts.get(index);
    }

    /**
     * The value at quantile {@code q} of the union of several histograms: the midpoint of the bucket
     * holding the sample of rank {@code ceil(q * total)}.
     *
     * @param q the quantile in (0, 1]
     * @param histograms the histograms to merge
     * @return the estimate in nanoseconds, or -1 if they are empty
     */
    public static long quantile(double q, LatencyHistogram... histograms) {
        long total = 0;
        for (LatencyHistogram h : histograms) {
            for (int i = 0; i < BUCKETS; i++) {
                total += h.counts.get(i);
            }
        }
        if (total == 0) {
            return -1L;
        }
        long rank = Math.max(1L, (long) Math.ceil(q * total));
        long seen = 0;
        for (int i = 0; i < BUCKETS; i++) {
            for (LatencyHistogram h : histograms) {
                seen += h.counts.get(i);
            }
            if (seen >= rank) {
                return midpointOf(i);
            }
        }
        return midpointOf(BUCKETS - 1);
    }
}

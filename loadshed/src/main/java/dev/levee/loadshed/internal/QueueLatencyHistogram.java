package dev.levee.loadshed.internal;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Queue latency in the buckets seed 002 lists: 1, 5, 10, 25, 50, 100, 250, 500, 1000, 2500 and
 * 5000 ms, plus everything above. Cumulative counts, read by the metrics binder; recording is one
 * short scan and two ordered stores, no allocation.
 *
 * <p>Single writer: every queue records while holding its own lock, so a plain read-increment and an
 * ordered (release) store suffice; readers on other threads see each count as it was at some recent
 * moment, which is all a scrape needs.
 */
public final class QueueLatencyHistogram {
    /** Upper bounds of the buckets, in milliseconds (seed 002). */
    private static final long[] BOUNDS_MILLIS = {1, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000};
    private static final long[] BOUNDS_NANOS = new long[BOUNDS_MILLIS.length];

    static {
        for (int i = 0; i < BOUNDS_MILLIS.length; i++) {
            BOUNDS_NANOS[i] = BOUNDS_MILLIS[i] * 1_000_000L;
        }
    }

    private final AtomicLongArray counts = new AtomicLongArray(BOUNDS_MILLIS.length + 1);
    private final AtomicLong sumNanos = new AtomicLong();

    /** Creates an empty histogram. */
    public QueueLatencyHistogram() {}

    /**
     * The bucket bounds in seconds, for exporters.
     *
     * @return a copy of the bounds, ascending
     */
    public static double[] boundsSeconds() {
        double[] s = new double[BOUNDS_MILLIS.length];
        for (int i = 0; i < s.length; i++) {
            s[i] = BOUNDS_MILLIS[i] / 1000.0;
        }
        return s;
    }

    /**
     * Records one latency; called only while the owning queue's lock is held.
     *
     * @param nanos the latency; negative counts as zero
     */
    public void record(long nanos) {
        long v = Math.max(0L, nanos);
        int i = 0;
        while (i < BOUNDS_NANOS.length && v > BOUNDS_NANOS[i]) {
            i++;
        }
        counts.lazySet(i, counts.get(i) + 1);
        sumNanos.lazySet(sumNanos.get() + v);
    }

    /**
     * Entries at or below the {@code i}-th bound (cumulative), or all entries for {@code i == bounds}.
     *
     * @param i the bucket index, in [0, {@link #boundsSeconds()}.length]
     * @return the cumulative count
     */
    public long cumulativeCount(int i) {
        long sum = 0;
        for (int k = 0; k <= i; k++) {
            sum += counts.get(k);
        }
        return sum;
    }

    /** @return entries recorded */
    public long count() {
        return cumulativeCount(counts.length() - 1);
    }

    /** @return the sum of recorded latencies, nanoseconds */
    public long sumNanos() {
        return sumNanos.get();
    }
}

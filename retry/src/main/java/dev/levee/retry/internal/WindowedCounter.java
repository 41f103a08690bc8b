package dev.levee.retry.internal;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Events counted over a sliding window of time, lock-free: a ring of buckets, each one {@code long}
 * that packs the bucket's epoch tag and its count, updated by CAS.
 *
 * <p><b>Model.</b> Time is cut into buckets whose width is a power of two nanoseconds,
 * {@code width = 2^k <= window / 10} (so between a tenth and a twentieth of the window): the epoch of
 * time {@code t} is {@code e = t >> k} — a shift, not a 64-bit division, because this runs on every
 * request. The window is the last {@code n = ceil(window / width)} epochs (10 to 20 buckets), kept in a
 * ring of {@value #SLOTS} slots; slot {@code e & (SLOTS - 1)} holds {@code (e mod 2^24) << 40 | count}.
 * The first writer of a new epoch into a slot replaces the stale epoch and count in the same CAS, so
 * no separate reset step can race with an increment. {@link #sum(long)} adds the slots whose tag
 * belongs to the last {@code n} epochs, so an event stops counting between {@code window - width} and
 * {@code window + width} after it happened (within ±10% of the window).
 *
 * <p>Limits: a bucket counts up to {@code 2^40 - 1} events; a slot untouched for exactly a multiple of
 * {@code 2^24} epochs (about 100 days with 10 s windows) would be read as current once.
 *
 * <p>No allocation after construction; an increment is one volatile read and one CAS when uncontended.
 */
public final class WindowedCounter {
    /** Ring size: a power of two above the most buckets a window spans (20). */
    public static final int SLOTS = 32;
    /** The fewest buckets a window spans. */
    public static final int BUCKETS = 10;
    private static final int COUNT_BITS = 40;
    private static final long COUNT_MASK = (1L << COUNT_BITS) - 1;
    private static final long TAG_MASK = (1L << 24) - 1;

    private final int shift;
    private final int buckets;
    private final AtomicLongArray slots = new AtomicLongArray(SLOTS);

    /**
     * @param windowNanos the window length; at least {@link #BUCKETS} nanoseconds
     */
    public WindowedCounter(long windowNanos) {
        if (windowNanos < BUCKETS) {
            throw new IllegalArgumentException("WindowedCounter: window must be >= " + BUCKETS + " ns but was " + windowNanos);
        }
        this.shift = 63 - Long.numberOfLeadingZeros(windowNanos / BUCKETS);
        long width = 1L << shift;
        this.buckets = (int) ((windowNanos + width - 1) / width);
    }

    /** @return the bucket width in nanoseconds, a power of two */
    public long widthNanos() {
        return 1L << shift;
    }

    /** @return the buckets a window spans, 10 to 20 */
    public int buckets() {
        return buckets;
    }

    /**
     * The epoch of a ticker reading.
     *
     * @param nowNanos a ticker reading
     * @return {@code floor(now / width)}, an arithmetic shift
     */
    public long epoch(long nowNanos) {
        return nowNanos >> shift;
    }

    /**
     * Adds one event at time {@code nowNanos}.
     *
     * @param nowNanos the ticker reading
     */
    public void increment(long nowNanos) {
        long epoch = epoch(nowNanos);
        int slot = slot(epoch);
        long tag = epoch & TAG_MASK;
        while (true) {
            long current = slots.get(slot);
            long next = (current >>> COUNT_BITS) == tag ? current + 1 : (tag << COUNT_BITS) | 1L;
            if (slots.compareAndSet(slot, current, next)) {
                return;
            }
        }
    }

    /**
     * The raw slot value of the current bucket, for a caller that wants to add one only if nobody
     * else added in between (see {@link #tryIncrement(long, long)}).
     *
     * @param nowNanos the ticker reading
     * @return the slot's current raw value
     */
    public long raw(long nowNanos) {
        return slots.get(slot(epoch(nowNanos)));
    }

    /**
     * Adds one event at {@code nowNanos} only if the current bucket still holds {@code expectedRaw}.
     *
     * @param nowNanos the ticker reading
     * @param expectedRaw what {@link #raw(long)} returned
     * @return true if added; false if another thread changed the bucket meanwhile
     */
    public boolean tryIncrement(long nowNanos, long expectedRaw) {
        long epoch = epoch(nowNanos);
        long tag = epoch & TAG_MASK;
        long next = (expectedRaw >>> COUNT_BITS) == tag ? expectedRaw + 1 : (tag << COUNT_BITS) | 1L;
        return slots.compareAndSet(slot(epoch), expectedRaw, next);
    }

    /**
     * Events in the window ending at {@code nowNanos}.
     *
     * @param nowNanos the ticker reading
     * @return the count
     */
    public long sum(long nowNanos) {
        long epoch = epoch(nowNanos);
        long total = 0;
        for (int back = 0; back < buckets; back++) {
            long e = epoch - back;
            long value = slots.get(slot(e));
            if ((value >>> COUNT_BITS) == (e & TAG_MASK)) {
                total += value & COUNT_MASK;
            }
        }
        return total;
    }

    private static int slot(long epoch) {
        return (int) (epoch & (SLOTS - 1));
    }
}

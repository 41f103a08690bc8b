package dev.levee.retry.internal;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Events counted over a sliding window of time, lock-free: a ring of {@code BUCKETS} buckets, each one
 * {@code long} that packs the bucket's epoch tag and its count, updated by CAS.
 *
 * <p><b>Model.</b> Time is cut into buckets of {@code width = window / BUCKETS} nanoseconds; the bucket
 * of time {@code t} has epoch {@code e = floor(t / width)} and lives in slot {@code e mod BUCKETS}.
 * A slot holds {@code (e mod 2^24) << 40 | count}. The first writer of a new epoch into a slot replaces
 * the stale epoch and count in the same CAS, so no separate reset step can race with an increment.
 * {@link #sum(long)} adds the counts of the slots whose tag belongs to the last {@code BUCKETS} epochs:
 * the window therefore covers between {@code (BUCKETS - 1) / BUCKETS} and all of {@code window}.
 *
 * <p>Limits: a bucket counts up to {@code 2^40 - 1} events; a slot untouched for exactly a multiple of
 * {@code 2^24} epochs (194 days with 1 s buckets) would be read as current once.
 *
 * <p>No allocation after construction; every method is one or a few volatile reads and at most one
 * CAS per attempt.
 */
public final class WindowedCounter {
    /** Buckets per window. */
    public static final int BUCKETS = 10;
    private static final int COUNT_BITS = 40;
    private static final long COUNT_MASK = (1L << COUNT_BITS) - 1;
    private static final long TAG_MASK = (1L << 24) - 1;

    private final long widthNanos;
    private final AtomicLongArray slots = new AtomicLongArray(BUCKETS);

    /**
     * @param windowNanos the window length; at least {@link #BUCKETS} nanoseconds
     */
    public WindowedCounter(long windowNanos) {
        if (windowNanos < BUCKETS) {
            throw new IllegalArgumentException("WindowedCounter: window must be >= " + BUCKETS + " ns but was " + windowNanos);
        }
        this.widthNanos = windowNanos / BUCKETS;
    }

    /**
     * The epoch of a ticker reading.
     *
     * @param nowNanos a ticker reading
     * @return {@code floor(now / width)}
     */
    public long epoch(long nowNanos) {
        return Math.floorDiv(nowNanos, widthNanos);
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
        for (int back = 0; back < BUCKETS; back++) {
            long e = epoch - back;
            long value = slots.get(slot(e));
            if ((value >>> COUNT_BITS) == (e & TAG_MASK)) {
                total += value & COUNT_MASK;
            }
        }
        return total;
    }

    private static int slot(long epoch) {
        return (int) Math.floorMod(epoch, (long) BUCKETS);
    }
}

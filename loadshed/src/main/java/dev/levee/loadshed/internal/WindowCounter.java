package dev.levee.loadshed.internal;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A count over a sliding window of {@code buckets} time buckets, lock-free and exact. Not for users:
 * may change without notice (a candidate for {@code core.internal}).
 *
 * <p>Each bucket is one {@code long}: the bucket's epoch tag in the high {@value #TAG_BITS} bits
 * ({@code epoch mod 2^24}) and its count in the low {@value #COUNT_BITS} bits. Adding is one CAS loop
 * that either increments the count or, if the slot still holds an older epoch, replaces it with a
 * fresh count of one; so no increment is ever lost to a rollover. A reading sums the slots whose tag is
 * one of the last {@code buckets} epochs. The window therefore covers between {@code buckets − 1} and
 * {@code buckets} bucket lengths. Tags wrap after 2^24 buckets (about 5 years at 10 s buckets); a slot
 * untouched for exactly a multiple of that would be read as fresh.
 *
 * <p>A writer whose reading is older than the slot's epoch (a thread stalled between its clock reading
 * and its add for a whole window) finds a newer tag in its slot: its bucket has already left the
 * window, so its add is dropped rather than replacing the newer bucket's count. Tags compare in the
 * wrapping order: a tag up to 2^23 epochs ahead of the writer's is newer.
 */
public final class WindowCounter {
    static final int TAG_BITS = 24;
    static final int COUNT_BITS = 40;
    private static final long TAG_MASK = (1L << TAG_BITS) - 1;
    private static final long COUNT_MASK = (1L << COUNT_BITS) - 1;

    private final AtomicLongArray slots;
    private final int buckets;
    private final long bucketNanos;

    /**
     * @param buckets the number of buckets, at least 1
     * @param bucketNanos each bucket's length, positive
     */
    public WindowCounter(int buckets, long bucketNanos) {
        this.buckets = buckets;
        this.bucketNanos = bucketNanos;
        this.slots = new AtomicLongArray(buckets);
    }

    /**
     * Adds {@code delta} (positive, or -1 to undo an add) to the bucket of {@code nowNanos}. A negative
     * delta never takes a bucket below zero, and is dropped if the bucket has rolled over.
     *
     * @param nowNanos a ticker reading
     * @param delta the amount
     */
    public void add(long nowNanos, long delta) {
        long epoch = Math.floorDiv(nowNanos, bucketNanos);
        int index = (int) Math.floorMod(epoch, (long) buckets);
        long tag = epoch & TAG_MASK;
        while (true) {
            long v = slots.get(index);
            long next;
            if ((v >>> COUNT_BITS) == tag) {
                long count = (v & COUNT_MASK) + delta;
                if (count < 0) {
                    return;
                }
                next = (tag << COUNT_BITS) | Math.min(count, COUNT_MASK);
            } else {
                if (delta < 0 || (v != 0 && isNewer(v >>> COUNT_BITS, tag))) {
                    return; // an undo of a rolled-over add, or a stale writer: its bucket left the window
                }
                next = (tag << COUNT_BITS) | Math.min(delta, COUNT_MASK);
            }
            if (slots.compareAndSet(index, v, next)) {
                return;
            }
        }
    }

    /** Whether {@code slotTag} is a later epoch than {@code tag}, in the wrapping order of 24-bit tags. */
    private static boolean isNewer(long slotTag, long tag) {
        long ahead = (slotTag - tag) & TAG_MASK;
        return ahead != 0 && ahead < (1L << (TAG_BITS - 1));
    }

    /**
     * The sum over the window ending at {@code nowNanos}.
     *
     * @param nowNanos a ticker reading
     * @return the count
     */
    public long sum(long nowNanos) {
        long epoch = Math.floorDiv(nowNanos, bucketNanos);
        long currentTag = epoch & TAG_MASK;
        long sum = 0;
        for (int i = 0; i < buckets; i++) {
            long v = slots.get(i);
            if (v == 0) {
                continue;
            }
            long age = (currentTag - (v >>> COUNT_BITS)) & TAG_MASK;
            if (age < buckets) {
                sum += v & COUNT_MASK;
            }
        }
        return sum;
    }
}

package dev.levee.circuitbreaker.internal;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The calls of the last {@code windowNanos}, in buckets that roll on the breaker's ticker.
 *
 * <p><b>Layout.</b> The window of {@code B} buckets of width {@code w = windowNanos / B} is kept in a
 * ring of {@code R} entries, {@code R} the smallest power of two above {@code B} (so at least
 * {@code B + 1}); entry {@code e mod R} holds bucket epoch {@code e = floor(now / w)}.
 * Each entry is four longs of one {@link AtomicLongArray}: epoch, calls, failures, slow calls.
 * {@link #totals} sums the entries whose epoch is in {@code [eNow − B, eNow]}: the current partial
 * bucket plus the {@code B} before it, so the estimate always covers the whole window (and at most one
 * bucket width more), never a tumbling fraction of it.
 *
 * <p><b>Recording</b> a call adds to the counters of the entry whose epoch matches: one volatile read
 * and one atomic add for a fast success. The first writer to find a stale epoch claims the entry by
 * CAS-ing the epoch to a reset marker, zeroes the counters and publishes the new epoch; writers that
 * meet the marker spin for those three stores. A writer whose reading is older than the entry's epoch
 * (it read the clock, then was descheduled) adds to the newer bucket: the call is counted, slightly late.
 * A writer descheduled for a whole window between its epoch check and its add can land in a bucket
 * reset after it, and be lost; that needs a pause as long as the window.
 */
public final class TimeWindow extends SlidingWindow {
    /** Epoch marker of an entry being reset. */
    private static final long RESETTING = Long.MIN_VALUE;
    /** Epoch of an entry never written: older than any real epoch. */
    private static final long NEVER = Long.MIN_VALUE + 1;
    private static final int STRIDE = 4;

    private final int buckets;
    private final int ring;
    private final int mask;
    private final long bucketNanos;
    private final AtomicLongArray entries;
    /**
     * The epoch of the last recording: when the next reading falls in the same bucket (nearly always),
     * the epoch is found with a multiply and a compare instead of a long division. Racy on purpose: a
     * stale hint only fails the check and is recomputed.
     */
    private volatile long epochHint;
    /**
     * The latest bucket epoch in which a check saw at least the minimum number of calls; a fast success
     * in another bucket is checked (buckets may have expired, or the window is below its minimum).
     * Racy on purpose: a stale value only causes an extra check.
     */
    private volatile long minimumSeenEpoch = NEVER;

    /**
     * @param windowNanos the window length, &gt; 0
     * @param buckets the number of buckets, in [1, 1000], at most windowNanos
     */
    public TimeWindow(long windowNanos, int buckets) {
        this.buckets = buckets;
        // A power of two of at least buckets + 1 entries, so the entry index is a mask, not a division.
        this.ring = Integer.highestOneBit(buckets) << 1;
        this.mask = ring - 1;
        this.bucketNanos = Math.max(1L, windowNanos / buckets);
        this.entries = new AtomicLongArray(ring * STRIDE);
        for (int i = 0; i < ring; i++) {
            entries.set(i * STRIDE, NEVER);
        }
        this.epochHint = 0L; // a real epoch: its start, 0, cannot overflow
    }

    @Override
    public boolean record(int outcome, long nowNanos) {
        long epoch = epochHint;
        long offset = nowNanos - epoch * bucketNanos;
        if (offset < 0 || offset >= bucketNanos) {
            epoch = Math.floorDiv(nowNanos, bucketNanos);
            epochHint = epoch;
        }
        int base = ((int) epoch & mask) * STRIDE;
        while (true) {
            long current = entries.get(base);
            if (current == RESETTING) {
                Thread.onSpinWait();
                continue;
            }
            if (current >= epoch) {
                add(base, outcome);
                break;
            }
            if (entries.compareAndSet(base, current, RESETTING)) {
                entries.set(base + 1, 0L);
                entries.set(base + 2, 0L);
                entries.set(base + 3, 0L);
                entries.set(base, epoch);
                add(base, outcome);
                break;
            }
        }
        // Within one bucket nothing expires and calls only grow, so once a check saw the minimum in
        // this bucket a fast success can only lower the rates.
        return outcome != SUCCESS || epoch != minimumSeenEpoch;
    }

    @Override
    public void minimumSeen(long nowNanos) {
        minimumSeenEpoch = Math.floorDiv(nowNanos, bucketNanos);
    }

    private void add(int base, int outcome) {
        entries.getAndIncrement(base + 1);
        if (isFailure(outcome)) {
            entries.getAndIncrement(base + 2);
        }
        if (isSlow(outcome)) {
            entries.getAndIncrement(base + 3);
        }
    }

    @Override
    public long totals(long nowNanos) {
        long now = Math.floorDiv(nowNanos, bucketNanos);
        long oldest = now - buckets;
        long calls = 0;
        long failures = 0;
        long slow = 0;
        for (int i = 0; i < ring; i++) {
            int base = i * STRIDE;
            long epoch = entries.get(base);
            if (epoch == RESETTING || epoch < oldest) {
                continue;
            }
            calls += entries.get(base + 1);
            failures += entries.get(base + 2);
            slow += entries.get(base + 3);
        }
        failures = Math.min(failures, calls);
        slow = Math.min(slow, calls);
        if (calls > FIELD_MASK) {
            // Scale all three alike so the rates survive the 21-bit fields.
            double scale = (double) FIELD_MASK / calls;
            failures = (long) (failures * scale);
            slow = (long) (slow * scale);
            calls = FIELD_MASK;
        }
        return pack(calls, failures, slow);
    }

    /**
     * The exact number of calls in the window, without the 21-bit saturation of {@link #totals}.
     *
     * @param nowNanos the ticker reading
     * @return calls in the window
     */
    public long exactCalls(long nowNanos) {
        long oldest = Math.floorDiv(nowNanos, bucketNanos) - buckets;
        long calls = 0;
        for (int i = 0; i < ring; i++) {
            long epoch = entries.get(i * STRIDE);
            if (epoch != RESETTING && epoch >= oldest) {
                calls += entries.get(i * STRIDE + 1);
            }
        }
        return calls;
    }

    /** @return the bucket width in nanoseconds */
    public long bucketNanos() {
        return bucketNanos;
    }
}

package dev.levee.retry.internal;

import dev.levee.core.Ticker;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Events counted over a sliding window of time, lock-free: a ring of buckets, each one {@code long}
 * that packs the bucket's epoch tag and its count, updated by CAS.
 *
 * <p><b>Model.</b> Time is cut into buckets whose width is a power of two nanoseconds,
 * {@code width = 2^k <= window / 20} (so between a twentieth and a fortieth of the window): the epoch
 * of time {@code t} is {@code e = t >> k} — a shift, not a 64-bit division, because this runs on every
 * request. A window spans {@code n = ceil(window / width)} epochs (20 to 40 buckets), kept in a ring of
 * {@value #SLOTS} slots; slot {@code e & (SLOTS - 1)} holds {@code (e mod 2^24) << 40 | count}. The
 * first writer of a new epoch into a slot replaces the stale epoch and count in the same CAS, so no
 * separate reset step can race with an increment.
 *
 * <p><b>Guarantee: every event expires within {@value #TOLERANCE_PERCENT}% of the window</b>, for
 * every window length, in one of two directions chosen by the reader (a bucket is only known to the
 * width of a bucket, and {@code 2·width <= window / 10}):
 * <ul>
 *   <li>{@link #sum(long)}, an upper bound: the last {@code n + 1} epochs. An event counts at every
 *       age {@code <= window} and at no age {@code >= 1.1·window} (exactly: it stops before
 *       {@code window + 2·width}). Use it for what must not be under-counted, such as retries spent.</li>
 *   <li>{@link #sumWithin(long)}, a lower bound: the last {@code floor(window / width)} epochs. An
 *       event counts at every age {@code <= 0.9·window} and at no age {@code >= window} (exactly: it
 *       counts at least until {@code window - 2·width}). Use it for what must not be over-counted,
 *       such as requests that earn retries.</li>
 * </ul>
 * (Ages are {@code now - t} in ticker nanoseconds.) With 10 buckets per window instead of 20 the
 * error would reach 20% (a 3 s window has 268 ms buckets: counts lived to 116% and stopped at 89.5%).
 *
 * <p><b>Stale readings.</b> A writer whose {@code now} is a full ring old (the thread stalled between
 * reading the ticker and writing) could find its slot reused by a newer epoch and would erase that
 * bucket's counts by replacing it. So before replacing a slot's epoch, a writer re-reads the ticker and
 * drops its event if its epoch is {@value #SLOTS} or more epochs behind: such an event is outside every
 * window already.
 *
 * <p>Limits: a bucket counts up to {@code 2^40 - 1} events; a slot untouched for exactly a multiple of
 * {@code 2^24} epochs (about 50 days with 10 s windows) would be read as current once.
 *
 * <p>Cost: no allocation after construction; an increment is one volatile read and one CAS when
 * uncontended, plus one ticker read when it is the first of its bucket; a sum reads 20 to 41 slots.
 */
public final class WindowedCounter {
    /** Ring size: a power of two above the most buckets {@link #sum(long)} reads (41). */
    public static final int SLOTS = 64;
    /** The fewest buckets a window spans: {@code 2·width <= window / 10}, the 10% tolerance. */
    public static final int BUCKETS = 20;
    /** How far, in percent of the window, an event's expiry may miss the window (see the class doc). */
    public static final int TOLERANCE_PERCENT = 10;
    private static final int COUNT_BITS = 40;
    private static final long COUNT_MASK = (1L << COUNT_BITS) - 1;
    private static final long TAG_MASK = (1L << 24) - 1;

    private final int shift;
    private final int buckets;
    private final int bucketsWithin;
    private final Ticker ticker;
    private final AtomicLongArray slots = new AtomicLongArray(SLOTS);

    /**
     * @param windowNanos the window length; at least {@link #BUCKETS} nanoseconds
     * @param ticker the ticker readings come from, re-read to detect a stale reading
     */
    public WindowedCounter(long windowNanos, Ticker ticker) {
        if (windowNanos < BUCKETS) {
            throw new IllegalArgumentException("WindowedCounter: window must be >= " + BUCKETS + " ns but was " + windowNanos);
        }
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        this.shift = 63 - Long.numberOfLeadingZeros(windowNanos / BUCKETS);
        long width = 1L << shift;
        this.buckets = (int) ((windowNanos + width - 1) / width);
        this.bucketsWithin = (int) (windowNanos / width);
    }

    /** @return the bucket width in nanoseconds, a power of two */
    public long widthNanos() {
        return 1L << shift;
    }

    /** @return the buckets a window spans, {@code ceil(window / width)}: 20 to 40 */
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
     * Adds one event at time {@code nowNanos}; dropped if {@code nowNanos} is a full ring of buckets
     * behind the ticker (it would count in no window, and its slot may hold a newer bucket).
     *
     * @param nowNanos the ticker reading
     */
    public void increment(long nowNanos) {
        long epoch = epoch(nowNanos);
        int slot = slot(epoch);
        long tag = epoch & TAG_MASK;
        while (true) {
            long current = slots.get(slot);
            long next;
            if ((current >>> COUNT_BITS) == tag) {
                next = current + 1;
            } else if (stale(epoch)) {
                return;
            } else {
                next = (tag << COUNT_BITS) | 1L;
            }
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
     * @return true if added; false if another thread changed the bucket meanwhile, or if
     *         {@code nowNanos} is a full ring of buckets behind the ticker (read it again)
     */
    public boolean tryIncrement(long nowNanos, long expectedRaw) {
        return tryAdd(nowNanos, expectedRaw, 1);
    }

    /**
     * Adds {@code n} events at {@code nowNanos} only if the current bucket still holds
     * {@code expectedRaw}: all of them or none.
     *
     * @param nowNanos the ticker reading
     * @param expectedRaw what {@link #raw(long)} returned
     * @param n the events to add, at least 1
     * @return true if added; false if another thread changed the bucket meanwhile, or if
     *         {@code nowNanos} is a full ring of buckets behind the ticker (read it again)
     */
    public boolean tryAdd(long nowNanos, long expectedRaw, long n) {
        long epoch = epoch(nowNanos);
        long tag = epoch & TAG_MASK;
        long next;
        if ((expectedRaw >>> COUNT_BITS) == tag) {
            next = expectedRaw + n;
        } else if (stale(epoch)) {
            return false;
        } else {
            next = (tag << COUNT_BITS) | n;
        }
        return slots.compareAndSet(slot(epoch), expectedRaw, next);
    }

    /**
     * Events in the window ending at {@code nowNanos}, counted generously: every event of the last
     * {@code window}, and some up to {@code 2·width} older.
     *
     * @param nowNanos the ticker reading
     * @return the count
     */
    public long sum(long nowNanos) {
        return sum(nowNanos, 0, buckets + 1);
    }

    /**
     * {@link #sum(long)} without the current bucket: the events of the {@code n} buckets before it. A
     * caller that validates its decision with {@link #tryAdd} reads these first and the current bucket
     * last ({@link #raw(long)}, {@link #countIn(long, long)}), so that the CAS covers only what changed
     * since that last read.
     *
     * @param nowNanos the ticker reading
     * @return the count of the older buckets
     */
    public long sumBeforeCurrent(long nowNanos) {
        return sum(nowNanos, 1, buckets + 1);
    }

    /**
     * The events a raw slot value read by {@link #raw(long)} holds for the bucket of {@code nowNanos}.
     *
     * @param raw what {@link #raw(long)} returned for {@code nowNanos}
     * @param nowNanos the same ticker reading
     * @return its count, or 0 if the slot still holds an older bucket
     */
    public long countIn(long raw, long nowNanos) {
        return (raw >>> COUNT_BITS) == (epoch(nowNanos) & TAG_MASK) ? raw & COUNT_MASK : 0L;
    }

    /**
     * Events in the window ending at {@code nowNanos}, counted strictly: only events of the last
     * {@code window}, missing some up to {@code 2·width} younger.
     *
     * @param nowNanos the ticker reading
     * @return the count
     */
    public long sumWithin(long nowNanos) {
        return sum(nowNanos, 0, bucketsWithin);
    }

    /** The events of the buckets {@code from} to {@code to - 1} back from the current one. */
    private long sum(long nowNanos, int from, int to) {
        long epoch = epoch(nowNanos);
        long total = 0;
        for (int back = from; back < to; back++) {
            long e = epoch - back;
            long value = slots.get(slot(e));
            if ((value >>> COUNT_BITS) == (e & TAG_MASK)) {
                total += value & COUNT_MASK;
            }
        }
        return total;
    }

    /**
     * Whether an event of {@code epoch} is a full ring behind the ticker. Read after the slot: a slot
     * holding a newer epoch of the same ring position was written at or after {@code epoch + SLOTS}.
     */
    private boolean stale(long epoch) {
        return epoch(ticker.read()) - epoch >= SLOTS;
    }

    private static int slot(long epoch) {
        return (int) (epoch & (SLOTS - 1));
    }
}

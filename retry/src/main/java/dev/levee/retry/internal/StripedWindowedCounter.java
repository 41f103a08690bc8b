package dev.levee.retry.internal;

import dev.levee.core.Ticker;
import dev.levee.core.internal.ThreadStripe;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Events counted over a sliding window of time, where counting an event reads no clock: the
 * {@link WindowedCounter} ring, one per stripe, with the writers' bucket taken from a <em>published
 * epoch</em> (a coarse clock kept by this counter) instead of a ticker reading.
 *
 * <p><b>Model.</b> The buckets are {@link WindowedCounter}'s ({@code width = 2^k <= window / 20},
 * epoch {@code e = t >> k}, {@value WindowedCounter#SLOTS} slots each packing {@code (e mod 2^24) << 40
 * | count}). The counter keeps {@code published}, the newest epoch any reader has seen: every
 * {@link #sumWithin(long)} and {@link #advance(long)} raises it to the epoch of the reading it was
 * given, and a writer raises it itself after every {@value #REFRESH_EVERY}th event it adds to one
 * slot (one ticker read per {@value #REFRESH_EVERY} events at most). {@link #increment()} adds one to
 * the slot of epoch {@code published} in the calling thread's stripe: a volatile read and one CAS.
 *
 * <p><b>Guarantee: never over-counted.</b> An event is tagged with a published epoch, which came from
 * a reading taken before the event, so its tag is at most its true epoch: {@link #sumWithin(long)}
 * counts it at no age {@code >= window}, as {@link WindowedCounter#sumWithin(long)} does. The price is
 * a possible under-count: while nobody has read the clock since a bucket boundary, events keep the
 * older tag and expire up to one bucket (or more, after a long quiet spell) early. At most
 * {@code REFRESH_EVERY - 1} events per stripe are tagged early at each boundary, after which the
 * writer refreshes the epoch; once {@code published} is current, an event counts at every age up to
 * {@code 0.9·window}, as in {@link WindowedCounter}.
 *
 * <p><b>Stale writers.</b> A writer that stalled a full ring of epochs between reading
 * {@code published} and writing drops its event instead of overwriting a newer bucket (it compares
 * with {@code published}, no clock read).
 *
 * <p>Cost: no allocation after construction; {@link #increment()} is a read of the current thread's id
 * (its stripe, {@code ThreadStripe}), a volatile read, one CAS (plus one ticker read per {@value #REFRESH_EVERY} events of
 * one slot); {@link #sumWithin(long)} reads 20 to 40 slots per stripe.
 */
public final class StripedWindowedCounter {
    /** A writer refreshes the published epoch after this many events in one slot (a power of two). */
    public static final int REFRESH_EVERY = 64;
    private static final int SLOTS = WindowedCounter.SLOTS;
    private static final int COUNT_BITS = 40;
    private static final long COUNT_MASK = (1L << COUNT_BITS) - 1;
    private static final long TAG_MASK = (1L << 24) - 1;
    /** Unused slots at each end of the array: one 64-byte cache line. */
    private static final int PAD = 8;

    private final Ticker ticker;
    private final int shift;
    private final int bucketsWithin;
    private final int stripeMask;
    /**
     * Stripe {@code s}, epoch slot {@code i}: index {@code PAD + s · SLOTS + i}; stripes are 512 bytes apart,
     * and {@link #PAD} slots before the first and after the last keep them off the lines of the array's
     * header (which every access reads for its bounds check) and of whatever object follows the array.
     */
    private final AtomicLongArray slots;
    private final AtomicLong published;

    /**
     * @param windowNanos the window length; at least {@link WindowedCounter#BUCKETS} nanoseconds
     * @param ticker the clock a writer reads once per {@value #REFRESH_EVERY} events of a slot, and the
     *        first epoch is read from
     * @param stripes how many stripes, rounded up to a power of two, at most 64
     */
    public StripedWindowedCounter(long windowNanos, Ticker ticker, int stripes) {
        if (windowNanos < WindowedCounter.BUCKETS || stripes < 1) {
            throw new IllegalArgumentException("StripedWindowedCounter: window must be >= " + WindowedCounter.BUCKETS
                    + " ns and stripes >= 1, but were " + windowNanos + " ns and " + stripes);
        }
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        this.shift = 63 - Long.numberOfLeadingZeros(windowNanos / WindowedCounter.BUCKETS);
        this.bucketsWithin = (int) (windowNanos / (1L << shift));
        int n = Integer.highestOneBit(Math.min(64, stripes) * 2 - 1);
        this.stripeMask = n - 1;
        this.slots = new AtomicLongArray(PAD + n * SLOTS + PAD);
        this.published = new AtomicLong(ticker.read() >> shift);
    }

    /** @return the stripes, a power of two */
    public int stripes() {
        return stripeMask + 1;
    }

    /** @return the bucket width in nanoseconds, a power of two */
    public long widthNanos() {
        return 1L << shift;
    }

    /** Counts one event now (at the published epoch). No clock read, except once per {@value #REFRESH_EVERY} events of a slot. */
    public void increment() {
        int base = PAD + stripe() * SLOTS;
        while (true) {
            long epoch = published.get();
            long tag = epoch & TAG_MASK;
            int slot = base + (int) (epoch & (SLOTS - 1));
            long current = slots.get(slot);
            long next;
            if ((current >>> COUNT_BITS) == tag) {
                next = current + 1;
            } else if (published.get() - epoch >= SLOTS) {
                continue; // this writer stalled a full ring: read the newer epoch and try again
            } else {
                next = (tag << COUNT_BITS) | 1L;
            }
            if (slots.compareAndSet(slot, current, next)) {
                if ((next & (REFRESH_EVERY - 1)) == 0) {
                    advance(ticker.read());
                }
                return;
            }
        }
    }

    /**
     * Raises the published epoch to that of {@code nowNanos} (never lowers it).
     *
     * @param nowNanos a reading of the counter's ticker
     */
    public void advance(long nowNanos) {
        long epoch = nowNanos >> shift;
        while (true) {
            long current = published.get();
            if (current >= epoch || published.compareAndSet(current, epoch)) {
                return;
            }
        }
    }

    /**
     * Events in the window ending at {@code nowNanos}, never over-counted (see the class comment); raises
     * the published epoch to {@code nowNanos}'s first.
     *
     * @param nowNanos a reading of the counter's ticker
     * @return the count
     */
    public long sumWithin(long nowNanos) {
        advance(nowNanos);
        long epoch = nowNanos >> shift;
        long total = 0;
        for (int back = 0; back < bucketsWithin; back++) {
            long e = epoch - back;
            long tag = e & TAG_MASK;
            int offset = (int) (e & (SLOTS - 1));
            for (int s = 0; s <= stripeMask; s++) {
                long value = slots.get(PAD + s * SLOTS + offset);
                if ((value >>> COUNT_BITS) == tag) {
                    total += value & COUNT_MASK;
                }
            }
        }
        return total;
    }

    private int stripe() {
        return ThreadStripe.of(stripeMask);
    }
}

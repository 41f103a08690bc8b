package dev.levee.ratelimiter.internal;

import dev.levee.ratelimiter.RateLimitDecision;
import dev.levee.ratelimiter.RateLimiterConfig;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.jspecify.annotations.Nullable;

/**
 * Sliding-window counter over {@code k ≥ 2} sub-window buckets (seed 004 §17.3.1: "more accurate by
 * increasing the granularity of the buckets"). The window {@code P} is cut into buckets of width
 * {@code w = floor(P / k)}; the sliding window {@code (now − k·w, now]} covers the current bucket,
 * the {@code k − 1} before it in full, and part of the oldest one, which is weighted by the share
 * still covered. For {@code n} permits at {@code e} nanoseconds into bucket {@code b}, one CAS:
 * <pre>
 *   estimate = Σ count(b − j) for j in [0, k−1]  +  floor(count(b − k) · (w − e − 1) / w)
 *   grant iff estimate + n ≤ L
 * </pre>
 *
 * <p><b>Error bound.</b> The estimate differs from the true count of the sliding window only by how
 * the oldest bucket's permits were placed in it: {@code |estimate − true| ≤ count(b − k)}, the
 * permits of one bucket, where the single-window counter's error is a whole window's. Hard
 * guarantees, whatever the arrival pattern: any {@code k} consecutive buckets hold at most {@code L}
 * permits, so <b>any interval of length {@code (k − 1)·w} (a fraction {@code 1 − 1/k} of the window)
 * holds at most {@code L}</b>, and any interval of length {@code P} holds at most {@code L} plus the
 * permits of the one bucket it straddles at its start ({@code ≤ 2L}, reached only if a whole window's
 * permits fall into one bucket). With {@code k = 1} (the classic counter) the first guarantee is empty.
 *
 * <p><b>State.</b> The current bucket is one {@code long} (bucket index modulo 2^43 in the upper
 * bits, count in the lower 21) changed by CAS; the {@code k} buckets before it sit in a ring of
 * {@code k + 1} tagged {@code long}s, each written (by a max-CAS) before the head moves past its
 * bucket, so a decision that reads the head and then the ring sees final counts, and its grant (a CAS
 * on the unchanged head) cannot race a move. A reading more than a minute of buckets behind the head
 * is taken as an idle gap that wrapped the index; an idle gap of a multiple of 2^43 buckets (100 days
 * at 1 µs buckets) is misread as recent, which refuses more for one window, never grants more.
 */
public final class SubWindowCounterLimiter extends AbstractRateLimiter {
    private static final int BITS = 21;
    private static final long MASK = (1L << BITS) - 1;
    private static final long EPOCH_MASK = (1L << (64 - BITS)) - 1;
    private static final long SEALED = Long.MIN_VALUE;

    /** One grid: origin, bucket width, limit, the head and the ring. Replaced whole when the rate changes. */
    private static final class Grid {
        final long origin;
        final long width;
        final int buckets;
        final long limit;
        final long lag;
        final AtomicLong head;
        final AtomicLongArray ring;

        Grid(long origin, long period, int buckets, long limit, long used) {
            this.origin = origin;
            this.width = Math.max(1L, period / buckets);
            this.buckets = buckets;
            this.limit = limit;
            this.lag = Math.max(2L, (WindowState.LAG_NANOS + width - 1) / width);
            this.head = new AtomicLong(used);
            this.ring = new AtomicLongArray(buckets + 1);
        }

        long epochOf(long now) {
            long e = now - origin;
            return e <= 0 ? 0L : e / width;
        }

        long startOf(long epoch) {
            return origin + epoch * width;
        }

        /** {@code reading − stored} of 43-bit bucket indexes, signed; far behind means an idle gap (positive). */
        long diff(long reading, long stored) {
            long d = ((reading - stored) << BITS) >> BITS;
            return d < -lag ? d + (1L << (64 - BITS)) : d;
        }

        /** The count of bucket {@code epoch} given the head's bucket and count. */
        long count(long epoch, long headEpoch, long headCount) {
            if (epoch == headEpoch) {
                return headCount;
            }
            if (epoch > headEpoch || epoch < 0) {
                return 0L;
            }
            long v = ring.get((int) (epoch % ring.length()));
            return (v >>> BITS) == (epoch & EPOCH_MASK) ? v & MASK : 0L;
        }

        /** Records a bucket's final count before the head moves past it (the largest count written wins). */
        void publish(long epoch, long count) {
            if (epoch < 0) {
                // The head read from a reading more than the lag behind it (taken as an idle gap's wrapped
                // index): its bucket lies before the origin, where count() reads 0; there is no slot for it.
                return;
            }
            int slot = (int) (epoch % ring.length());
            long tag = epoch & EPOCH_MASK;
            long packed = tag << BITS | count;
            while (true) {
                long v = ring.get(slot);
                long vTag = v >>> BITS;
                if (vTag == tag ? (v & MASK) >= count : v != 0 && diff(vTag, tag) > 0) {
                    return; // already there, or the slot holds a newer bucket
                }
                if (ring.compareAndSet(slot, v, packed)) {
                    return;
                }
            }
        }
    }

    private volatile Grid grid;

    private final LimiterContext ctx;
    private final RateLimiterConfig config;

    /**
     * @param ctx the shared context
     * @param config the config ({@code buckets() ≥ 2})
     */
    public SubWindowCounterLimiter(LimiterContext ctx, RateLimiterConfig config) {
        this.ctx = ctx;
        this.config = config;
        this.grid = new Grid(ctx.ticker.read(), config.periodNanos(), config.buckets(), config.limit(), 0L);
    }

    @Override
    LimiterContext ctx() {
        return ctx;
    }

    @Override
    public RateLimiterConfig config() {
        return config;
    }

    @Override
    public boolean tryAcquire(int permits, long nowNanos) {
        return EncodedWait.isGranted(decide(permits, nowNanos, null, true));
    }

    @Override
    public boolean tryAcquire(int permits, long nowNanos, RateLimitDecision into) {
        return EncodedWait.isGranted(decide(permits, nowNanos, into, true));
    }

    @Override
    public long reserve(int permits, long nowNanos, long maxWaitNanos) {
        return decide(permits, nowNanos, null, true);
    }

    @Override
    long reservePeek(int permits, long nowNanos) {
        long r = decide(permits, nowNanos, null, false);
        return EncodedWait.isGranted(r) ? 0L : EncodedWait.retryAfter(r);
    }

    /** The head's bucket as a full index, reconstructed from the reading. */
    private static long headEpoch(Grid g, long readingEpoch, long h) {
        return readingEpoch - g.diff(readingEpoch & EPOCH_MASK, h >>> BITS);
    }

    /** Sum of the k newest buckets up to {@code e} (the sliding window's full part). */
    private static long fullPart(Grid g, long e, long headEpoch, long headCount) {
        long sum = 0L;
        for (int j = 0; j < g.buckets; j++) {
            sum += g.count(e - j, headEpoch, headCount);
        }
        return sum;
    }

    private static long weighted(long oldest, long width, long elapsed) {
        return oldest * Math.max(0L, width - elapsed - 1) / width;
    }

    @Override
    long resetAfterPeek(long nowNanos) {
        Grid g = grid;
        long h = g.head.get();
        if (h == SEALED) {
            return 0L;
        }
        long reading = g.epochOf(nowNanos);
        long he = headEpoch(g, reading, h);
        long e = Math.max(reading, he);
        for (long x = e; x >= e - g.buckets && x >= 0; x--) {
            if (g.count(x, he, h & MASK) > 0) {
                return Math.max(0L, g.startOf(x) + (g.buckets + 1) * g.width - nowNanos);
            }
        }
        return 0L;
    }

    @Override
    public long availablePermits(long nowNanos) {
        Grid g = grid;
        long h = g.head.get();
        if (h == SEALED) {
            return 0L;
        }
        long reading = g.epochOf(nowNanos);
        long he = headEpoch(g, reading, h);
        long e = Math.max(reading, he);
        long hc = h & MASK;
        long elapsed = Math.min(g.width, Math.max(0L, nowNanos - g.startOf(e)));
        long used = fullPart(g, e, he, hc) + weighted(g.count(e - g.buckets, he, hc), g.width, elapsed);
        return Math.max(0L, g.limit - used);
    }

    /** Decides (and, if {@code take}, takes). Returns 0 when granted (or grantable), else {@code ~retryAfter}. */
    private long decide(int permits, long now, @Nullable RateLimitDecision into, boolean take) {
        checkPermits(permits);
        Grid g = grid;
        int losses = 0;
        while (true) {
            long h = g.head.get();
            if (h == SEALED) {
                Thread.onSpinWait();
                g = grid;
                continue;
            }
            long reading = g.epochOf(now);
            long he = headEpoch(g, reading, h);
            long hc = h & MASK;
            if (reading > he && take) {
                g.publish(he, hc);
                g.head.compareAndSet(h, (reading & EPOCH_MASK) << BITS);
                continue; // decide on the moved head (or whatever a racing thread made of it)
            }
            long e = Math.max(reading, he); // a late reading decides in the head's (newer) bucket
            long width = g.width;
            long start = g.startOf(e);
            long elapsed = Math.min(width, Math.max(0L, now - start));
            long limit = g.limit;
            long full = fullPart(g, e, he, hc);
            long oldest = g.count(e - g.buckets, he, hc);
            long room = limit - full - permits;
            long weight = weighted(oldest, width, elapsed);
            if (room < 0 || weight > room) {
                long retryAfter = retryAfter(limit, width, start, oldest, room, permits, now);
                if (take) {
                    ctx.rejected(permits, retryAfter, now);
                }
                if (into != null) {
                    into.set(false, limit, Math.max(0L, limit - full - weight), retryAfter,
                            Math.max(0L, start + (g.buckets + 1) * width - now));
                }
                return EncodedWait.refused(retryAfter);
            }
            if (!take || g.head.compareAndSet(h, h + permits)) {
                if (take) {
                    ctx.granted(permits);
                }
                if (into != null) {
                    into.set(true, limit, Math.max(0L, limit - full - permits - weight), 0L,
                            Math.max(0L, start + (g.buckets + 1) * width - now));
                }
                return 0L;
            }
            losses = Contention.backOff(losses);
        }
    }

    /**
     * A hint of when {@code n} could be granted if nobody else takes any: later in this bucket while
     * only the oldest bucket's weight is in the way ({@code floor(c·(w − e − 1)/w) ≤ r} first holds at
     * {@code e = w − ceil((r + 1)·w / c)}), else the next bucket boundary.
     */
    private static long retryAfter(long limit, long width, long start, long oldest, long room, int n, long now) {
        if (n > limit) {
            return Long.MAX_VALUE;
        }
        if (room >= 0 && oldest > 0) {
            long e = Math.max(0L, width - ((room + 1) * width + oldest - 1) / oldest);
            return Math.max(1L, start + e - now);
        }
        return Math.max(1L, start + width - now);
    }

    @Override
    public boolean reserves() {
        return false;
    }

    @Override
    public long limit() {
        return grid.limit;
    }

    @Override
    public long periodNanos() {
        Grid g = grid;
        return g.width * g.buckets;
    }

    @Override
    public void setRate(long limit, Duration period) {
        RateLimiterConfig.validateRate(policy(), config.algorithm(), limit, period);
        ctx.rateLock.lock();
        try {
            Grid old = grid;
            long now = ctx.ticker.read();
            long h;
            do {
                h = old.head.get();
            } while (!old.head.compareAndSet(h, SEALED));
            Grid next = null;
            try {
                // What the old sliding window still holds becomes the new grid's current count, so a
                // change never frees capacity already used.
                long reading = old.epochOf(now);
                long he = headEpoch(old, reading, h);
                long e = Math.max(reading, he);
                long hc = h & MASK;
                long elapsed = Math.min(old.width, Math.max(0L, now - old.startOf(e)));
                long used = fullPart(old, e, he, hc) + weighted(old.count(e - old.buckets, he, hc), old.width, elapsed);
                next = new Grid(now, period.toNanos(), old.buckets, limit, Math.min(used, MASK));
            } finally {
                if (next != null) {
                    grid = next;
                } else {
                    old.head.set(h);
                }
            }
        } finally {
            ctx.rateLock.unlock();
        }
        ctx.rateChanged(limit, period.toNanos());
    }
}

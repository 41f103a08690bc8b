package dev.levee.ratelimiter.internal;

import org.jspecify.annotations.Nullable;
import dev.levee.ratelimiter.RateLimitDecision;
import dev.levee.ratelimiter.RateLimiterConfig;
import java.time.Duration;

/**
 * Sliding-window counter: the fixed windows' counts, with the previous window weighted by the part of
 * it the sliding window still covers.
 *
 * <p><b>State:</b> one {@code long} packing the window index (upper 22 bits, modulo 2^22), the previous
 * window's count and the current window's count (21 bits each). <b>Decision</b> for {@code n} at
 * {@code elapsed} nanoseconds into window {@code k} of length {@code P}, one CAS:
 * <pre>
 *   estimate = curr + prev·(1 − elapsed/P)
 *            = curr + floor(prev·(P − elapsed − 1) / P)     in whole nanoseconds
 *   grant iff estimate + n ≤ L
 * </pre>
 * The previous window is weighted by the share of its nanoseconds that the half-open sliding window
 * {@code (now − P, now]} still covers, {@code (P − elapsed − 1)/P}, and the weighted count is rounded
 * down; with that, a stream at exactly {@code L} per {@code P} is never refused (a grant made exactly
 * {@code P} ago has left the window).
 * Moving to window {@code k+1} shifts {@code curr} into {@code prev}; skipping a window clears both.
 *
 * <p><b>Bound.</b> Exact when the previous window's permits were spread evenly; in the worst case
 * (all of them at its very end) an interval of length {@code P} can see up to {@code 2L}. In
 * practice the overshoot is small, which is why it is the usual choice for API quotas: the accuracy
 * of a log at the memory of a counter.
 *
 * <p><b>Index wrap.</b> The stored index is modulo 2^22, so a reading behind the state's window is
 * ambiguous: a late reading, or a long idle gap (2^21 windows and more: 35 minutes at 1 ms, 2 s at
 * 1 µs) that wrapped the index. A reading at most {@code min(max(2, ceil(60 s / P)), 2^20)} windows
 * behind is late and decides in the state's window; further behind, the state is from before an idle
 * gap and both counts are cleared. (Without that a gap of 2^21 to 2^22 windows locked the limiter out,
 * refusing everything with a huge retryAfter for up to 2^21 windows.) The only stale effect left is
 * an idle gap within that lag of a multiple of 2^22 windows: the old counts hold for at most that lag
 * plus two windows (refusing more, never granting more). A caller whose decision lags its clock
 * reading by more than the lag is taken for a new window.
 */
public final class SlidingWindowCounterLimiter extends AbstractRateLimiter {
    private static final int BITS = 21;
    private static final long MASK = (1L << BITS) - 1;
    private static final int EPOCH_SHIFT = 2 * BITS;

    private volatile WindowState window;

    private final LimiterContext ctx;
    private final RateLimiterConfig config;

    /**
     * @param ctx the shared context
     * @param config the config
     */
    public SlidingWindowCounterLimiter(LimiterContext ctx, RateLimiterConfig config) {
        this.ctx = ctx;
        this.config = config;
        this.window = new WindowState(ctx.ticker.read(), config.periodNanos(), config.limit(), 0L);
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

    @Override
    long resetAfterPeek(long nowNanos) {
        WindowState w = window;
        long s = w.get();
        if (s == WindowState.SEALED) {
            return 0L;
        }
        long epoch = w.epochOf(nowNanos);
        long prev = (s >>> BITS) & MASK;
        long curr = s & MASK;
        long diff = w.epochDiff(epoch, s >>> EPOCH_SHIFT, EPOCH_SHIFT);
        if (diff > 0) {
            prev = diff == 1 ? curr : 0L;
            curr = 0L;
        } else {
            epoch -= diff;
        }
        return Math.max(0L, resetAfter(w.length, w.startOf(epoch), prev, curr, nowNanos));
    }

    @Override
    public long availablePermits(long nowNanos) {
        WindowState w = window;
        long s = w.get();
        if (s == WindowState.SEALED) {
            return 0L;
        }
        long epoch = w.epochOf(nowNanos);
        long prev = (s >>> BITS) & MASK;
        long curr = s & MASK;
        long diff = w.epochDiff(epoch, s >>> EPOCH_SHIFT, EPOCH_SHIFT);
        if (diff > 0) {
            prev = diff == 1 ? curr : 0L;
            curr = 0L;
        } else {
            epoch -= diff;
        }
        long elapsed = Math.min(w.length, Math.max(0L, nowNanos - w.startOf(epoch)));
        return remaining(w.limit, w.length, elapsed, prev, curr); // allocation-free (peek and gauges use it)
    }

    /**
     * Decides (and, if {@code take}, takes). Returns 0 when granted (or grantable), else
     * {@code ~retryAfter}.
     */
    private long decide(int permits, long now, @Nullable RateLimitDecision into, boolean take) {
        checkPermits(permits);
        WindowState w = window;
        // The window, its start and the elapsed part are found before the state is read (a division),
        // and the grant test below multiplies instead of dividing: the time between reading the state
        // and the CAS that commits it stays a few instructions, so concurrent deciders rarely fail each
        // other's CAS, and a failed CAS hands back the state it found instead of reading it again.
        long epochNow = w.epochOf(now);
        long startNow = w.startOf(epochNow);
        int losses = 0;
        long s = w.get();
        while (true) {
            if (s == WindowState.SEALED) {
                Thread.onSpinWait();
                w = window;
                epochNow = w.epochOf(now);
                startNow = w.startOf(epochNow);
                s = w.get();
                continue;
            }
            long epoch = epochNow;
            long start = startNow;
            long prev = (s >>> BITS) & MASK;
            long curr = s & MASK;
            long diff = w.epochDiff(epoch, s >>> EPOCH_SHIFT, EPOCH_SHIFT);
            if (diff > 0) {
                prev = diff == 1 ? curr : 0L;
                curr = 0L;
            } else if (diff < 0) {
                epoch -= diff; // a late reading decides in the state's (newer) window
                start = w.startOf(epoch);
            }
            long length = w.length;
            long elapsed = Math.min(length, Math.max(0L, now - start));
            long limit = w.limit;
            long room = limit - curr - permits;
            if (room < 0 || exceedsRoom(prev, length, elapsed, room)) {
                long retryAfter = retryAfter(limit, length, start, prev, curr, permits, now);
                if (take) {
                    ctx.rejected(permits, retryAfter, now);
                }
                if (into != null) {
                    into.set(false, limit, remaining(limit, length, elapsed, prev, curr), retryAfter,
                            resetAfter(length, start, prev, curr, now));
                }
                return EncodedWait.refused(retryAfter);
            }
            if (!take) {
                if (into != null) {
                    into.set(true, limit, remaining(limit, length, elapsed, prev, curr + permits), 0L,
                            resetAfter(length, start, prev, curr + permits, now));
                }
                return 0L;
            }
            long next = (epoch << EPOCH_SHIFT) | (prev << BITS) | (curr + permits);
            long witness = w.exchange(s, next);
            if (witness == s) {
                ctx.granted(permits);
                if (into != null) {
                    into.set(true, limit, remaining(limit, length, elapsed, prev, curr + permits), 0L,
                            resetAfter(length, start, prev, curr + permits, now));
                }
                return 0L;
            }
            s = witness;
            losses = Contention.backOff(losses);
        }
    }

    /**
     * {@code weighted(prev, P, elapsed) > room} without the division, for {@code room >= 0}:
     * {@code floor(a / P) > room} exactly when {@code a >= (room + 1)·P}, with {@code a = prev·(P − elapsed − 1)}.
     * Both products are below {@code (limit + 1)·P}, which the config keeps under 2^62.
     */
    private static boolean exceedsRoom(long prev, long length, long elapsed, long room) {
        return prev * Math.max(0L, length - elapsed - 1) >= (room + 1) * length;
    }

    /** {@code floor(prev·(P − elapsed − 1) / P)}: the previous window's share still covered. */
    private static long weighted(long prev, long length, long elapsed) {
        return prev * Math.max(0L, length - elapsed - 1) / length;
    }

    /** {@code L − curr − weighted}, at least 0. */
    private static long remaining(long limit, long length, long elapsed, long prev, long curr) {
        return Math.max(0L, limit - curr - weighted(prev, length, elapsed));
    }

    private static long resetAfter(long length, long start, long prev, long curr, long now) {
        if (curr > 0) {
            return start + 2 * length - now;
        }
        return prev > 0 ? start + length - now : 0L;
    }

    /**
     * When the estimate leaves room for {@code n}, if nobody else takes any: later in this window
     * while only the previous window's weight is in the way, else some time into the next window
     * (where the current count becomes the weighted one). With weighted count {@code c} and room
     * {@code r}, {@code floor(c·(P − e − 1)/P) ≤ r} first holds at {@code e = P − ceil((r + 1)·P / c)}.
     */
    private static long retryAfter(long limit, long length, long start, long prev, long curr, int n, long now) {
        if (n > limit) {
            return Long.MAX_VALUE;
        }
        long room = limit - curr - n;
        if (room >= 0) {
            long e = Math.max(0L, length - ceilDiv((room + 1) * length, prev));
            return Math.max(0L, start + e - now);
        }
        long roomNext = limit - n;
        long e = curr == 0 ? 0L : Math.max(0L, length - ceilDiv((roomNext + 1) * length, curr));
        return Math.max(0L, start + length + e - now);
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }

    @Override
    public boolean reserves() {
        return false;
    }

    @Override
    public long limit() {
        return window.limit;
    }

    @Override
    public long periodNanos() {
        return window.length;
    }

    @Override
    public void setRate(long limit, Duration period) {
        RateLimiterConfig.validateRate(policy(), config.algorithm(), limit, period);
        ctx.rateLock.lock();
        try {
            WindowState old = window;
            long now = ctx.ticker.read();
            long s = old.seal();
            // Publish unconditionally: the new state, or, if it could not be built, the old one unsealed.
            WindowState next = null;
            try {
                long length = period.toNanos();
                if (length == old.length) {
                    next = new WindowState(old.origin, length, limit, s);
                } else {
                    // A new grid starting now; what the old sliding window still covers becomes the
                    // current count, so the change never frees capacity already used.
                    long epoch = old.epochOf(now);
                    long diff = old.epochDiff(epoch, s >>> EPOCH_SHIFT, EPOCH_SHIFT);
                    long prev = (s >>> BITS) & MASK;
                    long curr = s & MASK;
                    if (diff > 0) {
                        prev = diff == 1 ? curr : 0L;
                        curr = 0L;
                    } else {
                        epoch -= diff;
                    }
                    long elapsed = Math.min(old.length, Math.max(0L, now - old.startOf(epoch)));
                    long used = curr + weighted(prev, old.length, elapsed);
                    next = new WindowState(now, length, limit, Math.min(used, MASK));
                }
            } finally {
                if (next != null) {
                    window = next;
                } else {
                    old.unseal(s);
                }
            }
        } finally {
            ctx.rateLock.unlock();
        }
        ctx.rateChanged(limit, period.toNanos());
    }
}

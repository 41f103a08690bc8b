package dev.levee.ratelimiter.internal;

import org.jspecify.annotations.Nullable;
import dev.levee.ratelimiter.RateLimitDecision;
import dev.levee.ratelimiter.RateLimiterConfig;
import java.time.Duration;

/**
 * Fixed window: at most {@code L} permits in each window {@code [origin + k·P, origin + (k+1)·P)}.
 *
 * <p><b>State:</b> one {@code long} packing the window index (upper 40 bits, modulo 2^40) and the
 * count granted in it (lower 24 bits). <b>Decision</b> for {@code n}, one CAS:
 * <pre>
 *   k = (now − origin) / P;   count := 0 if the state holds an older window
 *   grant iff count + n ≤ L   (then count += n)
 *   retryAfter = start of window k+1 − now
 * </pre>
 * A caller whose clock reading is older than the state's window counts in the state's window (it
 * never resets a newer count). <b>Bound:</b> {@code L} per window, but up to {@code 2L} in an interval
 * of length {@code P} that straddles a boundary ({@code L} at the end of one window, {@code L} at the
 * start of the next).
 *
 * <p><b>Index wrap.</b> The stored index is modulo 2^40, so a reading behind the state's window is
 * ambiguous: a late reading, or a long idle gap (2^39 windows and more, 6.4 days at 1 µs) that wrapped
 * the index. A reading at most one minute of windows ({@code max(2, ceil(60 s / P))}, at most 2^38)
 * behind is late and counts in the state's window; further behind, the state is from before an idle
 * gap and is cleared. (Without that a gap of 2^39 to 2^40 windows locked the limiter out, refusing
 * everything with a huge retryAfter for up to 2^39 windows.) The only stale effect left is an idle gap
 * within that lag of a multiple of 2^40 windows: the old count holds for at most that lag plus one
 * window (refusing more, never granting more). A caller whose decision lags its clock reading by more
 * than the lag is taken for a new window.
 */
public final class FixedWindowLimiter extends AbstractRateLimiter {
    private static final int COUNT_BITS = 24;
    private static final long COUNT_MASK = (1L << COUNT_BITS) - 1;

    private volatile WindowState window;

    private final LimiterContext ctx;
    private final RateLimiterConfig config;

    /**
     * @param ctx the shared context
     * @param config the config
     */
    public FixedWindowLimiter(LimiterContext ctx, RateLimiterConfig config) {
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
        return EncodedWait.isGranted(decide(permits, nowNanos, 0L, null));
    }

    @Override
    public boolean tryAcquire(int permits, long nowNanos, RateLimitDecision into) {
        return EncodedWait.isGranted(decide(permits, nowNanos, 0L, into));
    }

    @Override
    public long reserve(int permits, long nowNanos, long maxWaitNanos) {
        return decide(permits, nowNanos, maxWaitNanos, null);
    }

    /** Grants now or refuses; returns an {@link EncodedWait} code (0 when granted). */
    private long decide(int permits, long now, long ignoredWait, @Nullable RateLimitDecision into) {
        checkPermits(permits);
        WindowState w = window;
        int losses = 0;
        while (true) {
            long s = w.get();
            if (s == WindowState.SEALED) {
                Thread.onSpinWait();
                w = window;
                continue;
            }
            long epoch = w.epochOf(now);
            long count = s & COUNT_MASK;
            long diff = w.epochDiff(epoch, s >>> COUNT_BITS, COUNT_BITS);
            if (diff > 0) {
                count = 0;
            } else {
                epoch -= diff; // a late reading counts in the state's (newer) window
            }
            long windowEnd = w.startOf(epoch + 1);
            if (count + permits > w.limit) {
                long retryAfter = permits > w.limit ? Long.MAX_VALUE : Math.max(0L, windowEnd - now);
                ctx.rejected(permits, retryAfter, now);
                if (into != null) {
                    into.set(false, w.limit, w.limit - count, retryAfter, windowEnd - now);
                }
                return EncodedWait.refused(retryAfter);
            }
            long next = (epoch << COUNT_BITS) | (count + permits);
            if (w.cas(s, next)) {
                ctx.granted(permits);
                if (into != null) {
                    into.set(true, w.limit, w.limit - count - permits, 0L, windowEnd - now);
                }
                return 0L;
            }
            losses = Contention.backOff(losses);
        }
    }

    @Override
    long reservePeek(int permits, long nowNanos) {
        WindowState w = window;
        long s = w.get();
        if (s == WindowState.SEALED) {
            return 0L;
        }
        long epoch = w.epochOf(nowNanos);
        long diff = w.epochDiff(epoch, s >>> COUNT_BITS, COUNT_BITS);
        long count = diff > 0 ? 0 : s & COUNT_MASK;
        if (count + permits <= w.limit) {
            return 0L;
        }
        return permits > w.limit ? Long.MAX_VALUE : Math.max(0L, w.startOf(epoch - Math.min(diff, 0) + 1) - nowNanos);
    }

    @Override
    long resetAfterPeek(long nowNanos) {
        WindowState w = window;
        long s = w.get();
        if (s == WindowState.SEALED) {
            return 0L;
        }
        long epoch = w.epochOf(nowNanos);
        long diff = w.epochDiff(epoch, s >>> COUNT_BITS, COUNT_BITS);
        if (diff > 0 || (s & COUNT_MASK) == 0) {
            return 0L;
        }
        return Math.max(0L, w.startOf(epoch - diff + 1) - nowNanos);
    }

    @Override
    public boolean reserves() {
        return false;
    }

    @Override
    public long availablePermits(long nowNanos) {
        WindowState w = window;
        long s = w.get();
        if (s == WindowState.SEALED) {
            return 0L;
        }
        long diff = w.epochDiff(w.epochOf(nowNanos), s >>> COUNT_BITS, COUNT_BITS);
        return diff > 0 ? w.limit : Math.max(0L, w.limit - (s & COUNT_MASK));
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
                    // A new window grid starting now, carrying what the current window has granted.
                    long diff = old.epochDiff(old.epochOf(now), s >>> COUNT_BITS, COUNT_BITS);
                    long count = diff > 0 ? 0 : s & COUNT_MASK;
                    next = new WindowState(now, length, limit, count);
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

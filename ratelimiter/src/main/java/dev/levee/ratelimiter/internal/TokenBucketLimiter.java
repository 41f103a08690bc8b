package dev.levee.ratelimiter.internal;

import dev.levee.ratelimiter.RateLimitDecision;
import dev.levee.ratelimiter.RateLimiterConfig;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;

/**
 * A token bucket of capacity {@code C}, refilled with {@code L} tokens per period {@code P}, lazily
 * and in exact integer arithmetic.
 *
 * <p><b>No rounding drift.</b> Instead of adding {@code elapsed·rate} to a token count at each call
 * (which loses the fraction every time), the bucket counts tokens on one exact production curve:
 * the number of tokens produced since the bucket's origin is
 * <pre>
 *   produced(e) = floor(e·L / P) = (e / P)·L + ((e mod P)·L) / P      (e = now − origin)
 * </pre>
 * which never overflows while {@code P·L} fits in a long. <b>State:</b> one {@code long},
 * {@code base}: tokens in the bucket are {@code min(C, produced − base)}.
 *
 * <p><b>Decision</b> for {@code n} tokens, one CAS:
 * <pre>
 *   a     = produced(now)
 *   start = max(base, a − C)          (a full bucket stops filling)
 *   grant iff a − start ≥ n           (then base := start + n)
 *   retryAfter = time when produced reaches start + n, minus now
 * </pre>
 * <b>Bound.</b> In any interval of length {@code W} at most {@code C + floor(W·L/P) + 1} tokens are
 * granted (the bucket's content plus what is produced; whole tokens can arrive at both ends).
 *
 * <p><b>Waiting</b> lets {@code base} run ahead of {@code produced} (a debt), so reserved tokens are
 * paid back before anyone else is served; the bound then holds for the callers' start times. A request
 * for more than {@code C} tokens is never granted. <b>Rate changes</b> seal the current bucket (its base
 * becomes a sentinel no CAS can match), carry its token count into a new bucket with a new origin,
 * and publish it; deciders that meet the seal re-read the bucket.
 */
public final class TokenBucketLimiter extends AbstractRateLimiter {
    private static final long SEALED = Long.MIN_VALUE;
    private static final VarHandle BASE;

    static {
        try {
            BASE = MethodHandles.lookup().findVarHandle(Bucket.class, "base", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** One production curve and the state on it. */
    static final class Bucket {
        final long origin;
        final long periodNanos;
        final long refill;
        final long capacity;
        /** {@code P / L} when exact, so {@code produced} is one division; else 0. */
        final long interval;
        @SuppressWarnings("unused") // accessed through BASE
        volatile long base;

        Bucket(long origin, long periodNanos, long refill, long capacity, long base) {
            this.origin = origin;
            this.periodNanos = periodNanos;
            this.refill = refill;
            this.capacity = capacity;
            this.interval = periodNanos % refill == 0 ? periodNanos / refill : 0L;
            this.base = base;
        }

        long produced(long now) {
            long e = now - origin;
            if (e <= 0) {
                return 0L;
            }
            if (interval > 0) {
                return e / interval;
            }
            return (e / periodNanos) * refill + ((e % periodNanos) * refill) / periodNanos;
        }

        /** The earliest ticker time at which {@code produced >= k}: origin + ceil(k·P / L). */
        long timeOf(long k) {
            if (k <= 0) {
                return origin;
            }
            if (interval > 0) {
                return origin + k * interval;
            }
            long whole = (k / refill) * periodNanos;
            long part = (k % refill) * periodNanos;
            return origin + whole + (part + refill - 1) / refill;
        }
    }

    private volatile Bucket bucket;

    /**
     * @param ctx the shared context
     * @param config the config
     */
    public TokenBucketLimiter(LimiterContext ctx, RateLimiterConfig config) {
        super(ctx, config);
        // A new bucket is full: produced(origin) = 0, so base = −C.
        this.bucket = new Bucket(ctx.ticker.read(), config.periodNanos(), config.limit(), config.burst(),
                -config.burst());
    }

    @Override
    public boolean tryAcquire(int permits, long nowNanos) {
        checkPermits(permits);
        Bucket b = bucket;
        while (true) {
            long base = (long) BASE.getVolatile(b);
            if (base == SEALED) {
                Thread.onSpinWait();
                b = bucket;
                continue;
            }
            long a = b.produced(nowNanos);
            long start = Math.max(base, a - b.capacity);
            if (a - start < permits) {
                ctx.rejected(permits, retryAfter(b, start, permits, nowNanos), nowNanos);
                return false;
            }
            if (BASE.compareAndSet(b, base, start + permits)) {
                ctx.granted(permits);
                return true;
            }
        }
    }

    @Override
    public boolean tryAcquire(int permits, long nowNanos, RateLimitDecision into) {
        checkPermits(permits);
        Bucket b = bucket;
        while (true) {
            long base = (long) BASE.getVolatile(b);
            if (base == SEALED) {
                Thread.onSpinWait();
                b = bucket;
                continue;
            }
            long a = b.produced(nowNanos);
            long start = Math.max(base, a - b.capacity);
            if (a - start < permits) {
                long retryAfter = retryAfter(b, start, permits, nowNanos);
                ctx.rejected(permits, retryAfter, nowNanos);
                into.set(false, b.refill, a - start, retryAfter, b.timeOf(start + b.capacity) - nowNanos);
                return false;
            }
            if (BASE.compareAndSet(b, base, start + permits)) {
                ctx.granted(permits);
                into.set(true, b.refill, a - start - permits, 0L, b.timeOf(start + permits + b.capacity) - nowNanos);
                return true;
            }
        }
    }

    private static long retryAfter(Bucket b, long start, int permits, long now) {
        if (permits > b.capacity) {
            return Long.MAX_VALUE; // never fits in the bucket
        }
        return Math.max(0L, b.timeOf(start + permits) - now);
    }

    @Override
    public long reserve(int permits, long nowNanos, long maxWaitNanos) {
        checkPermits(permits);
        Bucket b = bucket;
        while (true) {
            long base = (long) BASE.getVolatile(b);
            if (base == SEALED) {
                Thread.onSpinWait();
                b = bucket;
                continue;
            }
            long a = b.produced(nowNanos);
            long start = Math.max(base, a - b.capacity);
            long wait = permits > b.capacity ? Long.MAX_VALUE : Math.max(0L, b.timeOf(start + permits) - nowNanos);
            if (wait > maxWaitNanos) {
                ctx.rejected(permits, wait, nowNanos);
                return ~wait;
            }
            if (BASE.compareAndSet(b, base, start + permits)) {
                ctx.granted(permits);
                return wait;
            }
        }
    }

    @Override
    long reservePeek(int permits, long nowNanos) {
        Bucket b = bucket;
        long base = (long) BASE.getVolatile(b);
        if (base == SEALED) {
            return 0L;
        }
        long start = Math.max(base, b.produced(nowNanos) - b.capacity);
        return retryAfter(b, start, permits, nowNanos);
    }

    @Override
    public boolean reserves() {
        return true;
    }

    @Override
    public long availablePermits(long nowNanos) {
        Bucket b = bucket;
        long base = (long) BASE.getVolatile(b);
        if (base == SEALED) {
            return 0L;
        }
        long a = b.produced(nowNanos);
        return Math.max(0L, a - Math.max(base, a - b.capacity));
    }

    @Override
    public long limit() {
        return bucket.refill;
    }

    @Override
    public long periodNanos() {
        return bucket.periodNanos;
    }

    @Override
    public void setRate(long limit, Duration period) {
        RateLimiterConfig.validateRate(policy(), config.algorithm(), limit, period);
        ctx.rateLock.lock();
        try {
            Bucket old = bucket;
            long now = ctx.ticker.read();
            long base;
            do {
                base = (long) BASE.getVolatile(old);
            } while (!BASE.compareAndSet(old, base, SEALED));
            long a = old.produced(now);
            long tokens = a - Math.max(base, a - old.capacity); // negative while in debt
            bucket = new Bucket(now, period.toNanos(), limit, old.capacity, -tokens);
        } finally {
            ctx.rateLock.unlock();
        }
        ctx.rateChanged(limit, period.toNanos());
    }
}

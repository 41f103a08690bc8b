package dev.levee.ratelimiter.internal;

import dev.levee.ratelimiter.RateLimitDecision;
import dev.levee.ratelimiter.RateLimiterConfig;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * A token bucket of capacity {@code C}, refilled with {@code L} tokens per period {@code P}, lazily
 * and in exact integer arithmetic.
 *
 * <p><b>No rounding drift.</b> Adding {@code elapsed·rate} to a token count at each call loses the
 * fraction every time. This bucket never does that; it keeps one {@code long} of state, in one of two
 * exact representations chosen when the rate is set:
 * <ul>
 *   <li><b>Whole interval</b> ({@code P} a multiple of {@code L}, e.g. 100 per second): tokens arrive
 *       every {@code I = P / L} nanoseconds and the state is the time the bucket will be full again,
 *       {@code full}. This is GCRA with tolerance {@code τ = C·I}:
 *       <pre>
 *   next = max(full, now) + n·I;   grant iff next − C·I ≤ now   (then full := next)
 *   tokens = floor((C·I − max(0, full − now)) / I)</pre></li>
 *   <li><b>Any other rate</b> (e.g. 3 per second): tokens are counted on one exact production curve,
 *       {@code produced(e) = floor(e·L/P) = (e / P)·L + ((e mod P)·L) / P} for {@code e} nanoseconds
 *       since the bucket's origin (no overflow while {@code P·L} fits in a long), and the state is
 *       {@code base}, with {@code tokens = min(C, produced − base)}:
 *       <pre>
 *   a = produced(now);  start = max(base, a − C);  grant iff a − start ≥ n   (then base := start + n)</pre></li>
 * </ul>
 * <b>Bound.</b> In any interval of length {@code W} at most {@code C + floor(W·L/P) + 1} tokens are
 * granted (the bucket's content plus what is produced; on the counting curve whole tokens can arrive
 * at both ends), and {@code C + floor(W / I)} in the whole-interval case.
 *
 * <p><b>Waiting</b> lets the state run ahead of the refill (a debt), so reserved tokens are paid back
 * before anyone else is served; the bound then holds for the callers' start times. A request for more
 * than {@code C} tokens is never granted: it is refused before {@code n·I} is computed, which could
 * overflow (and wrap into a grant) for a huge {@code n}. <b>Rate changes</b> seal the current bucket (its state
 * becomes a sentinel no CAS can match), carry its token count (or debt) into a new bucket, and publish
 * it; deciders that meet the seal re-read the bucket.
 */
public final class TokenBucketLimiter extends AbstractRateLimiter {
    private static final long SEALED = Long.MIN_VALUE;
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(Bucket.class, "state", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** One representation of the bucket and its state. */
    static final class Bucket {
        final long origin;
        final long periodNanos;
        final long refill;
        final long capacity;
        /** {@code P / L} when exact (the whole-interval representation), else 0 (the counting curve). */
        final long interval;
        /** {@code C·I} in the whole-interval representation. */
        final long tau;
        @SuppressWarnings("unused") // accessed through STATE
        volatile long state;

        Bucket(long now, long periodNanos, long refill, long capacity, long tokens) {
            this.origin = now;
            this.periodNanos = periodNanos;
            this.refill = refill;
            this.capacity = capacity;
            long whole = periodNanos % refill == 0 ? periodNanos / refill : 0L;
            // The time representation needs C·I to fit comfortably; a huge capacity at a slow rate
            // uses the counting curve instead (also exact).
            this.interval = whole > 0 && capacity <= (Long.MAX_VALUE / 4) / whole ? whole : 0L;
            this.tau = capacity * interval;
            // Start holding `tokens` (negative: a debt carried over from a rate change).
            this.state = interval > 0 ? now + (capacity - tokens) * interval : -tokens;
        }

        long produced(long now) {
            long e = now - origin;
            if (e <= 0) {
                return 0L;
            }
            return (e / periodNanos) * refill + ((e % periodNanos) * refill) / periodNanos;
        }

        /** The earliest ticker time at which {@code produced >= k}: origin + ceil(k·P / L). */
        long timeOf(long k) {
            if (k <= 0) {
                return origin;
            }
            long whole = (k / refill) * periodNanos;
            long part = (k % refill) * periodNanos;
            return origin + whole + (part + refill - 1) / refill;
        }

        /** Tokens held at {@code now} in state {@code s}; negative while in debt. */
        long tokens(long s, long now) {
            if (interval > 0) {
                return Math.floorDiv(tau - Math.max(0L, s - now), interval);
            }
            long a = produced(now);
            return a - Math.max(s, a - capacity);
        }

        /** How long until {@code n} tokens are held, from state {@code s}. */
        long retryAfter(long s, int n, long now) {
            if (n > capacity) {
                return Long.MAX_VALUE; // never fits in the bucket
            }
            if (interval > 0) {
                return Math.max(0L, Math.max(s, now) + n * interval - tau - now);
            }
            long start = Math.max(s, produced(now) - capacity);
            return Math.max(0L, timeOf(start + n) - now);
        }

        /** How long until the bucket is full, from state {@code s}. */
        long resetAfter(long s, long now) {
            if (interval > 0) {
                return Math.max(0L, s - now);
            }
            long start = Math.max(s, produced(now) - capacity);
            return Math.max(0L, timeOf(start + capacity) - now);
        }
    }

    private volatile Bucket bucket;

    /**
     * @param ctx the shared context
     * @param config the config
     */
    public TokenBucketLimiter(LimiterContext ctx, RateLimiterConfig config) {
        super(ctx, config);
        this.bucket = new Bucket(ctx.ticker.read(), config.periodNanos(), config.limit(), config.burst(),
                config.initialTokens());
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

    /**
     * The decision core behind {@code tryAcquire} (no wait), the decision-filling form and
     * {@code reserve}: one CAS loop. Grants when the tokens are held within {@code maxWaitNanos}
     * (taking them, as a debt if they are due later), else refuses with the wait as {@code retryAfter}.
     * More than the capacity never fits, even with an unbounded wait.
     *
     * @return an {@link EncodedWait} code
     */
    private long decide(int permits, long nowNanos, long maxWaitNanos, @Nullable RateLimitDecision into) {
        checkPermits(permits);
        Bucket b = bucket;
        int losses = 0;
        long s = (long) STATE.getVolatile(b);
        while (true) {
            if (s == SEALED) {
                Thread.onSpinWait();
                b = bucket;
                s = (long) STATE.getVolatile(b);
                continue;
            }
            // The state after taking the tokens, available or not (a debt if short): the same formula
            // grants now and books the future; the wait is read off it.
            long next;
            long wait;
            if (permits > b.capacity) {
                next = SEALED;
                wait = Long.MAX_VALUE; // never fits; refused before n·I can overflow
            } else if (b.interval > 0) {
                next = Math.max(s, nowNanos) + permits * b.interval;
                wait = Math.max(0L, next - b.tau - nowNanos);
            } else {
                long a = b.produced(nowNanos);
                next = Math.max(s, a - b.capacity) + permits;
                wait = next <= a ? 0L : Math.max(0L, b.timeOf(next) - nowNanos);
            }
            if (wait > maxWaitNanos || next == SEALED) {
                ctx.rejected(permits, wait, nowNanos);
                if (into != null) {
                    into.set(false, b.refill, b.tokens(s, nowNanos), wait, b.resetAfter(s, nowNanos));
                }
                return EncodedWait.refused(wait);
            }
            // The witness of a failed exchange is the new state: no second read of a contended line.
            long witness = (long) STATE.compareAndExchange(b, s, next);
            if (witness == s) {
                ctx.granted(permits);
                if (into != null) {
                    into.set(true, b.refill, b.tokens(next, nowNanos), 0L, b.resetAfter(next, nowNanos));
                }
                return EncodedWait.granted(wait);
            }
            s = witness;
            losses = Contention.backOff(losses);
        }
    }

    /**
     * Takes the unused booking off the state ({@code n·I}, or {@code n} on the counting curve), in the
     * current bucket (after a rate change, the carried one). The bucket never holds more than its
     * capacity: the token count is capped by construction.
     */
    @Override
    void giveBack(int permits, long bookedAtNanos) {
        int losses = 0;
        while (true) {
            Bucket b = bucket;
            long s = (long) STATE.getVolatile(b);
            if (s == SEALED) {
                Thread.onSpinWait();
                continue;
            }
            long back = b.interval > 0 ? s - permits * b.interval : s - permits;
            if (back == SEALED) {
                back++;
            }
            if (STATE.compareAndSet(b, s, back)) {
                return;
            }
            losses = Contention.backOff(losses);
        }
    }

    @Override
    long reservePeek(int permits, long nowNanos) {
        Bucket b = bucket;
        long s = (long) STATE.getVolatile(b);
        return s == SEALED ? 0L : b.retryAfter(s, permits, nowNanos);
    }

    @Override
    long balancePeek(long nowNanos) {
        Bucket b = bucket;
        long s = (long) STATE.getVolatile(b);
        return s == SEALED ? 0L : b.tokens(s, nowNanos);
    }

    @Override
    long resetAfterPeek(long nowNanos) {
        Bucket b = bucket;
        long s = (long) STATE.getVolatile(b);
        return s == SEALED ? 0L : b.resetAfter(s, nowNanos);
    }

    @Override
    public boolean reserves() {
        return true;
    }

    @Override
    public long availablePermits(long nowNanos) {
        Bucket b = bucket;
        long s = (long) STATE.getVolatile(b);
        return s == SEALED ? 0L : Math.max(0L, b.tokens(s, nowNanos));
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
            long s;
            do {
                s = (long) STATE.getVolatile(old);
            } while (!STATE.compareAndSet(old, s, SEALED));
            // Publish unconditionally: the new bucket, or, if it could not be built, the old one unsealed.
            Bucket next = null;
            try {
                next = new Bucket(now, period.toNanos(), limit, old.capacity, old.tokens(s, now));
            } finally {
                if (next != null) {
                    bucket = next;
                } else {
                    STATE.setVolatile(old, s);
                }
            }
        } finally {
            ctx.rateLock.unlock();
        }
        ctx.rateChanged(limit, period.toNanos());
    }
}

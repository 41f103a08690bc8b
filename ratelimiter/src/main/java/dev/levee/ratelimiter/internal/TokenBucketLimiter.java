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
 * overflow (and wrap into a grant) for a huge {@code n}. <b>Rate changes</b> seal the state (a sentinel no
 * CAS can match), carry its token count (or debt) into a new bucket, publish the bucket, then the state;
 * deciders read the state before the bucket and wait out a seal. The carried state always differs from
 * the sealed one (on the time representation by 1 ns earlier, never a whole token; on the counting
 * curve by moving the new origin one period back), so a decider that read the old state and bucket
 * cannot complete its exchange after the change.
 *
 * <p><b>Layout.</b> The bucket (rate, capacity, origin, context, config) is immutable and shared by the
 * limiters of one config — the keys of a keyed limiter — until a rate change gives one its own; the
 * state {@code long} lives in the limiter. A limiter is 32 bytes (header, the registry's stamp, the
 * bucket's reference and the state), the whole per-key cost besides the map's node.
 */
public final class TokenBucketLimiter extends AbstractRateLimiter implements SlotAlgorithm {
    private static final long SEALED = Long.MIN_VALUE;
    private static final VarHandle STATE;
    /** A {@code long[]} element: a key's state in a {@link KeyedStateTable}. */
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(long[].class);

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(TokenBucketLimiter.class, "state", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** One representation of the bucket: rate, capacity and the origin of its production curve. */
    static final class Bucket {
        final LimiterContext ctx;
        final RateLimiterConfig config;
        final long origin;
        final long periodNanos;
        final long refill;
        final long capacity;
        /** {@code P / L} when exact (the whole-interval representation), else 0 (the counting curve). */
        final long interval;
        /** {@code C·I} in the whole-interval representation. */
        final long tau;

        Bucket(LimiterContext ctx, RateLimiterConfig config, long origin, long periodNanos, long refill,
                long capacity) {
            this.ctx = ctx;
            this.config = config;
            this.origin = origin;
            this.periodNanos = periodNanos;
            this.refill = refill;
            this.capacity = capacity;
            long whole = periodNanos % refill == 0 ? periodNanos / refill : 0L;
            // The time representation needs C·I to fit comfortably; a huge capacity at a slow rate
            // uses the counting curve instead (also exact).
            this.interval = whole > 0 && capacity <= (Long.MAX_VALUE / 4) / whole ? whole : 0L;
            this.tau = capacity * interval;
        }

        /** The state holding {@code tokens} at {@code now} (negative: a debt carried over a rate change). */
        long holding(long tokens, long now) {
            return interval > 0 ? now + (capacity - tokens) * interval : produced(now) - tokens;
        }

        /** The state of a full bucket at any time from the origin on: no clock reading needed. */
        long full() {
            return interval > 0 ? origin : -capacity;
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

        /**
         * {@link #produced(long)} on the counting curve, where {@link #taken} and {@link #waitFor} need it;
         * 0 on the time representation, which does not (so a decision divides only when it must).
         */
        long producedIfCounting(long now) {
            return interval > 0 ? 0L : produced(now);
        }

        /**
         * The state after taking {@code permits} tokens at {@code now} from state {@code s}, available or
         * not (a debt if short): the same formula grants now and books the future.
         * <pre>
         *   time representation:  next = max(s, now) + n·I
         *   counting curve:       next = max(s, produced − C) + n
         * </pre>
         *
         * @param produced {@link #producedIfCounting(long)} of {@code now}
         * @return the next state, or {@link #SEALED} if {@code permits} exceeds the capacity (it never
         *         fits; refused before {@code n·I} can overflow)
         */
        long taken(long s, int permits, long now, long produced) {
            if (permits > capacity) {
                return SEALED;
            }
            return interval > 0 ? Math.max(s, now) + permits * interval : Math.max(s, produced - capacity) + permits;
        }

        /**
         * How long a decision that moves the state to {@code next} must wait for its tokens.
         * <pre>
         *   time representation:  max(0, next − τ − now)
         *   counting curve:       0 if next ≤ produced, else max(0, timeOf(next) − now)
         * </pre>
         *
         * @param next what {@link #taken} returned
         * @param produced {@link #producedIfCounting(long)} of {@code now}
         * @return the wait in nanoseconds; {@code Long.MAX_VALUE} for a request that never fits
         */
        long waitFor(long next, long now, long produced) {
            if (next == SEALED) {
                return Long.MAX_VALUE;
            }
            if (interval > 0) {
                return Math.max(0L, next - tau - now);
            }
            return next <= produced ? 0L : Math.max(0L, timeOf(next) - now);
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
            long produced = producedIfCounting(now);
            return waitFor(taken(s, n, now, produced), now, produced);
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
    @SuppressWarnings("unused") // accessed through STATE
    private volatile long state;

    /**
     * @param ctx the shared context
     * @param config the config
     */
    public TokenBucketLimiter(LimiterContext ctx, RateLimiterConfig config) {
        Bucket b = ctx.shared(config, c -> new Bucket(ctx, c, ctx.ticker.read(), c.periodNanos(), c.limit(), c.burst()));
        this.bucket = b;
        // A bucket that starts full needs no clock reading (its state is the same at any time from the
        // shared origin on); one that starts part-full is filled from now.
        this.state = config.initialTokens() >= b.capacity ? b.full() : b.holding(config.initialTokens(), ctx.ticker.read());
    }

    @Override
    LimiterContext ctx() {
        return bucket.ctx;
    }

    @Override
    public RateLimiterConfig config() {
        return bucket.config;
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
        int losses = 0;
        long s = (long) STATE.getVolatile(this);
        while (true) {
            if (s == SEALED) {
                Thread.onSpinWait();
                s = (long) STATE.getVolatile(this);
                continue;
            }
            // Read after the state: a state written after a rate change comes with its bucket.
            Bucket b = bucket;
            // The state after taking the tokens, available or not (a debt if short): the same formula
            // grants now and books the future; the wait is read off it.
            long produced = b.producedIfCounting(nowNanos);
            long next = b.taken(s, permits, nowNanos, produced);
            long wait = b.waitFor(next, nowNanos, produced);
            if (wait > maxWaitNanos || next == SEALED) {
                b.ctx.rejected(permits, wait, nowNanos);
                if (into != null) {
                    into.set(false, b.refill, b.tokens(s, nowNanos), wait, b.resetAfter(s, nowNanos));
                }
                return EncodedWait.refused(wait);
            }
            // The witness of a failed exchange is the new state: no second read of a contended line.
            long witness = (long) STATE.compareAndExchange(this, s, next);
            if (witness == s) {
                b.ctx.granted(permits);
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
     * The same decision as {@link #tryAcquire(int, long, RateLimitDecision)} (no wait), on a key's state
     * held in a {@link KeyedStateTable} slot; this limiter is the tier's prototype (its bucket is the
     * tier's; its own state is never touched). The bucket's formulas, as in {@link #decide}, with no wait allowed. A
     * table's bucket never changes (a key whose rate changes is promoted first), so no seal is waited for.
     */
    @Override
    public long decideInSlot(long[] words, int at, int permits, long nowNanos, @Nullable RateLimitDecision into) {
        checkPermits(permits);
        Bucket b = bucket;
        int losses = 0;
        long s = (long) SLOT.getVolatile(words, at);
        while (true) {
            if (KeyedStateTable.isSentinel(s)) {
                return KeyedStateTable.GONE;
            }
            long produced = b.producedIfCounting(nowNanos);
            long next = b.taken(s, permits, nowNanos, produced);
            long wait = b.waitFor(next, nowNanos, produced);
            if (wait > 0L || next == SEALED) {
                b.ctx.rejected(permits, wait, nowNanos);
                if (into != null) {
                    into.set(false, b.refill, b.tokens(s, nowNanos), wait, b.resetAfter(s, nowNanos));
                }
                return KeyedStateTable.refused(wait);
            }
            long witness = (long) SLOT.compareAndExchange(words, at, s, next);
            if (witness == s) {
                b.ctx.granted(permits);
                if (into != null) {
                    into.set(true, b.refill, b.tokens(next, nowNanos), 0L, b.resetAfter(next, nowNanos));
                }
                return EncodedWait.granted(0L);
            }
            s = witness;
            losses = Contention.backOff(losses);
        }
    }

    /** A full bucket needs no reading (the shared origin); a part-full one is filled from now. */
    @Override
    public long freshState(long nowNanos) {
        Bucket b = bucket;
        return config().initialTokens() >= b.capacity ? b.full() : b.holding(config().initialTokens(), nowNanos);
    }

    @Override
    public AbstractRateLimiter promoted(LimiterContext ctx, long state) {
        TokenBucketLimiter own = new TokenBucketLimiter(ctx, config());
        own.state = state; // published with the object
        return own;
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
            long s = (long) STATE.getVolatile(this);
            if (s == SEALED) {
                Thread.onSpinWait();
                continue;
            }
            Bucket b = bucket;
            long back = b.interval > 0 ? s - permits * b.interval : s - permits;
            if (back == SEALED) {
                back++;
            }
            if (STATE.compareAndSet(this, s, back)) {
                return;
            }
            losses = Contention.backOff(losses);
        }
    }

    @Override
    long reservePeek(int permits, long nowNanos) {
        long s = (long) STATE.getVolatile(this);
        Bucket b = bucket;
        return s == SEALED ? 0L : b.retryAfter(s, permits, nowNanos);
    }

    @Override
    long balancePeek(long nowNanos) {
        long s = (long) STATE.getVolatile(this);
        Bucket b = bucket;
        return s == SEALED ? 0L : b.tokens(s, nowNanos);
    }

    @Override
    long resetAfterPeek(long nowNanos) {
        long s = (long) STATE.getVolatile(this);
        Bucket b = bucket;
        return s == SEALED ? 0L : b.resetAfter(s, nowNanos);
    }

    @Override
    public boolean reserves() {
        return true;
    }

    @Override
    public long availablePermits(long nowNanos) {
        long s = (long) STATE.getVolatile(this);
        Bucket b = bucket;
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
        RateLimiterConfig.validateRate(policy(), config().algorithm(), limit, period);
        LimiterContext ctx = ctx();
        ctx.rateLock.lock();
        try {
            long now = ctx.ticker.read();
            long s;
            do {
                s = (long) STATE.getVolatile(this);
            } while (s == SEALED || !STATE.compareAndSet(this, s, SEALED));
            Bucket old = bucket;
            // Publish unconditionally: the new bucket and carried state, or, if they could not be built,
            // the old state unsealed.
            long published = s;
            try {
                long tokens = old.tokens(s, now);
                Bucket next = new Bucket(ctx, old.config, now, period.toNanos(), limit, old.capacity);
                long carried = next.holding(tokens, now);
                if (carried == s) {
                    // Never the value a stale decider read: 1 ns earlier on the time representation (the
                    // same tokens now), or the counting curve started one period back (produced(now) = L).
                    if (next.interval > 0) {
                        carried--;
                    } else {
                        next = new Bucket(ctx, old.config, now - next.periodNanos, next.periodNanos, limit, old.capacity);
                        carried = next.holding(tokens, now);
                    }
                }
                bucket = next;
                published = carried;
            } finally {
                STATE.setVolatile(this, published);
            }
        } finally {
            ctx.rateLock.unlock();
        }
        ctx.rateChanged(limit, period.toNanos());
    }
}

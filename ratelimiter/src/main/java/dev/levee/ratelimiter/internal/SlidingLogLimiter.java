package dev.levee.ratelimiter.internal;

import org.jspecify.annotations.Nullable;
import dev.levee.core.InvalidConfigException;
import dev.levee.ratelimiter.RateLimitDecision;
import dev.levee.ratelimiter.RateLimiterConfig;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;

/**
 * Sliding log: the time of each of the last {@code C} grants, so the limit is exact.
 *
 * <p><b>Model.</b> Grants are numbered {@code 0, 1, 2, ...} by a cursor. Grant {@code j} may happen
 * at {@code now} only if grant {@code j − L} happened at or before {@code now − P}:
 * <pre>
 *   grant n permits (numbers c .. c+n−1) iff time(j − L) ≤ now − P for each j     (then cursor := c+n)
 *   retryAfter = max over those j of time(j − L) + P − now
 * </pre>
 * <b>Bound:</b> any {@code L + 1} grants include two numbered {@code j − L} and {@code j} that are at
 * least {@code P} apart, so a half-open interval of length {@code P} holds at most {@code L} grants.
 * (Under concurrency, grants are numbered in CAS order while their times are the callers' clock
 * readings. The bound is exact when callers commit in the order they read the clock (always with one
 * thread, and with a frozen clock under any concurrency, which {@code ConcurrencyTest} checks); a
 * caller that commits after a later reader can be granted against a log that is newer than its own
 * reading, so measured by the callers' readings the window can shift by that skew.)
 *
 * <p><b>Memory</b> is bounded by the limit: a ring of {@code C} slots (the limit at build;
 * {@code setRate} may lower the limit, not raise it above {@code C}), 16 bytes each, holding a
 * grant's number and time. <b>Concurrency:</b> a grant claims its numbers with one CAS on the cursor,
 * then writes time and number into its slots; a reader checks that a slot holds the number it needs
 * (so a slot claimed but not yet written is never mistaken for an older, expired one) and retries
 * briefly otherwise. No lock.
 */
public final class SlidingLogLimiter extends AbstractRateLimiter {
    private static final VarHandle CURSOR;
    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final int SPINS_BEFORE_YIELD = 64;

    static {
        try {
            CURSOR = MethodHandles.lookup().findVarHandle(SlidingLogLimiter.class, "cursor", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The limit and period in force. */
    private static final class Params {
        final long limit;
        final long period;

        Params(long limit, long period) {
            this.limit = limit;
            this.period = period;
        }
    }

    private final int capacity;
    /** slots[2i] = grant number, slots[2i+1] = its time; slot i holds grants ≡ i (mod capacity). */
    private final long[] slots;
    private volatile Params params;
    @SuppressWarnings("unused") // accessed through CURSOR
    private volatile long cursor;

    private final LimiterContext ctx;
    private final RateLimiterConfig config;

    /**
     * @param ctx the shared context
     * @param config the config
     */
    public SlidingLogLimiter(LimiterContext ctx, RateLimiterConfig config) {
        this.ctx = ctx;
        this.config = config;
        this.capacity = (int) config.limit();
        this.slots = new long[2 * capacity];
        for (int i = 0; i < capacity; i++) {
            slots[2 * i] = i - capacity; // grants −C .. −1 happened "long ago"
            slots[2 * i + 1] = Long.MIN_VALUE;
        }
        this.params = new Params(config.limit(), config.periodNanos());
    }

    @Override
    LimiterContext ctx() {
        return ctx;
    }

    @Override
    public RateLimiterConfig config() {
        return config;
    }

    /**
     * The time of grant {@code m}, or {@link Long#MAX_VALUE} while its slot is claimed but not yet
     * written, or {@link Long#MIN_VALUE} + 1 if the slot has moved on past {@code m} (re-read the cursor).
     */
    private long timeOf(long m) {
        int i = (int) Math.floorMod(m, (long) capacity);
        long stamp = (long) SLOTS.getAcquire(slots, 2 * i);
        if (stamp == m) {
            long t = (long) SLOTS.getOpaque(slots, 2 * i + 1);
            // Re-check: the slot may have been reused between the two reads.
            if ((long) SLOTS.getAcquire(slots, 2 * i) == m) {
                return t;
            }
            return Long.MIN_VALUE + 1;
        }
        return stamp < m ? Long.MAX_VALUE : Long.MIN_VALUE + 1;
    }

    @Override
    public boolean tryAcquire(int permits, long nowNanos) {
        return EncodedWait.isGranted(decide(permits, nowNanos, null));
    }

    @Override
    public boolean tryAcquire(int permits, long nowNanos, RateLimitDecision into) {
        return EncodedWait.isGranted(decide(permits, nowNanos, into));
    }

    @Override
    public long reserve(int permits, long nowNanos, long maxWaitNanos) {
        return decide(permits, nowNanos, null);
    }

    private long decide(int permits, long now, @Nullable RateLimitDecision into) {
        checkPermits(permits);
        Params p = params;
        long limit = p.limit;
        if (permits > limit) {
            ctx.rejected(permits, Long.MAX_VALUE, now);
            if (into != null) { // never granted, but what is left is still worth reporting
                long c = (long) CURSOR.getVolatile(this);
                into.set(false, limit, remaining(c, p, now), Long.MAX_VALUE, resetAfter(c, p, now));
            }
            return EncodedWait.refused(Long.MAX_VALUE);
        }
        long expiredBy = now - p.period;
        int spins = 0;
        retry:
        while (true) {
            long c = (long) CURSOR.getVolatile(this);
            long latest = Long.MIN_VALUE;
            for (long j = c; j < c + permits; j++) {
                long t = timeOf(j - limit);
                if (t == Long.MIN_VALUE + 1 || t == Long.MAX_VALUE) {
                    // The cursor moved on, or a grant is being written: look again.
                    if (++spins > SPINS_BEFORE_YIELD) {
                        Thread.yield();
                    } else {
                        Thread.onSpinWait();
                    }
                    continue retry;
                }
                latest = Math.max(latest, t);
            }
            if (latest > expiredBy) {
                long retryAfter = latest - expiredBy;
                if ((long) CURSOR.getVolatile(this) != c) {
                    continue; // decided on a stale cursor; the answer may differ now
                }
                ctx.rejected(permits, retryAfter, now);
                if (into != null) {
                    // Fewer permits than asked may still be left: report them, as the other algorithms do.
                    into.set(false, limit, remaining(c, p, now), retryAfter, resetAfter(c, p, now));
                }
                return EncodedWait.refused(retryAfter);
            }
            if (CURSOR.compareAndSet(this, c, c + permits)) {
                for (long j = c; j < c + permits; j++) {
                    int i = (int) Math.floorMod(j, (long) capacity);
                    SLOTS.setOpaque(slots, 2 * i + 1, now);
                    SLOTS.setRelease(slots, 2 * i, j);
                }
                ctx.granted(permits);
                if (into != null) {
                    into.set(true, limit, remaining(c + permits, p, now), 0L, resetAfter(c + permits, p, now));
                }
                return 0L;
            }
        }
    }

    /** Grants that could be taken now: the first k ≥ 0 such that grant (c + k − L) is still in the window. */
    private long remaining(long c, Params p, long now) {
        long expiredBy = now - p.period;
        long lo = 0;
        long hi = p.limit; // remaining is in [0, L]
        while (lo < hi) {
            long mid = (lo + hi + 1) >>> 1;
            long t = timeOf(c + mid - 1 - p.limit);
            if (t != Long.MAX_VALUE && t <= expiredBy) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    private long resetAfter(long c, Params p, long now) {
        if (c == 0) {
            return 0L;
        }
        long t = timeOf(c - 1);
        if (t == Long.MIN_VALUE || t == Long.MIN_VALUE + 1) {
            return 0L;
        }
        return t == Long.MAX_VALUE ? p.period : Math.max(0L, t + p.period - now);
    }

    @Override
    long reservePeek(int permits, long nowNanos) {
        Params p = params;
        if (permits > p.limit) {
            return Long.MAX_VALUE;
        }
        long c = (long) CURSOR.getVolatile(this);
        long latest = Long.MIN_VALUE;
        for (long j = c; j < c + permits; j++) {
            long t = timeOf(j - p.limit);
            if (t != Long.MIN_VALUE + 1) {
                latest = Math.max(latest, t == Long.MAX_VALUE ? nowNanos : t);
            }
        }
        return latest == Long.MIN_VALUE ? 0L : Math.max(0L, latest + p.period - nowNanos);
    }

    @Override
    long resetAfterPeek(long nowNanos) {
        Params p = params;
        long c = (long) CURSOR.getVolatile(this);
        return resetAfter(c, p, nowNanos);
    }

    @Override
    public boolean reserves() {
        return false;
    }

    @Override
    public long availablePermits(long nowNanos) {
        return remaining((long) CURSOR.getVolatile(this), params, nowNanos);
    }

    @Override
    public long limit() {
        return params.limit;
    }

    @Override
    public long periodNanos() {
        return params.period;
    }

    /**
     * Changes limit and period. The log keeps its capacity, so the limit may not exceed the limit the
     * limiter was built with.
     */
    @Override
    public void setRate(long limit, Duration period) {
        RateLimiterConfig.validateRate(policy(), config.algorithm(), limit, period);
        if (limit > capacity) {
            throw new InvalidConfigException(policy(), "limit", "<= the log capacity fixed at build (" + capacity + ")",
                    limit);
        }
        params = new Params(limit, period.toNanos());
        ctx.rateChanged(limit, period.toNanos());
    }
}

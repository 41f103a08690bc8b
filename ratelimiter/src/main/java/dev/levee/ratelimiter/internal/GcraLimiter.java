package dev.levee.ratelimiter.internal;

import dev.levee.core.internal.Validate;
import dev.levee.ratelimiter.RateLimitDecision;
import dev.levee.ratelimiter.RateLimiterConfig;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.math.BigInteger;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * The generic cell rate algorithm (GCRA), the virtual-scheduling form.
 *
 * <p><b>State:</b> one {@code long}, the theoretical arrival time {@code tat}: the instant at which
 * the limiter would be idle again if nothing else arrived. <b>Parameters:</b> the emission interval
 * {@code T = ceil(period / limit)} nanoseconds and the burst tolerance {@code τ = burst·T}.
 *
 * <p><b>Decision</b> for {@code n} permits at time {@code now}, one CAS:
 * <pre>
 *   next  = max(tat, now) + n·T
 *   grant iff next − τ ≤ now          (then tat := next)
 *   retryAfter = next − τ − now        (when refused)
 *   remaining  = floor((τ − (max(tat, now) − now)) / T)
 * </pre>
 * <b>Bound.</b> Every grant raises {@code tat} by at least {@code n·T} and leaves
 * {@code tat − τ ≤ now}, so in any closed interval of length {@code W} at most
 * {@code burst + floor(W / T)} permits are granted; a caller arriving every {@code T} or slower is
 * never refused. {@code T} is rounded <em>up</em> to a whole nanosecond, so the rate is exact when the
 * period is a multiple of the limit and otherwise lower by less than one part in {@code T}: rounding
 * never lets the limiter admit more than {@code limit} per {@code period} (rounding down would, by up
 * to 2× at a limit close to the period in nanoseconds).
 *
 * <p><b>Waiting</b> ({@link #reserve}): the permits are due at {@code next − τ}; if that is within the
 * wait allowed, {@code tat := next} reserves them and the caller sleeps {@code next − τ − now}; the
 * bound above then holds for the callers' start times. A request for more than {@code burst} permits
 * is never granted (its {@code retryAfter} is {@link Long#MAX_VALUE}): granting it would break the
 * bound.
 *
 * <p><b>Warm-up</b> (optional): until {@code warmUpEnd} the interval is
 * {@code T·(1 + (coldFactor − 1)·(warmUpEnd − now)/warmUp)}, falling linearly to {@code T}, and the
 * tolerance is one request ({@code min(n, burst)·T_eff}), so a cold limiter neither bursts nor runs at
 * full rate.
 *
 * <p><b>Rate changes</b> keep the debt in permits: the permits available at the change stay
 * available, the next one arrives no later than it would have (on a rate cut: at its old due time;
 * on a raise: proportionally sooner) and later ones at the new rate ({@link #carried}). Keeping
 * {@code tat} as a time would turn a used-up burst into free permits when the rate falls (burst 10
 * used at 1 ms, then 10 per second, would leave 9 more at the same instant). The change seals
 * {@code tat}, publishes the new parameters and stores the carried state; deciders read {@code tat}
 * before the parameters and wait out a seal, so no decision is charged at the old interval after it.
 *
 * <p><b>Overflow.</b> A request for more than the burst is refused before any arithmetic; the leaky
 * bucket, which takes any size, refuses (with {@code retryAfter} {@link Long#MAX_VALUE}) a request
 * whose {@code n·T} or new {@code tat} would not fit in a long instead of letting it wrap.
 */
public class GcraLimiter extends AbstractRateLimiter implements SlotAlgorithm {
    private static final VarHandle TAT;
    /** A {@code long[]} element: a key's state in a {@link KeyedStateTable}. */
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(long[].class);
    /** The state while a rate change rescales it; never a real arrival time. */
    private static final long SEALED = Long.MIN_VALUE;
    /** What {@link #after} returns when the sum does not fit: never a real arrival time either. */
    static final long OVERFLOW = Long.MIN_VALUE;

    static {
        try {
            TAT = MethodHandles.lookup().findVarHandle(GcraLimiter.class, "tat", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * The parameters in force, replaced whole on a rate change; with the context and config, so a
     * limiter holds one reference besides its state (the keys of a keyed limiter share one).
     */
    static final class Params {
        final LimiterContext ctx;
        final RateLimiterConfig config;
        final long limit;
        final long periodNanos;
        final long interval;
        final long burst;
        final long tau;
        final boolean warming;
        final long warmUpEnd;
        final long warmUpNanos;
        final double coldExtra;

        Params(LimiterContext ctx, RateLimiterConfig config, long limit, long periodNanos, long interval, long burst,
                long warmUpStart, long warmUpNanos, double coldFactor) {
            this.ctx = ctx;
            this.config = config;
            this.limit = limit;
            this.periodNanos = periodNanos;
            this.interval = interval;
            this.burst = burst;
            this.tau = burst * interval;
            this.warming = warmUpNanos > 0;
            this.warmUpEnd = warmUpStart + warmUpNanos;
            this.warmUpNanos = warmUpNanos;
            this.coldExtra = coldFactor - 1.0;
        }

        /** {@code T·(1 + (coldFactor − 1)·(warmUpEnd − now)/warmUp)}, for {@code now} before the end. */
        long warmInterval(long now) {
            double coldness = (double) (warmUpEnd - now) / warmUpNanos;
            return interval + (long) (interval * coldExtra * Math.min(1.0, coldness));
        }
    }

    /*
     * Layout (64-bit JVM, compressed oops): a 12-byte header, the registry's stamp (8, inherited), params
     * (4) and tat (8): 32 bytes, the whole per-key cost of a keyed GCRA limiter besides the map's node.
     */
    private volatile Params params;
    @SuppressWarnings("unused") // accessed through TAT
    private volatile long tat = Long.MIN_VALUE + 1; // idle since forever (MIN_VALUE is SEALED)

    /**
     * @param ctx the shared context
     * @param config the config (GCRA or LEAKY_BUCKET)
     */
    public GcraLimiter(LimiterContext ctx, RateLimiterConfig config) {
        // Without warm-up the parameters depend on the config alone: limiters of one config (the keys of
        // a keyed limiter) share them until a setRate gives one its own.
        this.params = config.warmUpNanos() > 0 ? paramsOf(ctx, config, ctx.ticker.read())
                : ctx.shared(config, c -> paramsOf(ctx, c, 0L));
    }

    /**
     * The emission interval {@code T = ceil(period / limit)}: rounded up so the limiter never exceeds
     * the configured rate.
     *
     * @param periodNanos the period, at most 366 days
     * @param limit permits per period, at least 1 and at most {@code periodNanos}
     * @return {@code T} in nanoseconds, at least 1
     */
    public static long emissionInterval(long periodNanos, long limit) {
        return (periodNanos + limit - 1) / limit;
    }

    @Override
    final LimiterContext ctx() {
        return params.ctx;
    }

    @Override
    public final RateLimiterConfig config() {
        return params.config;
    }

    private static Params paramsOf(LimiterContext ctx, RateLimiterConfig config, long warmUpStart) {
        return new Params(ctx, config, config.limit(), config.periodNanos(), emissionInterval(config.periodNanos(), config.limit()),
                config.burst(), warmUpStart, config.warmUpNanos(), config.coldFactor());
    }

    /**
     * The tolerance for a request of {@code permits} at interval {@code interval}: {@code τ}, or one
     * request while warming up. The leaky bucket overrides it.
     *
     * @param p the parameters
     * @param interval the interval in force
     * @param permits the request
     * @param warming whether warm-up is in progress
     * @return the tolerance in nanoseconds
     */
    long tolerance(Params p, long interval, int permits, boolean warming) {
        return warming ? interval * Math.min(permits, p.burst) : p.tau;
    }

    /**
     * The largest request that can ever be granted: the burst (the leaky bucket takes any size).
     *
     * @param p the parameters
     * @return the largest request
     */
    long maxRequest(Params p) {
        return p.burst;
    }

    /**
     * Permits available at once when the limiter will be idle at {@code tat}.
     *
     * @param p the parameters
     * @param tat the theoretical arrival time
     * @param now now
     * @return at least 0
     */
    long remaining(Params p, long tat, long now) {
        long backlog = Math.max(tat, now) - now;
        return Math.max(0L, (p.tau - backlog) / p.interval);
    }

    /** {@code start + interval·permits}, or {@link #OVERFLOW} if that does not fit in a long. */
    static long after(long start, long interval, int permits) {
        long cost = interval * permits;
        if (Math.multiplyHigh(interval, permits) != 0 || cost < 0) {
            return OVERFLOW;
        }
        long next = start + cost;
        return next < start ? OVERFLOW : next;
    }

    /** The interval in force at {@code now}: {@code T}, or the warm-up interval. */
    private static long intervalAt(Params p, long now) {
        return warmingAt(p, now) ? p.warmInterval(now) : p.interval;
    }

    private static boolean warmingAt(Params p, long now) {
        return p.warming && now - p.warmUpEnd < 0;
    }

    /** The theoretical arrival time, waiting out a rate change in progress (a few instructions). */
    private long readTat() {
        long t = (long) TAT.getVolatile(this);
        while (t == SEALED) {
            Thread.onSpinWait();
            t = (long) TAT.getVolatile(this);
        }
        return t;
    }

    @Override
    public final boolean tryAcquire(int permits, long nowNanos) {
        return EncodedWait.isGranted(decide(permits, nowNanos, 0L, null));
    }

    @Override
    public final boolean tryAcquire(int permits, long nowNanos, RateLimitDecision into) {
        return EncodedWait.isGranted(decide(permits, nowNanos, 0L, into));
    }

    @Override
    public final long reserve(int permits, long nowNanos, long maxWaitNanos) {
        return decide(permits, nowNanos, maxWaitNanos, null);
    }

    /**
     * The decision core behind {@code tryAcquire} (no wait), the decision-filling form and
     * {@code reserve}: one CAS loop. The permits are due at {@code next − τ}; they are granted when
     * that is within {@code maxWaitNanos} of now ({@code tat := next}, the caller waits the
     * difference), else refused with it as {@code retryAfter} ({@link Long#MAX_VALUE} for a request
     * larger than the burst, or whose cost would not fit in a long).
     *
     * @return an {@link EncodedWait} code
     */
    private long decide(int permits, long nowNanos, long maxWaitNanos, @Nullable RateLimitDecision into) {
        checkPermits(permits);
        int losses = 0;
        long current = (long) TAT.getVolatile(this);
        while (true) {
            if (current == SEALED) {
                Thread.onSpinWait();
                current = (long) TAT.getVolatile(this);
                continue;
            }
            // Read after tat: a state written after a rate change comes with its parameters.
            Params p = params;
            long interval = intervalAt(p, nowNanos);
            long next = permits > maxRequest(p) ? OVERFLOW : after(Math.max(current, nowNanos), interval, permits);
            long wait = next == OVERFLOW ? Long.MAX_VALUE
                    : Math.max(0L, next - tolerance(p, interval, permits, warmingAt(p, nowNanos)) - nowNanos);
            if (next == OVERFLOW || wait > maxWaitNanos) {
                p.ctx.rejected(permits, wait, nowNanos);
                if (into != null) {
                    into.set(false, p.limit, signedRemaining(p, current, nowNanos), wait,
                            Math.max(current, nowNanos) - nowNanos);
                }
                return EncodedWait.refused(wait);
            }
            // The witness of a failed exchange is the new state: no second read of a contended line.
            long witness = (long) TAT.compareAndExchange(this, current, next);
            if (witness == current) {
                p.ctx.granted(permits);
                if (into != null) {
                    into.set(true, p.limit, remaining(p, next, nowNanos), 0L, next - nowNanos);
                }
                return EncodedWait.granted(wait);
            }
            current = witness;
            losses = Contention.backOff(losses);
        }
    }

    /**
     * The same decision as {@link #tryAcquire(int, long, RateLimitDecision)} (no wait), on a state held
     * in a {@link KeyedStateTable} slot instead of this limiter: {@code words[at]} is the key's
     * {@code tat}, this limiter is only the tier's prototype (its parameters and algorithm; its own state
     * is never touched). One CAS loop, the formulas of {@link #decide}. The table's parameters never
     * change (a key whose rate changes is promoted to its own limiter first) and a table tier has no
     * warm-up, so no seal is waited for.
     */
    @Override
    public final long decideInSlot(long[] words, int at, int permits, long nowNanos, @Nullable RateLimitDecision into) {
        checkPermits(permits);
        Params p = params;
        int losses = 0;
        long current = (long) SLOT.getVolatile(words, at);
        while (true) {
            if (KeyedStateTable.isSentinel(current)) {
                return KeyedStateTable.GONE;
            }
            long interval = p.interval;
            long next = permits > maxRequest(p) ? OVERFLOW : after(Math.max(current, nowNanos), interval, permits);
            long wait = next == OVERFLOW ? Long.MAX_VALUE
                    : Math.max(0L, next - tolerance(p, interval, permits, false) - nowNanos);
            if (next == OVERFLOW || wait > 0L) {
                p.ctx.rejected(permits, wait, nowNanos);
                if (into != null) {
                    into.set(false, p.limit, signedRemaining(p, current, nowNanos), wait,
                            Math.max(current, nowNanos) - nowNanos);
                }
                return KeyedStateTable.refused(wait);
            }
            long witness = (long) SLOT.compareAndExchange(words, at, current, next);
            if (witness == current) {
                p.ctx.granted(permits);
                if (into != null) {
                    into.set(true, p.limit, remaining(p, next, nowNanos), 0L, next - nowNanos);
                }
                return EncodedWait.granted(0L);
            }
            current = witness;
            losses = Contention.backOff(losses);
        }
    }

    /** A new key is idle since forever: {@link KeyedStateTable#FRESH}, no clock reading. */
    @Override
    public final long freshState(long nowNanos) {
        return KeyedStateTable.FRESH;
    }

    @Override
    public final AbstractRateLimiter promoted(LimiterContext ctx, long state) {
        GcraLimiter own = (GcraLimiter) Limiters.create(ctx, config());
        own.tat = state == KeyedStateTable.FRESH ? Long.MIN_VALUE + 1 : state; // published with the object
        return own;
    }

    /**
     * Moves {@code tat} back by the cost of the unused booking, {@code n·T} at the interval in force
     * when it was booked (after a rate change in between, at the new one): the next caller gets the
     * permits. A caller that booked later keeps its own wait; the bound holds for the permits used.
     */
    @Override
    final void giveBack(int permits, long bookedAtNanos) {
        int losses = 0;
        while (true) {
            long current = readTat();
            long cost = Math.multiplyHigh(intervalAt(params, bookedAtNanos), permits) != 0 ? Long.MAX_VALUE
                    : intervalAt(params, bookedAtNanos) * permits;
            long back = current - cost;
            if (back > current) {
                back = Long.MIN_VALUE + 1; // wrapped: idle since forever
            }
            if (back == SEALED) {
                back++;
            }
            if (TAT.compareAndSet(this, current, back)) {
                return;
            }
            losses = Contention.backOff(losses);
        }
    }

    @Override
    final long reservePeek(int permits, long nowNanos) {
        long current = readTat();
        Params p = params;
        if (permits > maxRequest(p)) {
            return Long.MAX_VALUE;
        }
        long interval = intervalAt(p, nowNanos);
        long next = after(Math.max(current, nowNanos), interval, permits);
        if (next == OVERFLOW) {
            return Long.MAX_VALUE;
        }
        return Math.max(0L, next - tolerance(p, interval, permits, warmingAt(p, nowNanos)) - nowNanos);
    }

    @Override
    final long balancePeek(long nowNanos) {
        long current = readTat();
        Params p = params;
        return signedRemaining(p, current, nowNanos);
    }

    /**
     * {@link #remaining}, or the debt in permits (negative) when the backlog is beyond the tolerance.
     *
     * @param p the parameters
     * @param tat the theoretical arrival time
     * @param now now
     * @return the signed balance
     */
    long signedRemaining(Params p, long tat, long now) {
        long backlog = Math.max(tat, now) - now;
        return backlog <= p.tau ? remaining(p, tat, now) : Math.floorDiv(p.tau - backlog, p.interval);
    }

    @Override
    final long resetAfterPeek(long nowNanos) {
        long current = readTat();
        return Math.max(current, nowNanos) - nowNanos;
    }

    @Override
    public final boolean reserves() {
        return true;
    }

    @Override
    public final long availablePermits(long nowNanos) {
        long current = readTat();
        return remaining(params, current, nowNanos);
    }

    @Override
    public final long limit() {
        return params.limit;
    }

    @Override
    public final long periodNanos() {
        return params.periodNanos;
    }

    @Override
    public final void setRate(long limit, Duration period) {
        RateLimiterConfig.validateRate(policy(), config().algorithm(), limit, period);
        long periodNanos = period.toNanos();
        long interval = emissionInterval(periodNanos, limit);
        long burst = params.burst;
        Validate.check(burst <= (Long.MAX_VALUE / 4) / interval, policy(), "limit",
                "large enough that burst (" + burst + ") × interval fits in 61 bits", limit);
        setParams(limit, periodNanos, interval, false);
    }

    /**
     * Sets the emission interval directly (the adaptive limiter's knob); the limit is reported per
     * second.
     *
     * @param intervalNanos the new {@code T}, at least 1
     */
    public final void setInterval(long intervalNanos) {
        long interval = Math.max(1L, intervalNanos);
        setParams(Math.max(1L, 1_000_000_000L / interval), 1_000_000_000L, interval, true);
    }

    private void setParams(long limit, long periodNanos, long interval, boolean routine) {
        LimiterContext ctx = ctx();
        ctx.rateLock.lock();
        try {
            long now = ctx.ticker.read();
            Params old = params;
            long oldInterval = intervalAt(old, now);
            // Seal tat so no decision lands between the new parameters and the rescaled state.
            long tat;
            do {
                tat = (long) TAT.getVolatile(this);
            } while (tat == SEALED || !TAT.compareAndSet(this, tat, SEALED));
            // Publish unconditionally: whatever throws between the seal and here, the state is unsealed
            // (to the old tat and parameters when the new ones could not be computed), never left sealed.
            long published = tat;
            try {
                Params next = new Params(ctx, old.config, limit, periodNanos, interval, old.burst, 0L, 0L, 1.0);
                long carried = carried(old, tat, now, oldInterval, interval);
                params = next;
                published = carried;
            } finally {
                TAT.setVolatile(this, published);
            }
        } finally {
            ctx.rateLock.unlock();
        }
        ctx.rateChanged(limit, periodNanos, routine);
    }

    /**
     * The state after a change of interval from {@code from} to {@code to} at {@code now}, keeping the
     * debt in permits. With backlog {@code b = tat − now}, {@code r = floor((burst·from − b)/from)}
     * permits are available now (0 when in debt beyond the burst); the state keeps {@code r} available
     * and, of the two schedules that do, takes the one under which the next permit arrives first:
     * <ul>
     *   <li>the next permit at its old due time, later ones at the new rate:
     *       {@code tat + (burst − r − 1)·(to − from)} (a booked debt keeps its old times);</li>
     *   <li>the backlog rescaled, {@code now + ceil(b·to/from)} (only within the burst).</li>
     * </ul>
     * Keeping {@code tat} as a time instead would free permits when the rate falls (burst 10 used at
     * 1 ms, then 10 per second: 9 more at once). The result always differs from {@code tat} (by one
     * nanosecond when the rule leaves it unchanged), so a decider that read {@code tat} with the old
     * parameters cannot complete its exchange after the change. Saturates instead of overflowing.
     */
    long carried(Params old, long tat, long now, long from, long to) {
        if (tat <= now) {
            return tat < now || tat - 1 == SEALED ? tat + 1 : tat - 1; // no backlog either way
        }
        BigInteger b = BigInteger.valueOf(tat - now);
        BigInteger tf = BigInteger.valueOf(from);
        BigInteger tt = BigInteger.valueOf(to);
        BigInteger burst = BigInteger.valueOf(old.burst);
        BigInteger tauOld = burst.multiply(tf);
        BigInteger r = b.compareTo(tauOld) >= 0 ? BigInteger.ZERO : tauOld.subtract(b).divide(tf);
        BigInteger next = BigInteger.valueOf(tat)
                .add(burst.subtract(r).subtract(BigInteger.ONE).multiply(tt.subtract(tf)));
        if (b.compareTo(tauOld) <= 0) {
            BigInteger[] qr = b.multiply(tt).divideAndRemainder(tf);
            BigInteger rescaled = BigInteger.valueOf(now).add(qr[1].signum() == 0 ? qr[0] : qr[0].add(BigInteger.ONE));
            next = next.min(rescaled);
        }
        long t = next.compareTo(BigInteger.valueOf(Long.MAX_VALUE)) >= 0 ? Long.MAX_VALUE : next.longValueExact();
        if (t == tat) {
            t = tat - 1; // never the value a stale decider read (1 ns earlier, never a whole permit)
        }
        return t;
    }
}

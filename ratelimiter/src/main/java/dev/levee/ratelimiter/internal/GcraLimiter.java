package dev.levee.ratelimiter.internal;

import dev.levee.core.Validate;
import dev.levee.ratelimiter.RateLimitAlgorithm;
import dev.levee.ratelimiter.RateLimitDecision;
import dev.levee.ratelimiter.RateLimiterConfig;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;

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
 * <p><b>Rate changes</b> replace the parameters and keep {@code tat}, whose meaning (when the limiter
 * is idle again) does not depend on the rate.
 */
public class GcraLimiter extends AbstractRateLimiter {
    private static final VarHandle TAT;

    static {
        try {
            TAT = MethodHandles.lookup().findVarHandle(GcraLimiter.class, "tat", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The parameters in force; replaced whole on a rate change. */
    static final class Params {
        final long limit;
        final long periodNanos;
        final long interval;
        final long burst;
        final long tau;
        final boolean warming;
        final long warmUpEnd;
        final long warmUpNanos;
        final double coldExtra;

        Params(long limit, long periodNanos, long interval, long burst, long warmUpStart, long warmUpNanos,
                double coldFactor) {
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

    private volatile Params params;
    @SuppressWarnings("unused") // accessed through TAT
    private volatile long tat = Long.MIN_VALUE;

    /**
     * @param ctx the shared context
     * @param config the config (GCRA or LEAKY_BUCKET)
     */
    public GcraLimiter(LimiterContext ctx, RateLimiterConfig config) {
        super(ctx, config);
        // Without warm-up the parameters depend on the config alone: limiters of one config (the keys of
        // a keyed limiter) share them until a setRate gives one its own.
        this.params = config.warmUpNanos() > 0 ? paramsOf(config, ctx.ticker.read()) : ctx.shared(config, c -> paramsOf(c, 0L));
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

    private static Params paramsOf(RateLimiterConfig config, long warmUpStart) {
        return new Params(config.limit(), config.periodNanos(), emissionInterval(config.periodNanos(), config.limit()),
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

    @Override
    public final boolean tryAcquire(int permits, long nowNanos) {
        checkPermits(permits);
        Params p = params;
        long interval = p.interval;
        boolean warming = p.warming && nowNanos - p.warmUpEnd < 0;
        if (warming) {
            interval = p.warmInterval(nowNanos);
        }
        long tau = tolerance(p, interval, permits, warming);
        long cost = interval * permits;
        int losses = 0;
        long current = (long) TAT.getVolatile(this);
        while (true) {
            long next = Math.max(current, nowNanos) + cost;
            if (next - tau > nowNanos) {
                ctx.rejected(permits, next - tau - nowNanos, nowNanos);
                return false;
            }
            // The witness of a failed exchange is the new state: no second read of a contended line.
            long witness = (long) TAT.compareAndExchange(this, current, next);
            if (witness == current) {
                ctx.granted(permits);
                return true;
            }
            current = witness;
            losses = Contention.backOff(losses);
        }
    }

    @Override
    public final boolean tryAcquire(int permits, long nowNanos, RateLimitDecision into) {
        checkPermits(permits);
        Params p = params;
        long interval = p.interval;
        boolean warming = p.warming && nowNanos - p.warmUpEnd < 0;
        if (warming) {
            interval = p.warmInterval(nowNanos);
        }
        long tau = tolerance(p, interval, permits, warming);
        long cost = interval * permits;
        int losses = 0;
        while (true) {
            long current = (long) TAT.getVolatile(this);
            long next = Math.max(current, nowNanos) + cost;
            if (next - tau > nowNanos) {
                long retryAfter = permits > maxRequest(p) ? Long.MAX_VALUE : next - tau - nowNanos;
                ctx.rejected(permits, retryAfter, nowNanos);
                into.set(false, p.limit, remaining(p, current, nowNanos), retryAfter,
                        Math.max(current, nowNanos) - nowNanos);
                return false;
            }
            if (TAT.compareAndSet(this, current, next)) {
                ctx.granted(permits);
                into.set(true, p.limit, remaining(p, next, nowNanos), 0L, next - nowNanos);
                return true;
            }
            losses = Contention.backOff(losses);
        }
    }

    @Override
    public final long reserve(int permits, long nowNanos, long maxWaitNanos) {
        checkPermits(permits);
        Params p = params;
        long interval = p.interval;
        boolean warming = p.warming && nowNanos - p.warmUpEnd < 0;
        if (warming) {
            interval = p.warmInterval(nowNanos);
        }
        if (permits > maxRequest(p)) {
            ctx.rejected(permits, Long.MAX_VALUE, nowNanos);
            return ~Long.MAX_VALUE; // a request larger than the burst could only be granted by breaking it
        }
        long tau = tolerance(p, interval, permits, warming);
        long cost = interval * permits;
        int losses = 0;
        while (true) {
            long current = (long) TAT.getVolatile(this);
            long next = Math.max(current, nowNanos) + cost;
            long wait = Math.max(0L, next - tau - nowNanos);
            if (wait > maxWaitNanos) {
                ctx.rejected(permits, wait, nowNanos);
                return ~wait;
            }
            if (TAT.compareAndSet(this, current, next)) {
                ctx.granted(permits);
                return wait;
            }
            losses = Contention.backOff(losses);
        }
    }

    @Override
    final long reservePeek(int permits, long nowNanos) {
        Params p = params;
        long interval = p.interval;
        boolean warming = p.warming && nowNanos - p.warmUpEnd < 0;
        if (warming) {
            interval = p.warmInterval(nowNanos);
        }
        if (permits > maxRequest(p)) {
            return Long.MAX_VALUE;
        }
        long next = Math.max((long) TAT.getVolatile(this), nowNanos) + interval * permits;
        return Math.max(0L, next - tolerance(p, interval, permits, warming) - nowNanos);
    }

    @Override
    public final boolean reserves() {
        return true;
    }

    @Override
    public final long availablePermits(long nowNanos) {
        return remaining(params, (long) TAT.getVolatile(this), nowNanos);
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
        RateLimiterConfig.validateRate(policy(), config.algorithm(), limit, period);
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
        Params old = params;
        params = new Params(limit, periodNanos, interval, old.burst, 0L, 0L, 1.0);
        ctx.rateChanged(limit, periodNanos, routine);
    }

    /**
     * The GCRA algorithm of this instance (GCRA or LEAKY_BUCKET).
     *
     * @return the algorithm
     */
    RateLimitAlgorithm algorithm() {
        return config.algorithm();
    }
}

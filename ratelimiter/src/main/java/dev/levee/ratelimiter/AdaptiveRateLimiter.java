package dev.levee.ratelimiter;

import dev.levee.core.RejectedException;
import dev.levee.core.Subscription;
import dev.levee.core.Ticker;
import dev.levee.core.TimeNeed;
import dev.levee.core.internal.Validate;
import dev.levee.ratelimiter.internal.GcraLimiter;
import dev.levee.ratelimiter.internal.LimiterContext;
import dev.levee.ratelimiter.internal.RttRatioLaw;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * A GCRA rate limiter whose rate follows the downstream's latency and errors, between a minimum and
 * a maximum rate.
 *
 * <p><b>Model.</b> Used as a policy (or through the permit protocol), it learns from every call's
 * {@code onSuccess(latency)} and {@code onFailure(latency, error)}. Once per {@code adjustInterval},
 * on the first decision after the interval ends, with {@code n} calls, mean latency {@code m} and
 * failure share {@code f} in the interval, and the latency floor {@code floor} (the lowest interval
 * mean seen, drifting up by 5% of the gap each interval so a lasting change becomes the new normal):
 * <pre>
 *   n &lt; minSamples                                   → keep the rate (too little signal)
 *   f &gt; errorRateThreshold or m &gt; floor·latencyTolerance → rate := max(minRate, rate·decreaseFactor)
 *   m ≤ floor·nearFloor                                → rate := min(maxRate, rate + increaseStep)
 *   otherwise                                          → keep the rate
 *   floor := m if m &lt; floor, else floor + (m − floor)·0.05
 * </pre>
 * Additive increase, multiplicative decrease: the rate probes upward slowly while the downstream is
 * comfortable and backs off fast when it queues (latency) or breaks (errors). That is the default law,
 * {@link AdaptiveLaw#LATENCY_AIMD}; {@link AdaptiveLaw#RTT_RATIO} selects seed 002's rule instead
 * (applied on every sample; its formula and the seed's quirks are on {@link AdaptiveLaw}).
 *
 * <p><b>Cost.</b> A decision is a GCRA decision plus one time comparison; a completion adds to two
 * (three on failure) striped counters. The adjustment itself runs on one thread per interval (the
 * one that wins a CAS) and allocates the new parameters; it and {@link #setRate} change the rate under
 * a lock (taken once per interval by the decision that runs the adjustment, never by the others), so a
 * hand-set rate racing an adjustment is applied before or after it, never lost, and the rate reported
 * is always the rate enforced.
 */
public final class AdaptiveRateLimiter implements RateLimiter {
    private static final double FLOOR_DRIFT = 0.05;
    private static final VarHandle NEXT_ADJUST;

    static {
        try {
            NEXT_ADJUST = MethodHandles.lookup().findVarHandle(AdaptiveRateLimiter.class, "nextAdjust", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final AdaptiveRateLimiterConfig config;
    private final GcraLimiter delegate;
    private final LongAdder samples = new LongAdder();
    private final LongAdder latencySum = new LongAdder();
    private final LongAdder failures = new LongAdder();
    @SuppressWarnings("unused") // accessed through NEXT_ADJUST
    private volatile long nextAdjust;
    /**
     * Written by the thread that won the adjustment CAS and by {@link #setRate}, each under
     * {@code rateChange} together with the inner limiter's interval: an adjustment computed from a rate
     * read before a hand-set one must not overwrite it, and the rate reported must be the rate enforced.
     */
    private volatile double rate;
    /** Serializes the (rare) rate changes: one adjustment per interval and hand-set rates; never a decision. */
    private final ReentrantLock rateChange = new ReentrantLock();
    private volatile double floorNanos = Double.NaN;
    private final @Nullable RttRatioLaw rttLaw;

    private AdaptiveRateLimiter(String name, AdaptiveRateLimiterConfig config) {
        Validate.name(AdaptiveRateLimiterConfig.POLICY, name);
        this.config = Validate.notNull(Validate.describe(AdaptiveRateLimiterConfig.POLICY, name), "config", config);
        this.rate = config.initialRate();
        long interval = intervalOf(config.initialRate());
        RateLimiterConfig gcra = RateLimiterConfig.builder()
                .algorithm(RateLimitAlgorithm.GCRA)
                .rate(Math.max(1L, 1_000_000_000L / interval), Duration.ofSeconds(1))
                .burst(config.burst())
                .ticker(config.ticker())
                .sleeper(config.sleeper())
                .build();
        this.delegate = new GcraLimiter(new LimiterContext(name, config.ticker(), config.sleeper()), gcra);
        this.delegate.setInterval(interval);
        this.nextAdjust = config.ticker().read() + config.adjustIntervalNanos();
        this.rttLaw = config.law() == AdaptiveLaw.RTT_RATIO
                ? new RttRatioLaw(config.minRate(), config.maxRate(), config.initialRate(), this::applyRate) : null;
    }

    /**
     * Creates an adaptive limiter.
     *
     * @param name the limiter's name (in rejections, events, metrics)
     * @param config the config (nameless, shareable)
     * @return the limiter
     * @throws dev.levee.core.InvalidConfigException if the name is blank or the config null
     */
    public static AdaptiveRateLimiter of(String name, AdaptiveRateLimiterConfig config) {
        return new AdaptiveRateLimiter(name, config);
    }

    /**
     * Creates an adaptive limiter with {@link AdaptiveRateLimiterConfig#defaults()}.
     *
     * @param name the limiter's name
     * @return the limiter
     */
    public static AdaptiveRateLimiter ofDefaults(String name) {
        return new AdaptiveRateLimiter(name, AdaptiveRateLimiterConfig.defaults());
    }

    private static long intervalOf(double ratePerSecond) {
        return Math.max(1L, Math.round(1e9 / ratePerSecond));
    }

    /**
     * The rate in force.
     *
     * @return permits per second
     */
    public double currentRate() {
        return rate;
    }

    /**
     * The adaptive config.
     *
     * @return the config
     */
    public AdaptiveRateLimiterConfig adaptiveConfig() {
        return config;
    }

    private void maybeAdjust(long now) {
        if (rttLaw != null) {
            return; // the RTT law acts on samples
        }
        long due = (long) NEXT_ADJUST.getVolatile(this);
        if (now - due < 0 || !NEXT_ADJUST.compareAndSet(this, due, now + config.adjustIntervalNanos())) {
            return;
        }
        long n = samples.sumThenReset();
        long sum = latencySum.sumThenReset();
        long failed = failures.sumThenReset();
        if (n < config.minSamples()) {
            return;
        }
        double mean = (double) sum / n;
        double floor = floorNanos;
        if (Double.isNaN(floor)) {
            floor = mean;
        }
        floorNanos = mean < floor ? mean : floor + (mean - floor) * FLOOR_DRIFT;
        rateChange.lock();
        try {
            double current = rate;
            double next = current;
            if ((double) failed / n > config.errorRateThreshold() || mean > floor * config.latencyTolerance()) {
                next = Math.max(config.minRate(), current * config.decreaseFactor());
            } else if (mean <= floor * config.nearFloor()) {
                next = Math.min(config.maxRate(), current + config.increaseStep());
            }
            if (next != current) {
                rate = next;
                delegate.setInterval(intervalOf(next));
            }
        } finally {
            rateChange.unlock();
        }
    }

    @Override
    public boolean tryAcquire(int permits, long nowNanos) {
        maybeAdjust(nowNanos);
        return delegate.tryAcquire(permits, nowNanos);
    }

    @Override
    public boolean tryAcquire(int permits, long nowNanos, RateLimitDecision into) {
        maybeAdjust(nowNanos);
        return delegate.tryAcquire(permits, nowNanos, into);
    }

    @Override
    public long reserve(int permits, long nowNanos, long maxWaitNanos) {
        maybeAdjust(nowNanos);
        return delegate.reserve(permits, nowNanos, maxWaitNanos);
    }

    @Override
    public void acquire(long nowNanos) {
        maybeAdjust(nowNanos);
        delegate.acquire(nowNanos);
    }

    @Override
    public java.util.concurrent.CompletionStage<Void> acquireAsync(long nowNanos) {
        maybeAdjust(nowNanos);
        return delegate.acquireAsync(nowNanos);
    }

    @Override
    public void acquire(int permits, Duration maxWait) {
        maybeAdjust(config.ticker().read());
        delegate.acquire(permits, maxWait);
    }

    @Override
    public void acquireNanos(int permits, long maxWaitNanos) {
        maybeAdjust(config.ticker().read());
        delegate.acquireNanos(permits, maxWaitNanos);
    }

    /**
     * {@link TimeNeed#LATENCY}: the rate follows the calls' latencies.
     *
     * @return {@link TimeNeed#LATENCY}
     */
    @Override
    public TimeNeed timeNeed() {
        return TimeNeed.LATENCY;
    }

    /** Records the latency of a successful call. */
    @Override
    public void onSuccess(long latencyNanos) {
        if (rttLaw != null) {
            sampleRtt(rttLaw, latencyNanos);
            return;
        }
        samples.increment();
        latencySum.add(Math.max(0L, latencyNanos));
    }

    /** Records the latency of a failed call and counts the failure. */
    @Override
    public void onFailure(long latencyNanos, Throwable error) {
        if (rttLaw != null) {
            sampleRtt(rttLaw, latencyNanos); // seed 002 records every round trip
            return;
        }
        samples.increment();
        latencySum.add(Math.max(0L, latencyNanos));
        failures.increment();
    }

    private void sampleRtt(RttRatioLaw law, long latencyNanos) {
        law.sample(latencyNanos);
    }

    /** The RTT law's change, applied under its lock. */
    private void applyRate(double next) {
        rate = next;
        delegate.setInterval(intervalOf(next));
    }

    @Override
    public RateLimitDecision peek(long nowNanos, RateLimitDecision into) {
        return delegate.peek(nowNanos, into);
    }

    @Override
    public boolean reserves() {
        return true;
    }

    @Override
    public RateLimiterConfig config() {
        return delegate.config();
    }

    @Override
    public long limit() {
        return delegate.limit();
    }

    @Override
    public long periodNanos() {
        return delegate.periodNanos();
    }

    @Override
    public long availablePermits(long nowNanos) {
        return delegate.availablePermits(nowNanos);
    }

    @Override
    public int waitingCallers() {
        return delegate.waitingCallers();
    }

    /**
     * Sets the rate by hand (clamped to [minRate, maxRate]); adaptation continues from it.
     *
     * @param limit permits per period
     * @param period the period
     */
    @Override
    public void setRate(long limit, Duration period) {
        RateLimiterConfig.validateRate("AdaptiveRateLimiter '" + name() + "'", RateLimitAlgorithm.GCRA, limit, period);
        double perSecond = Math.min(config.maxRate(), Math.max(config.minRate(), limit * 1e9 / period.toNanos()));
        if (rttLaw != null) {
            rttLaw.setRate(perSecond);
            return;
        }
        rateChange.lock();
        try {
            rate = perSecond;
            delegate.setInterval(intervalOf(perSecond));
        } finally {
            rateChange.unlock();
        }
    }

    @Override
    public Subscription onEvent(Consumer<? super RateLimiterEvent> listener) {
        return delegate.onEvent(listener);
    }

    @Override
    public RejectedException rejection(long nowNanos) {
        return delegate.rejection(nowNanos);
    }

    @Override
    public Ticker ticker() {
        return delegate.ticker();
    }

    @Override
    public String name() {
        return delegate.name();
    }

    LimiterContext context() {
        return delegate.context();
    }

    @Override
    public String toString() {
        return "AdaptiveRateLimiter[" + name() + ", " + rate + "/s]";
    }
}

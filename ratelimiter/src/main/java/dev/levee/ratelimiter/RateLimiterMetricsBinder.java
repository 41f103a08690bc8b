package dev.levee.ratelimiter;

import dev.levee.core.internal.MetricNames;
import dev.levee.ratelimiter.internal.AbstractRateLimiter;
import dev.levee.ratelimiter.internal.LimiterContext;
import dev.levee.ratelimiter.internal.LimiterStats;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import dev.levee.core.internal.Validate;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * Publishes rate limiters' metrics to Micrometer. The only class of this module that touches
 * Micrometer ({@code micrometer-core} is an optional dependency).
 *
 * <table>
 *   <caption>Meters (tag {@code name} = the limiter's name)</caption>
 *   <tr><th>name</th><th>type</th><th>tags</th><th>meaning</th></tr>
 *   <tr><td>{@code levee.ratelimiter.rejected}</td><td>function counter</td><td>{@code kind} =
 *       {@code rate_limited}</td><td>refused requests since binding (the rejection counter every pattern
 *       has, {@link MetricNames#REJECTED})</td></tr>
 *   <tr><td>{@code levee.ratelimiter.permits}</td><td>function counter</td><td>{@code outcome} =
 *       {@code granted} | {@code rejected}</td><td>permits granted and refused since binding</td></tr>
 *   <tr><td>{@code levee.ratelimiter.available}</td><td>gauge</td><td></td><td>permits that could be
 *       taken at once now (single limiters)</td></tr>
 *   <tr><td>{@code levee.ratelimiter.waiting}</td><td>gauge</td><td></td><td>callers waiting in
 *       {@code acquire}</td></tr>
 *   <tr><td>{@code levee.ratelimiter.rate}</td><td>gauge</td><td></td><td>the rate in force, permits per
 *       second (single limiters; follows an adaptive limiter)</td></tr>
 *   <tr><td>{@code levee.ratelimiter.keys}</td><td>gauge</td><td></td><td>keys tracked (keyed
 *       limiters)</td></tr>
 * </table>
 * Counting starts when the binder is bound: an unbound limiter counts nothing and pays nothing. A
 * keyed limiter is measured as a whole (one set of meters, not one per key: keys are unbounded).
 */
public final class RateLimiterMetricsBinder implements MeterBinder {
    private static final String PATTERN = "ratelimiter";
    private static final String BINDER = "RateLimiterMetricsBinder";

    private final List<RateLimiter> limiters;
    private final List<KeyedRateLimiter<?>> keyed;

    /**
     * A binder for some limiters.
     *
     * @param limiters limiters built by this module
     */
    public RateLimiterMetricsBinder(RateLimiter... limiters) {
        this(List.of(Validate.notNull(BINDER, "limiters", limiters)));
    }

    /**
     * A binder for some limiters (copied at construction).
     *
     * @param limiters limiters built by this module
     */
    public RateLimiterMetricsBinder(Collection<? extends RateLimiter> limiters) {
        this.limiters = List.copyOf(Validate.notNull(BINDER, "limiters", limiters));
        this.keyed = List.of();
    }

    /**
     * A binder for a keyed limiter: one set of meters for all its keys.
     *
     * @param keyed the keyed limiter
     */
    public RateLimiterMetricsBinder(KeyedRateLimiter<?> keyed) {
        this.limiters = List.of();
        this.keyed = List.of(Validate.notNull(BINDER, "keyed", keyed));
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Objects.requireNonNull(registry, "registry");
        for (RateLimiter limiter : limiters) {
            LimiterContext ctx = contextOf(limiter);
            bindCommon(registry, limiter.name(), ctx);
            Gauge.builder(MetricNames.name(PATTERN, "available"), limiter, l -> l.availablePermits())
                    .tag(MetricNames.TAG_NAME, limiter.name())
                    .description("Permits that could be taken at once")
                    .strongReference(true)
                    .register(registry);
            Gauge.builder(MetricNames.name(PATTERN, "rate"), limiter, l -> l.limit() * 1e9 / l.periodNanos())
                    .tag(MetricNames.TAG_NAME, limiter.name())
                    .description("The rate in force, permits per second")
                    .strongReference(true)
                    .register(registry);
        }
        for (KeyedRateLimiter<?> k : keyed) {
            bindCommon(registry, k.name(), k.context());
            Gauge.builder(MetricNames.name(PATTERN, "keys"), k, KeyedRateLimiter::size)
                    .tag(MetricNames.TAG_NAME, k.name())
                    .description("Keys tracked")
                    .strongReference(true)
                    .register(registry);
        }
    }

    private static void bindCommon(MeterRegistry registry, String name, LimiterContext ctx) {
        LimiterStats stats = ctx.enableStats();
        FunctionCounter.builder(MetricNames.name(PATTERN, MetricNames.REJECTED), stats, LimiterStats::rejections)
                .tags(MetricNames.TAG_NAME, name, MetricNames.TAG_KIND, "rate_limited")
                .description("Requests the rate limiter refused")
                .register(registry);
        FunctionCounter.builder(MetricNames.name(PATTERN, "permits"), stats, LimiterStats::granted)
                .tags(MetricNames.TAG_NAME, name, MetricNames.TAG_OUTCOME, "granted")
                .description("Permits granted")
                .register(registry);
        FunctionCounter.builder(MetricNames.name(PATTERN, "permits"), stats, LimiterStats::rejected)
                .tags(MetricNames.TAG_NAME, name, MetricNames.TAG_OUTCOME, "rejected")
                .description("Permits refused")
                .register(registry);
        Gauge.builder(MetricNames.name(PATTERN, "waiting"), ctx, LimiterContext::waiting)
                .tag(MetricNames.TAG_NAME, name)
                .description("Callers waiting for a permit")
                .strongReference(true)
                .register(registry);
    }

    private static LimiterContext contextOf(RateLimiter limiter) {
        if (limiter instanceof AbstractRateLimiter) {
            return ((AbstractRateLimiter) limiter).context();
        }
        if (limiter instanceof AdaptiveRateLimiter) {
            return ((AdaptiveRateLimiter) limiter).context();
        }
        throw new IllegalArgumentException("RateLimiterMetricsBinder binds limiters built by levee-ratelimiter, not "
                + limiter.getClass().getName());
    }
}

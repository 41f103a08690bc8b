package dev.levee.redis.ratelimiter;

import dev.levee.core.internal.MetricNames;
import dev.levee.core.internal.Validate;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.function.ToDoubleFunction;

/**
 * Publishes Redis rate limiters' metrics to Micrometer ({@code micrometer-core} is optional: only this
 * class touches it).
 *
 * <table>
 *   <caption>Meters (tag {@code name} = the limiter's name)</caption>
 *   <tr><th>name</th><th>type</th><th>tags</th><th>meaning</th></tr>
 *   <tr><td>{@code levee.ratelimiter.rejected}</td><td>function counter</td><td>{@code kind} =
 *       {@code rate_limited}</td><td>refused requests (the rejection counter every pattern has)</td></tr>
 *   <tr><td>{@code levee.ratelimiter.permits}</td><td>function counter</td><td>{@code outcome} =
 *       {@code granted}</td><td>permits granted, whichever path decided</td></tr>
 *   <tr><td>{@code levee.ratelimiter.redis.available}</td><td>gauge</td><td></td><td>1 while Redis
 *       decides, 0 while the outage policy does</td></tr>
 *   <tr><td>{@code levee.ratelimiter.redis.decisions}</td><td>function counter</td><td>{@code outcome} =
 *       {@code store} | {@code outage}</td><td>decisions answered by Redis / by the outage policy</td></tr>
 *   <tr><td>{@code levee.ratelimiter.redis.failures}</td><td>function counter</td><td></td><td>calls to
 *       Redis that failed or timed out</td></tr>
 *   <tr><td>{@code levee.ratelimiter.redis.script.reloads}</td><td>function counter</td><td></td><td>
 *       scripts sent again after {@code NOSCRIPT}</td></tr>
 *   <tr><td>{@code levee.ratelimiter.redis.lease.stock}</td><td>gauge</td><td></td><td>permits held
 *       locally in lease mode</td></tr>
 * </table>
 * Reading a meter reads the limiter's counters; it never calls Redis.
 */
public final class RedisRateLimiterMetricsBinder implements MeterBinder {
    private static final String BINDER = "RedisRateLimiterMetricsBinder";

    private final List<RedisRateLimiter> limiters;

    /**
     * A binder for some limiters.
     *
     * @param limiters the limiters
     */
    public RedisRateLimiterMetricsBinder(RedisRateLimiter... limiters) {
        this(List.of(Validate.notNull(BINDER, "limiters", limiters)));
    }

    /**
     * A binder for some limiters (copied at construction).
     *
     * @param limiters the limiters
     */
    public RedisRateLimiterMetricsBinder(Collection<RedisRateLimiter> limiters) {
        this.limiters = List.copyOf(Validate.notNull(BINDER, "limiters", limiters));
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Objects.requireNonNull(registry, "registry");
        for (RedisRateLimiter limiter : limiters) {
            String name = limiter.name();
            FunctionCounter.builder(MetricNames.name("ratelimiter", MetricNames.REJECTED), limiter,
                            l -> l.redisMetrics().rejected())
                    .tags(MetricNames.TAG_NAME, name, MetricNames.TAG_KIND, "rate_limited")
                    .description("Requests the rate limiter refused")
                    .register(registry);
            FunctionCounter.builder(MetricNames.name("ratelimiter", "permits"), limiter, l -> l.redisMetrics().granted())
                    .tags(MetricNames.TAG_NAME, name, MetricNames.TAG_OUTCOME, "granted")
                    .description("Permits granted")
                    .register(registry);
            gauge(registry, "available", limiter, l -> l.storeAvailable() ? 1 : 0, "1 while Redis decides");
            counter(registry, "decisions", limiter, l -> l.redisMetrics().storeCalls(), "store", "Decisions answered by Redis");
            counter(registry, "decisions", limiter, l -> l.redisMetrics().outageDecisions(), "outage",
                    "Decisions made by the outage policy");
            FunctionCounter.builder(MetricNames.name("ratelimiter.redis", "failures"), limiter,
                            l -> l.redisMetrics().storeFailures())
                    .tag(MetricNames.TAG_NAME, name)
                    .description("Calls to Redis that failed or timed out")
                    .register(registry);
            FunctionCounter.builder(MetricNames.name("ratelimiter.redis", "script.reloads"), limiter,
                            l -> l.redisMetrics().scriptReloads())
                    .tag(MetricNames.TAG_NAME, name)
                    .description("Scripts sent again after NOSCRIPT")
                    .register(registry);
            gauge(registry, "lease.stock", limiter, l -> l.redisMetrics().leaseStock(), "Permits held locally in lease mode");
        }
    }

    private static void gauge(MeterRegistry registry, String what, RedisRateLimiter limiter,
            ToDoubleFunction<RedisRateLimiter> value, String description) {
        Gauge.builder(MetricNames.name("ratelimiter.redis", what), limiter, value)
                .tag(MetricNames.TAG_NAME, limiter.name())
                .description(description)
                .strongReference(true)
                .register(registry);
    }

    private static void counter(MeterRegistry registry, String what, RedisRateLimiter limiter,
            ToDoubleFunction<RedisRateLimiter> value, String outcome, String description) {
        FunctionCounter.builder(MetricNames.name("ratelimiter.redis", what), limiter, value)
                .tags(MetricNames.TAG_NAME, limiter.name(), MetricNames.TAG_OUTCOME, outcome)
                .description(description)
                .register(registry);
    }
}

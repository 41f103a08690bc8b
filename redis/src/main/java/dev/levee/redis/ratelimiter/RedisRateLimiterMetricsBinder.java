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
import java.util.function.Function;
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
 *       locally in lease mode (single limiters)</td></tr>
 *   <tr><td>{@code levee.ratelimiter.keys}</td><td>gauge</td><td></td><td>keys held in memory (keyed
 *       limiters)</td></tr>
 * </table>
 * A {@link KeyedRedisRateLimiter} is measured as a whole, as a local keyed limiter is: one set of
 * meters named after it, counting every key's decisions (evicted keys included), not one per key.
 * Reading a meter reads the limiter's counters; it never calls Redis.
 */
public final class RedisRateLimiterMetricsBinder implements MeterBinder {
    private static final String BINDER = "RedisRateLimiterMetricsBinder";
    private static final String PATTERN = "ratelimiter";
    private static final String REDIS = "ratelimiter.redis";

    private final List<RedisRateLimiter> limiters;
    private final List<KeyedRedisRateLimiter<?>> keyed;

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
        this.keyed = List.of();
    }

    /**
     * A binder for a keyed limiter: one set of meters for all its keys.
     *
     * @param keyed the keyed limiter
     */
    public RedisRateLimiterMetricsBinder(KeyedRedisRateLimiter<?> keyed) {
        this.limiters = List.of();
        this.keyed = List.of(Validate.notNull(BINDER, "keyed", keyed));
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Objects.requireNonNull(registry, "registry");
        for (RedisRateLimiter limiter : limiters) {
            bindCommon(registry, limiter.name(), limiter, RedisRateLimiter::redisMetrics);
            Gauge.builder(MetricNames.name(REDIS, "lease.stock"), limiter, l -> l.redisMetrics().leaseStock())
                    .tag(MetricNames.TAG_NAME, limiter.name())
                    .description("Permits held locally in lease mode")
                    .strongReference(true)
                    .register(registry);
        }
        for (KeyedRedisRateLimiter<?> k : keyed) {
            bindCommon(registry, k.name(), k, KeyedRedisRateLimiter::redisMetrics);
            Gauge.builder(MetricNames.name(PATTERN, "keys"), k, KeyedRedisRateLimiter::size)
                    .tag(MetricNames.TAG_NAME, k.name())
                    .description("Keys tracked")
                    .strongReference(true)
                    .register(registry);
        }
    }

    private static <L> void bindCommon(MeterRegistry registry, String name, L limiter,
            Function<L, RedisRateLimiterMetrics> metrics) {
        FunctionCounter.builder(MetricNames.name(PATTERN, MetricNames.REJECTED), limiter, l -> metrics.apply(l).rejected())
                .tags(MetricNames.TAG_NAME, name, MetricNames.TAG_KIND, "rate_limited")
                .description("Requests the rate limiter refused")
                .register(registry);
        FunctionCounter.builder(MetricNames.name(PATTERN, "permits"), limiter, l -> metrics.apply(l).granted())
                .tags(MetricNames.TAG_NAME, name, MetricNames.TAG_OUTCOME, "granted")
                .description("Permits granted")
                .register(registry);
        Gauge.builder(MetricNames.name(REDIS, "available"), limiter, l -> metrics.apply(l).storeAvailable() ? 1 : 0)
                .tag(MetricNames.TAG_NAME, name)
                .description("1 while Redis decides")
                .strongReference(true)
                .register(registry);
        decisions(registry, name, limiter, l -> metrics.apply(l).storeCalls(), "store", "Decisions answered by Redis");
        decisions(registry, name, limiter, l -> metrics.apply(l).outageDecisions(), "outage",
                "Decisions made by the outage policy");
        FunctionCounter.builder(MetricNames.name(REDIS, "failures"), limiter, l -> metrics.apply(l).storeFailures())
                .tag(MetricNames.TAG_NAME, name)
                .description("Calls to Redis that failed or timed out")
                .register(registry);
        FunctionCounter.builder(MetricNames.name(REDIS, "script.reloads"), limiter, l -> metrics.apply(l).scriptReloads())
                .tag(MetricNames.TAG_NAME, name)
                .description("Scripts sent again after NOSCRIPT")
                .register(registry);
    }

    private static <L> void decisions(MeterRegistry registry, String name, L limiter, ToDoubleFunction<L> value,
            String outcome, String description) {
        FunctionCounter.builder(MetricNames.name(REDIS, "decisions"), limiter, value)
                .tags(MetricNames.TAG_NAME, name, MetricNames.TAG_OUTCOME, outcome)
                .description(description)
                .register(registry);
    }
}

package dev.levee.redis.idempotency;

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
 * Publishes Redis idempotency stores' metrics to Micrometer ({@code micrometer-core} is optional: only
 * this class touches it). The guard's own meters ({@code levee.idempotency.*}: claims, replays,
 * conflicts, mismatches, store errors as the guard saw them) come from the guard's binder; these
 * describe the store.
 *
 * <table>
 *   <caption>Meters (tag {@code name} = the store's name)</caption>
 *   <tr><th>name</th><th>type</th><th>tags</th><th>meaning</th></tr>
 *   <tr><td>{@code levee.idempotency.redis.available}</td><td>gauge</td><td></td><td>1 while Redis
 *       answers, 0 during an outage</td></tr>
 *   <tr><td>{@code levee.idempotency.redis.round.trips}</td><td>function counter</td><td></td><td>script
 *       calls Redis answered</td></tr>
 *   <tr><td>{@code levee.idempotency.redis.errors}</td><td>function counter</td><td></td><td>calls that
 *       failed, timed out, were refused by the open breaker or answered garbage</td></tr>
 *   <tr><td>{@code levee.idempotency.redis.script.reloads}</td><td>function counter</td><td></td><td>
 *       scripts sent again after {@code NOSCRIPT}</td></tr>
 *   <tr><td>{@code levee.idempotency.redis.claims}</td><td>function counter</td><td>{@code outcome} =
 *       {@code claimed} | {@code took_over} | {@code in_progress} | {@code completed}</td><td>what claims
 *       found ({@code took_over} is also counted in {@code claimed})</td></tr>
 * </table>
 * Reading a meter reads the store's counters; it never calls Redis.
 */
public final class RedisIdempotencyStoreMetricsBinder implements MeterBinder {
    private static final String BINDER = "RedisIdempotencyStoreMetricsBinder";
    private static final String PATTERN = "idempotency.redis";

    private final List<RedisIdempotencyStore> stores;

    /**
     * A binder for some stores.
     *
     * @param stores the stores
     */
    public RedisIdempotencyStoreMetricsBinder(RedisIdempotencyStore... stores) {
        this(List.of(Validate.notNull(BINDER, "stores", stores)));
    }

    /**
     * A binder for some stores (copied at construction).
     *
     * @param stores the stores
     */
    public RedisIdempotencyStoreMetricsBinder(Collection<RedisIdempotencyStore> stores) {
        this.stores = List.copyOf(Validate.notNull(BINDER, "stores", stores));
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Objects.requireNonNull(registry, "registry");
        for (RedisIdempotencyStore store : stores) {
            Gauge.builder(MetricNames.name(PATTERN, "available"), store, s -> s.storeAvailable() ? 1 : 0)
                    .tag(MetricNames.TAG_NAME, store.name())
                    .description("1 while Redis answers")
                    .strongReference(true)
                    .register(registry);
            counter(registry, "round.trips", store, s -> s.metrics().roundTrips(), "Script calls Redis answered");
            counter(registry, "errors", store, s -> s.metrics().storeErrors(),
                    "Calls that failed, timed out, were refused by the breaker or answered garbage");
            counter(registry, "script.reloads", store, s -> s.metrics().scriptReloads(), "Scripts sent again after NOSCRIPT");
            claims(registry, store, "claimed", s -> s.metrics().claimed());
            claims(registry, store, "took_over", s -> s.metrics().takeovers());
            claims(registry, store, "in_progress", s -> s.metrics().inProgress());
            claims(registry, store, "completed", s -> s.metrics().completedFound());
        }
    }

    private static void counter(MeterRegistry registry, String what, RedisIdempotencyStore store,
            ToDoubleFunction<RedisIdempotencyStore> value, String description) {
        FunctionCounter.builder(MetricNames.name(PATTERN, what), store, value)
                .tag(MetricNames.TAG_NAME, store.name())
                .description(description)
                .register(registry);
    }

    private static void claims(MeterRegistry registry, RedisIdempotencyStore store, String outcome,
            ToDoubleFunction<RedisIdempotencyStore> value) {
        FunctionCounter.builder(MetricNames.name(PATTERN, "claims"), store, value)
                .tags(MetricNames.TAG_NAME, store.name(), MetricNames.TAG_OUTCOME, outcome)
                .description("What claims found in Redis")
                .register(registry);
    }
}

package dev.levee.idempotency;

import dev.levee.core.internal.MetricNames;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.function.ToDoubleFunction;

/**
 * Publishes {@link IdempotencyGuard} counters to Micrometer, each tagged {@code name}:
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>meter</th><th>type</th><th>what</th></tr>
 *   <tr><td>{@code levee.idempotency.claims}</td><td>counter</td><td>requests that claimed their key and ran</td></tr>
 *   <tr><td>{@code levee.idempotency.expiries}</td><td>counter</td><td>claims that took over a lapsed lease</td></tr>
 *   <tr><td>{@code levee.idempotency.stored}</td><td>counter</td><td>responses stored for replay</td></tr>
 *   <tr><td>{@code levee.idempotency.released}</td><td>counter</td><td>keys released after a transient failure</td></tr>
 *   <tr><td>{@code levee.idempotency.replays}</td><td>counter</td><td>duplicates answered from the record</td></tr>
 *   <tr><td>{@code levee.idempotency.rejected}</td><td>counter, tag {@code kind}</td><td>refusals:
 *       {@code in_progress} (409, the conflicts), {@code mismatch} (422), {@code bad_key} (400),
 *       {@code store_unavailable} (503)</td></tr>
 *   <tr><td>{@code levee.idempotency.failed.open}</td><td>counter</td><td>requests run without a record (store down, fail open)</td></tr>
 *   <tr><td>{@code levee.idempotency.store.errors}</td><td>counter</td><td>store calls that failed</td></tr>
 *   <tr><td>{@code levee.idempotency.store.available}</td><td>gauge</td><td>1 while the store answers, else 0</td></tr>
 * </table>
 * Counters read the guard's own adders when scraped: nothing is added to the request path.
 */
public final class IdempotencyGuardMetricsBinder implements MeterBinder {
    private static final String PATTERN = "idempotency";

    private final List<IdempotencyGuard> guards;

    /**
     * Binds the given guards.
     *
     * @param guards the guards
     */
    public IdempotencyGuardMetricsBinder(IdempotencyGuard... guards) {
        this(List.of(guards));
    }

    /**
     * Binds the given guards.
     *
     * @param guards the guards
     */
    public IdempotencyGuardMetricsBinder(Collection<IdempotencyGuard> guards) {
        this.guards = List.copyOf(Objects.requireNonNull(guards, "guards"));
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Objects.requireNonNull(registry, "registry");
        for (IdempotencyGuard g : guards) {
            counter(registry, g, "claims", "requests that claimed their key and ran", m -> m.metrics().claims());
            counter(registry, g, "expiries", "claims that took over a lapsed lease", m -> m.metrics().leaseTakeovers());
            counter(registry, g, "stored", "responses stored for replay", m -> m.metrics().stored());
            counter(registry, g, "released", "keys released after a transient failure", m -> m.metrics().released());
            counter(registry, g, "replays", "duplicates answered from the record", m -> m.metrics().replays());
            counter(registry, g, "failed.open", "requests run without a record while the store was down",
                    m -> m.metrics().failedOpen());
            counter(registry, g, "store.errors", "store calls that failed", m -> m.metrics().storeErrors());
            rejected(registry, g, "in_progress", m -> m.metrics().inProgress());
            rejected(registry, g, "mismatch", m -> m.metrics().mismatches());
            rejected(registry, g, "bad_key", m -> m.metrics().badKeys());
            rejected(registry, g, "store_unavailable", m -> m.metrics().storeUnavailable());
            Gauge.builder(MetricNames.name(PATTERN, "store.available"), g, x -> x.metrics().storeAvailable() ? 1 : 0)
                    .tag(MetricNames.TAG_NAME, g.name())
                    .description("1 while the idempotency store answers, else 0")
                    .strongReference(true)
                    .register(registry);
        }
    }

    private static void counter(MeterRegistry registry, IdempotencyGuard g, String what, String description,
            ToDoubleFunction<IdempotencyGuard> fn) {
        FunctionCounter.builder(MetricNames.name(PATTERN, what), g, fn)
                .tag(MetricNames.TAG_NAME, g.name())
                .description(description)
                .register(registry);
    }

    private static void rejected(MeterRegistry registry, IdempotencyGuard g, String kind, ToDoubleFunction<IdempotencyGuard> fn) {
        FunctionCounter.builder(MetricNames.name(PATTERN, MetricNames.REJECTED), g, fn)
                .tag(MetricNames.TAG_NAME, g.name())
                .tag(MetricNames.TAG_KIND, kind)
                .description("requests refused by the idempotency guard, by kind")
                .register(registry);
    }
}

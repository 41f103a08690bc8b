package dev.levee.retry;

import dev.levee.core.internal.MetricNames;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * Publishes {@link Hedge} counters to Micrometer ({@code micrometer-core} is an optional dependency).
 *
 * <table>
 *   <caption>Meters (every one tagged {@code name})</caption>
 *   <tr><th>name</th><th>type</th><th>tags</th></tr>
 *   <tr><td>{@code levee.hedge.calls}</td><td>counter</td><td></td></tr>
 *   <tr><td>{@code levee.hedge.hedges}</td><td>counter</td><td></td></tr>
 *   <tr><td>{@code levee.hedge.wins}</td><td>counter</td><td></td></tr>
 *   <tr><td>{@code levee.hedge.rejected}</td><td>counter</td><td>{@code kind} =
 *       {@value RetryBudget#REJECTED_KIND}: hedges the budget refused; {@code kind} =
 *       {@value MissingIdempotencyKeyException#REJECTED_KIND}: hedges of keyed calls without a key</td></tr>
 * </table>
 * Counters read the hedges' own {@code LongAdder}s at scrape time; nothing is added to the call path.
 */
public final class HedgeMetricsBinder implements MeterBinder {
    private static final String PATTERN = "hedge";

    private final List<Hedge> hedges;

    /**
     * @param hedges the hedges to bind
     */
    public HedgeMetricsBinder(Hedge... hedges) {
        this(List.of(hedges));
    }

    /**
     * @param hedges the hedges to bind, e.g. {@code registry.all()} (copied at construction)
     */
    public HedgeMetricsBinder(Collection<Hedge> hedges) {
        this.hedges = List.copyOf(Objects.requireNonNull(hedges, "hedges"));
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Objects.requireNonNull(registry, "registry");
        for (Hedge hedge : hedges) {
            Tags name = Tags.of(MetricNames.TAG_NAME, hedge.name());
            FunctionCounter.builder(MetricNames.name(PATTERN, "calls"), hedge, h -> h.metrics().calls())
                    .tags(name).description("Calls through the hedge").register(registry);
            FunctionCounter.builder(MetricNames.name(PATTERN, "hedges"), hedge, h -> h.metrics().hedges())
                    .tags(name).description("Extra attempts started").register(registry);
            FunctionCounter.builder(MetricNames.name(PATTERN, "wins"), hedge, h -> h.metrics().hedgeWins())
                    .tags(name).description("Calls answered by an extra attempt").register(registry);
            FunctionCounter.builder(MetricNames.name(PATTERN, MetricNames.REJECTED), hedge, h -> h.metrics().rejected())
                    .tags(name.and(MetricNames.TAG_KIND, RetryBudget.REJECTED_KIND))
                    .description("Hedges refused, by kind: the retry budget, or a keyed call without an idempotency key").register(registry);
            FunctionCounter.builder(MetricNames.name(PATTERN, MetricNames.REJECTED), hedge, h -> h.metrics().rejectedWithoutKey())
                    .tags(name.and(MetricNames.TAG_KIND, MissingIdempotencyKeyException.REJECTED_KIND))
                    .description("Hedges refused, by kind: the retry budget, or a keyed call without an idempotency key").register(registry);
        }
    }
}

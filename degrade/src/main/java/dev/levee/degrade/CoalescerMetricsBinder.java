package dev.levee.degrade;

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
 * Micrometer metrics of {@link Coalescer}s, read from their counters when scraped.
 *
 * <table>
 *   <caption>Meters (tag {@code name})</caption>
 *   <tr><th>name</th><th>type</th><th>meaning</th></tr>
 *   <tr><td>{@code levee.degrade.coalescer.loads}</td><td>counter</td><td>loader executions</td></tr>
 *   <tr><td>{@code levee.degrade.coalescer.joined}</td><td>counter</td><td>calls that shared another call's load</td></tr>
 *   <tr><td>{@code levee.degrade.coalescer.held}</td><td>counter</td><td>calls answered by a held value</td></tr>
 *   <tr><td>{@code levee.degrade.coalescer.refreshes}</td><td>counter</td><td>early (XFetch) refreshes</td></tr>
 *   <tr><td>{@code levee.degrade.coalescer.bypassed}</td><td>counter</td><td>calls not coalesced because the map was full</td></tr>
 *   <tr><td>{@code levee.degrade.coalescer.entries}</td><td>gauge</td><td>keys in flight or held</td></tr>
 * </table>
 */
public final class CoalescerMetricsBinder implements MeterBinder {
    private final List<Coalescer<?, ?>> coalescers;

    /**
     * @param coalescers the coalescers to bind
     */
    public CoalescerMetricsBinder(Coalescer<?, ?>... coalescers) {
        this(List.of(coalescers));
    }

    /**
     * @param coalescers the coalescers to bind
     */
    public CoalescerMetricsBinder(Collection<? extends Coalescer<?, ?>> coalescers) {
        this.coalescers = List.copyOf(Objects.requireNonNull(coalescers, "coalescers"));
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Objects.requireNonNull(registry, "registry");
        for (Coalescer<?, ?> c : coalescers) {
            counter(registry, c, "loads", "loader executions", x -> x.metrics().loads());
            counter(registry, c, "joined", "calls that shared another call's load", x -> x.metrics().joined());
            counter(registry, c, "held", "calls answered by a held value", x -> x.metrics().held());
            counter(registry, c, "refreshes", "early refreshes", x -> x.metrics().earlyRefreshes());
            counter(registry, c, "bypassed", "calls not coalesced because the map was full", x -> x.metrics().bypassed());
            Gauge.builder(MetricNames.name("degrade", "coalescer.entries"), c, Coalescer::size)
                    .tag(MetricNames.TAG_NAME, c.name())
                    .description("keys in flight or held")
                    .strongReference(true)
                    .register(registry);
        }
    }

    private static void counter(MeterRegistry registry, Coalescer<?, ?> c, String what, String description,
            ToDoubleFunction<Coalescer<?, ?>> fn) {
        FunctionCounter.builder(MetricNames.name("degrade", "coalescer." + what), c, fn)
                .tag(MetricNames.TAG_NAME, c.name())
                .description(description)
                .register(registry);
    }
}

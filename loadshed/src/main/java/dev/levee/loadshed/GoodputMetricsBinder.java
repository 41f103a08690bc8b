package dev.levee.loadshed;

import dev.levee.core.internal.MetricNames;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * Micrometer metrics of {@link Goodput} meters: goodput beside raw throughput (seed 000).
 *
 * <table>
 *   <caption>Meters, each tagged {@code name}</caption>
 *   <tr><th>name</th><th>type</th><th>meaning</th></tr>
 *   <tr><td>{@code levee.loadshed.goodput}</td><td>counter</td><td>successful completions within their deadline or SLO</td></tr>
 *   <tr><td>{@code levee.loadshed.throughput}</td><td>counter</td><td>all completions, successful or not</td></tr>
 *   <tr><td>{@code levee.loadshed.goodput.ratio}</td><td>gauge</td><td>goodput / throughput, a fraction in [0, 1]</td></tr>
 * </table>
 * A dashboard plots {@code rate(goodput)} against {@code rate(throughput)}: the gap is work done for
 * clients that had already given up.
 */
public final class GoodputMetricsBinder implements MeterBinder {
    private final List<Goodput> meters;

    /**
     * @param meters the goodput meters to report
     */
    public GoodputMetricsBinder(Goodput... meters) {
        this(List.of(meters));
    }

    /**
     * @param meters the goodput meters to report
     */
    public GoodputMetricsBinder(Collection<Goodput> meters) {
        this.meters = List.copyOf(meters);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Objects.requireNonNull(registry, "registry");
        for (Goodput g : meters) {
            FunctionCounter.builder(MetricNames.name(SheddingMetricsBinder.PATTERN, "goodput"), g, Goodput::goodputCount)
                    .tag(MetricNames.TAG_NAME, g.name()).description("completions within their deadline or SLO").register(registry);
            FunctionCounter.builder(MetricNames.name(SheddingMetricsBinder.PATTERN, "throughput"), g, Goodput::throughputCount)
                    .tag(MetricNames.TAG_NAME, g.name()).description("all completions").register(registry);
            SheddingMetricsBinder.gauge(registry, "goodput.ratio", g.name(), g, Goodput::goodputRatio);
        }
    }
}

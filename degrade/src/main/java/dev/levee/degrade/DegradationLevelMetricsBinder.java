package dev.levee.degrade;

import dev.levee.core.internal.MetricNames;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * Micrometer metrics of {@link DegradationLevel}s. The level gauge reads the last computed level
 * without sampling the load.
 *
 * <table>
 *   <caption>Meters (tag {@code name})</caption>
 *   <tr><th>name</th><th>type</th><th>meaning</th></tr>
 *   <tr><td>{@code levee.degrade.level}</td><td>gauge</td><td>the current level, 0 = full</td></tr>
 *   <tr><td>{@code levee.degrade.level.load}</td><td>gauge</td><td>the last load read</td></tr>
 *   <tr><td>{@code levee.degrade.level.changes}</td><td>counter, tag {@code kind} = {@code raised} or
 *       {@code lowered}</td><td>level changes</td></tr>
 * </table>
 */
public final class DegradationLevelMetricsBinder implements MeterBinder {
    private final List<DegradationLevel> levels;

    /**
     * @param levels the degradation levels to bind
     */
    public DegradationLevelMetricsBinder(DegradationLevel... levels) {
        this(List.of(levels));
    }

    /**
     * @param levels the degradation levels to bind
     */
    public DegradationLevelMetricsBinder(Collection<DegradationLevel> levels) {
        this.levels = List.copyOf(Objects.requireNonNull(levels, "levels"));
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Objects.requireNonNull(registry, "registry");
        for (DegradationLevel level : levels) {
            Gauge.builder(MetricNames.name("degrade", "level"), level, l -> l.metrics().level())
                    .tag(MetricNames.TAG_NAME, level.name())
                    .description("the current degradation level, 0 = full")
                    .strongReference(true)
                    .register(registry);
            Gauge.builder(MetricNames.name("degrade", "level.load"), level, l -> l.metrics().lastLoad())
                    .tag(MetricNames.TAG_NAME, level.name())
                    .description("the last load read")
                    .strongReference(true)
                    .register(registry);
            FunctionCounter.builder(MetricNames.name("degrade", "level.changes"), level, l -> l.metrics().raised())
                    .tag(MetricNames.TAG_NAME, level.name())
                    .tag(MetricNames.TAG_KIND, "raised")
                    .register(registry);
            FunctionCounter.builder(MetricNames.name("degrade", "level.changes"), level, l -> l.metrics().lowered())
                    .tag(MetricNames.TAG_NAME, level.name())
                    .tag(MetricNames.TAG_KIND, "lowered")
                    .register(registry);
        }
    }
}

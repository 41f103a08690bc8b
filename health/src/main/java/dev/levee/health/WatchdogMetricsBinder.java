package dev.levee.health;

import dev.levee.core.internal.MetricNames;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * Binds watchdogs to a Micrometer {@link MeterRegistry}, so the watchdog is itself observable.
 *
 * <table>
 *   <caption>Meters (every one tagged {@code name} = the watchdog's name)</caption>
 *   <tr><th>name</th><th>type</th><th>tags</th><th>meaning</th></tr>
 *   <tr><td>levee.health.watchdog.samples</td><td>counter</td><td></td><td>sampling rounds</td></tr>
 *   <tr><td>levee.health.watchdog.breaches</td><td>counter</td><td></td><td>sustained breaches</td></tr>
 *   <tr><td>levee.health.watchdog.actions</td><td>counter</td><td>outcome</td><td>actions:
 *       {@code taken|suppressed|failed}</td></tr>
 *   <tr><td>levee.health.watchdog.unready</td><td>gauge</td><td></td><td>1 while readiness is marked</td></tr>
 * </table>
 */
public final class WatchdogMetricsBinder implements MeterBinder {
    private static final String PATTERN = "health";
    private final List<Watchdog> watchdogs;

    /**
     * @param watchdogs the watchdogs to bind
     */
    public WatchdogMetricsBinder(Watchdog... watchdogs) {
        this(List.of(watchdogs));
    }

    /**
     * @param watchdogs the watchdogs to bind (copied at construction)
     */
    public WatchdogMetricsBinder(Collection<Watchdog> watchdogs) {
        this.watchdogs = List.copyOf(Objects.requireNonNull(watchdogs, "watchdogs"));
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (Watchdog w : watchdogs) {
            Tags name = Tags.of(MetricNames.TAG_NAME, w.name());
            FunctionCounter.builder(MetricNames.name(PATTERN, "watchdog.samples"), w, x -> x.metrics().samples())
                    .tags(name).description("Watchdog sampling rounds").register(registry);
            FunctionCounter.builder(MetricNames.name(PATTERN, "watchdog.breaches"), w, x -> x.metrics().breaches())
                    .tags(name).description("Watchdog sustained breaches").register(registry);
            FunctionCounter.builder(MetricNames.name(PATTERN, "watchdog.actions"), w, x -> x.metrics().actionsTaken())
                    .tags(name.and(MetricNames.TAG_OUTCOME, "taken")).description("Watchdog actions").register(registry);
            FunctionCounter.builder(MetricNames.name(PATTERN, "watchdog.actions"), w,
                            x -> x.metrics().actionsSuppressed())
                    .tags(name.and(MetricNames.TAG_OUTCOME, "suppressed")).description("Watchdog actions")
                    .register(registry);
            FunctionCounter.builder(MetricNames.name(PATTERN, "watchdog.actions"), w, x -> x.metrics().actionFailures())
                    .tags(name.and(MetricNames.TAG_OUTCOME, "failed")).description("Watchdog actions")
                    .register(registry);
            Gauge.builder(MetricNames.name(PATTERN, "watchdog.unready"), w, x -> x.isUnready() ? 1.0 : 0.0)
                    .tags(name).description("1 while the watchdog marks readiness UNHEALTHY").register(registry);
        }
    }
}

package dev.levee.health;

import dev.levee.core.internal.MetricNames;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Binds health checkers to a Micrometer {@link MeterRegistry}. Only this class (and
 * {@link WatchdogMetricsBinder}) references Micrometer; {@code micrometer-core} is optional.
 *
 * <table>
 *   <caption>Meters (every one tagged {@code name} = the checker's name)</caption>
 *   <tr><th>name</th><th>type</th><th>tags</th><th>meaning</th></tr>
 *   <tr><td>levee.health.status</td><td>gauge</td><td>level, state</td><td>1 for the level's status in its
 *       last report, 0 for the others</td></tr>
 *   <tr><td>levee.health.check.status</td><td>gauge</td><td>check, state</td><td>1 for the check's last
 *       reported status, 0 for the others</td></tr>
 *   <tr><td>levee.health.check.latency</td><td>timer</td><td>check, outcome</td><td>each run's latency;
 *       outcome {@code healthy|degraded|unhealthy|timeout}</td></tr>
 *   <tr><td>levee.health.check.runs</td><td>counter</td><td></td><td>runs completed (timeouts included)</td></tr>
 * </table>
 *
 * <p>Checks registered after binding get their meters on their first run.
 */
public final class HealthMetricsBinder implements MeterBinder {
    private static final String PATTERN = "health";
    private static final String TAG_LEVEL = "level";
    private static final String TAG_CHECK = "check";

    private final List<HealthChecker> checkers;

    /**
     * @param checkers the checkers to bind
     */
    public HealthMetricsBinder(HealthChecker... checkers) {
        this(List.of(checkers));
    }

    /**
     * @param checkers the checkers to bind (copied at construction)
     */
    public HealthMetricsBinder(Collection<HealthChecker> checkers) {
        this.checkers = List.copyOf(Objects.requireNonNull(checkers, "checkers"));
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (HealthChecker checker : checkers) {
            bind(checker, registry);
        }
    }

    private static void bind(HealthChecker checker, MeterRegistry registry) {
        Tags name = Tags.of(MetricNames.TAG_NAME, checker.name());
        for (HealthLevel level : HealthLevel.values()) {
            for (HealthStatus state : HealthStatus.values()) {
                Gauge.builder(MetricNames.name(PATTERN, "status"), checker, c -> c.lastStatus(level) == state ? 1.0 : 0.0)
                        .tags(name.and(TAG_LEVEL, level.tag()).and(MetricNames.TAG_STATE, state.tag()))
                        .description("1 if the level's last report had this status")
                        .register(registry);
            }
        }
        FunctionCounter.builder(MetricNames.name(PATTERN, "check.runs"), checker, c -> c.metrics().runs())
                .tags(name).description("Health check runs completed").register(registry);
        Set<String> bound = ConcurrentHashMap.newKeySet();
        for (HealthLevel level : HealthLevel.values()) {
            for (String check : checker.checkNames(level)) {
                bindCheck(checker, registry, name, check, bound);
            }
        }
        checker.onEvent(event -> {
            if (event instanceof HealthEvent.CheckCompleted) {
                HealthEvent.CheckCompleted done = (HealthEvent.CheckCompleted) event;
                bindCheck(checker, registry, name, done.check(), bound);
                String outcome = done.timedOut() ? "timeout" : done.status().tag();
                Timer.builder(MetricNames.name(PATTERN, "check.latency"))
                        .tags(name.and(TAG_CHECK, done.check()).and(MetricNames.TAG_OUTCOME, outcome))
                        .description("Health check run latency")
                        .register(registry)
                        .record(done.latencyNanos(), TimeUnit.NANOSECONDS);
            }
        });
    }

    private static void bindCheck(HealthChecker checker, MeterRegistry registry, Tags name, String check,
            Set<String> bound) {
        if (!bound.add(check)) {
            return;
        }
        for (HealthStatus state : HealthStatus.values()) {
            Gauge.builder(MetricNames.name(PATTERN, "check.status"), checker,
                            c -> c.lastCheckStatus(check) == state ? 1.0 : 0.0)
                    .tags(name.and(TAG_CHECK, check).and(MetricNames.TAG_STATE, state.tag()))
                    .description("1 if the check's last reported status is this one")
                    .register(registry);
        }
    }
}

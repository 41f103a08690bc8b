package dev.levee.retry;

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
 * Publishes {@link ReplicaSet} state to Micrometer ({@code micrometer-core} is an optional dependency).
 * Per-replica meters carry the {@code replica} tag (the replica's {@code toString()}), so every
 * attempt of a replica-aware {@link Hedge} or {@link Retry} is counted against the replica it went to.
 *
 * <table>
 *   <caption>Meters (every one tagged {@code name})</caption>
 *   <tr><th>name</th><th>type</th><th>tags</th></tr>
 *   <tr><td>{@code levee.replicas.calls}</td><td>counter</td><td>{@code replica}, {@code outcome} =
 *       {@code success} | {@code failure}</td></tr>
 *   <tr><td>{@code levee.replicas.outstanding}</td><td>gauge</td><td>{@code replica}</td></tr>
 *   <tr><td>{@code levee.replicas.ejected}</td><td>gauge</td><td>replicas ejected now</td></tr>
 *   <tr><td>{@code levee.replicas.ejections}</td><td>counter</td><td></td></tr>
 *   <tr><td>{@code levee.replicas.capped}</td><td>counter</td><td>ejections refused by the cap</td></tr>
 *   <tr><td>{@code levee.replicas.unhealthy}</td><td>gauge</td><td>replicas a health signal reports unhealthy</td></tr>
 *   <tr><td>{@code levee.replicas.panic}</td><td>gauge</td><td>1 while in panic, else 0</td></tr>
 *   <tr><td>{@code levee.replicas.panics}</td><td>counter</td><td>times the set entered panic</td></tr>
 * </table>
 * Meters read the set's own counters at scrape time; nothing is added to the call path.
 */
public final class ReplicaSetMetricsBinder implements MeterBinder {
    private static final String PATTERN = "replicas";

    private final List<ReplicaSet<?>> sets;

    /**
     * @param sets the replica sets to bind
     */
    public ReplicaSetMetricsBinder(ReplicaSet<?>... sets) {
        this(List.of(sets));
    }

    /**
     * @param sets the replica sets to bind (copied at construction)
     */
    public ReplicaSetMetricsBinder(Collection<ReplicaSet<?>> sets) {
        this.sets = List.copyOf(Objects.requireNonNull(sets, "sets"));
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Objects.requireNonNull(registry, "registry");
        for (ReplicaSet<?> set : sets) {
            Tags name = Tags.of(MetricNames.TAG_NAME, set.name());
            for (int i = 0; i < set.size(); i++) {
                int index = i;
                Tags replica = name.and(MetricNames.TAG_REPLICA, String.valueOf(set.replica(i)));
                FunctionCounter.builder(MetricNames.name(PATTERN, "calls"), set, s -> s.metrics(index).successes())
                        .tags(replica.and(MetricNames.TAG_OUTCOME, "success"))
                        .description("Attempts a replica answered successfully").register(registry);
                FunctionCounter.builder(MetricNames.name(PATTERN, "calls"), set, s -> s.metrics(index).failures())
                        .tags(replica.and(MetricNames.TAG_OUTCOME, "failure"))
                        .description("Attempts a replica failed").register(registry);
                Gauge.builder(MetricNames.name(PATTERN, "outstanding"), set, s -> s.outstanding(index))
                        .tags(replica).description("Calls in flight on a replica").register(registry);
            }
            Gauge.builder(MetricNames.name(PATTERN, "ejected"), set, s -> s.metrics().ejected())
                    .tags(name).description("Replicas ejected now").register(registry);
            FunctionCounter.builder(MetricNames.name(PATTERN, "ejections"), set, s -> s.metrics().ejections())
                    .tags(name).description("Ejections since creation").register(registry);
            FunctionCounter.builder(MetricNames.name(PATTERN, "capped"), set, s -> s.metrics().ejectionsCapped())
                    .tags(name).description("Ejections refused because the set had its maximum ejected")
                    .register(registry);
            Gauge.builder(MetricNames.name(PATTERN, "unhealthy"), set, s -> s.metrics().unhealthy())
                    .tags(name).description("Replicas a health signal reports unhealthy").register(registry);
            Gauge.builder(MetricNames.name(PATTERN, "panic"), set, s -> s.panicking() ? 1.0 : 0.0)
                    .tags(name).description("1 while the set ignores health (panic)").register(registry);
            FunctionCounter.builder(MetricNames.name(PATTERN, "panics"), set, s -> s.metrics().panics())
                    .tags(name).description("Times the set entered panic").register(registry);
        }
    }
}

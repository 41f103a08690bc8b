package dev.levee.chaos;

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
 * Micrometer meters of {@link Chaos} policies: {@code levee.chaos.injections} (counter, tags {@code name},
 * {@code kind}) and {@code levee.chaos.enabled} (gauge, 1 or 0, tag {@code name}). A chaos policy never
 * refuses a call, so it has no {@code rejected} counter.
 */
public final class ChaosMetricsBinder implements MeterBinder {
    private static final String PATTERN = "chaos";

    private final List<Chaos> policies;

    /**
     * Binds the given policies.
     *
     * @param policies the policies
     */
    public ChaosMetricsBinder(Chaos... policies) {
        this(List.of(policies));
    }

    /**
     * Binds the given policies.
     *
     * @param policies the policies
     */
    public ChaosMetricsBinder(Collection<Chaos> policies) {
        this.policies = List.copyOf(Objects.requireNonNull(policies, "policies"));
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Objects.requireNonNull(registry, "registry");
        for (Chaos chaos : policies) {
            Tags name = Tags.of(MetricNames.TAG_NAME, chaos.name());
            FunctionCounter.builder(MetricNames.name(PATTERN, "injections"), chaos, Chaos::injections)
                    .tags(name.and(MetricNames.TAG_KIND, chaos.config().kind().tag()))
                    .description("Faults injected").register(registry);
            Gauge.builder(MetricNames.name(PATTERN, "enabled"), chaos, c -> c.isEnabled() ? 1 : 0)
                    .tags(name).description("1 while the policy injects, 0 while it is switched off").register(registry);
        }
    }
}

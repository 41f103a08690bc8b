package dev.levee.health;

import dev.levee.core.internal.MetricNames;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * Binds health endpoints to a Micrometer {@link MeterRegistry}: the house refusal counter.
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>name</th><th>type</th><th>tags</th><th>meaning</th></tr>
 *   <tr><td>levee.health.rejected</td><td>counter</td><td>name (the checker's), kind=busy</td><td>requests
 *       answered 503 at once because every worker was busy and the queue full</td></tr>
 * </table>
 */
public final class HealthEndpointMetricsBinder implements MeterBinder {
    private final List<HealthEndpoint> endpoints;

    /**
     * @param endpoints the endpoints to bind
     */
    public HealthEndpointMetricsBinder(HealthEndpoint... endpoints) {
        this(List.of(endpoints));
    }

    /**
     * @param endpoints the endpoints to bind (copied at construction)
     */
    public HealthEndpointMetricsBinder(Collection<HealthEndpoint> endpoints) {
        this.endpoints = List.copyOf(Objects.requireNonNull(endpoints, "endpoints"));
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (HealthEndpoint e : endpoints) {
            FunctionCounter.builder(MetricNames.name("health", MetricNames.REJECTED), e, HealthEndpoint::shedRequests)
                    .tags(Tags.of(MetricNames.TAG_NAME, e.checkerName(), MetricNames.TAG_KIND, "busy"))
                    .description("Health requests refused because the endpoint's workers were all busy")
                    .register(registry);
        }
    }
}

package dev.levee.loadshed;

import dev.levee.core.internal.MetricNames;
import dev.levee.core.internal.Validate;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Collection;
import java.util.List;

/**
 * Binds client throttles to a Micrometer {@link MeterRegistry}; read when scraped.
 *
 * <table>
 *   <caption>Meters (every one tagged {@code name})</caption>
 *   <tr><th>name</th><th>type</th><th>tags</th><th>meaning</th></tr>
 *   <tr><td>levee.loadshed.rejected</td><td>counter</td><td>kind=shed, reason=client_throttle</td>
 *       <td>requests refused locally</td></tr>
 *   <tr><td>levee.loadshed.throttle.probability</td><td>gauge</td><td></td><td>the local rejection probability now, a fraction</td></tr>
 *   <tr><td>levee.loadshed.throttle.requests</td><td>gauge</td><td></td><td>requests sent within the window</td></tr>
 *   <tr><td>levee.loadshed.throttle.accepts</td><td>gauge</td><td></td><td>requests the backend accepted within the window</td></tr>
 * </table>
 */
public final class ClientThrottleMetricsBinder implements MeterBinder {
    private final List<ClientThrottle> throttles;

    /**
     * @param throttles the throttles to bind
     */
    public ClientThrottleMetricsBinder(ClientThrottle... throttles) {
        this(List.of(throttles));
    }

    /**
     * @param throttles the throttles to bind (copied at construction)
     */
    public ClientThrottleMetricsBinder(Collection<ClientThrottle> throttles) {
        this.throttles = List.copyOf(Validate.notNull("ClientThrottleMetricsBinder", "throttles", throttles));
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        String pattern = ConcurrencyLimiterMetricsBinder.PATTERN;
        for (ClientThrottle t : throttles) {
            Tags name = Tags.of(MetricNames.TAG_NAME, t.name());
            FunctionCounter.builder(MetricNames.name(pattern, MetricNames.REJECTED), t, ClientThrottle::throttledCount)
                    .tags(name.and(MetricNames.TAG_KIND, "shed").and(MetricNames.TAG_REASON, ClientThrottle.REASON))
                    .description("Requests the client throttle refused locally").register(registry);
            Gauge.builder(MetricNames.name(pattern, "throttle.probability"), t,
                            x -> x.rejectionProbability(x.ticker().read()))
                    .tags(name).baseUnit("ratio").description("Local rejection probability").strongReference(true)
                    .register(registry);
            Gauge.builder(MetricNames.name(pattern, "throttle.requests"), t, ClientThrottle::requestCount).tags(name)
                    .description("Requests sent within the window").strongReference(true).register(registry);
            Gauge.builder(MetricNames.name(pattern, "throttle.accepts"), t, ClientThrottle::acceptCount).tags(name)
                    .description("Requests accepted within the window").strongReference(true).register(registry);
        }
    }
}

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
 * Binds concurrency limiters (and client throttles) to a Micrometer {@link MeterRegistry}. With
 * {@link ClientThrottleMetricsBinder}, the only classes of this part of the module that reference
 * Micrometer, an optional dependency. Every meter reads the limiter's own fields when scraped, so
 * binding adds nothing to the request path.
 *
 * <table>
 *   <caption>Meters (every one tagged {@code name})</caption>
 *   <tr><th>name</th><th>type</th><th>tags</th><th>meaning</th></tr>
 *   <tr><td>levee.loadshed.limit</td><td>gauge</td><td></td><td>the concurrency limit in force</td></tr>
 *   <tr><td>levee.loadshed.inflight</td><td>gauge</td><td></td><td>requests admitted and not completed</td></tr>
 *   <tr><td>levee.loadshed.waiting</td><td>gauge</td><td></td><td>threads waiting for a slot</td></tr>
 *   <tr><td>levee.loadshed.rejected</td><td>counter</td><td>kind=shed, reason=concurrency_limit</td>
 *       <td>requests refused (the rejection counter every pattern has, {@link MetricNames#REJECTED})</td></tr>
 *   <tr><td>levee.loadshed.drops</td><td>counter</td><td></td><td>completions counted as overload signals</td></tr>
 * </table>
 * No latency percentiles: they would need a histogram on the completion path, and the limit itself is
 * the limiter's verdict on latency. Time your handlers with your server's own timer.
 */
public final class ConcurrencyLimiterMetricsBinder implements MeterBinder {
    static final String PATTERN = "loadshed";
    private final List<ConcurrencyLimiter> limiters;

    /**
     * @param limiters the limiters to bind
     */
    public ConcurrencyLimiterMetricsBinder(ConcurrencyLimiter... limiters) {
        this(List.of(limiters));
    }

    /**
     * @param limiters the limiters to bind, e.g. {@code registry.all()} (copied at construction)
     */
    public ConcurrencyLimiterMetricsBinder(Collection<ConcurrencyLimiter> limiters) {
        this.limiters = List.copyOf(Validate.notNull("ConcurrencyLimiterMetricsBinder", "limiters", limiters));
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (ConcurrencyLimiter limiter : limiters) {
            Tags name = Tags.of(MetricNames.TAG_NAME, limiter.name());
            Gauge.builder(MetricNames.name(PATTERN, "limit"), limiter, ConcurrencyLimiter::limit).tags(name)
                    .description("The concurrency limit in force").strongReference(true).register(registry);
            Gauge.builder(MetricNames.name(PATTERN, "inflight"), limiter, ConcurrencyLimiter::inflight).tags(name)
                    .description("Requests admitted and not yet completed").strongReference(true).register(registry);
            Gauge.builder(MetricNames.name(PATTERN, "waiting"), limiter, ConcurrencyLimiter::waiting).tags(name)
                    .description("Threads waiting for a slot").strongReference(true).register(registry);
            FunctionCounter.builder(MetricNames.name(PATTERN, MetricNames.REJECTED), limiter,
                            ConcurrencyLimiter::rejectedCount)
                    .tags(name.and(MetricNames.TAG_KIND, "shed").and(MetricNames.TAG_REASON, ConcurrencyLimiter.REASON))
                    .description("Requests the concurrency limiter refused").register(registry);
            FunctionCounter.builder(MetricNames.name(PATTERN, "drops"), limiter, l -> l.metrics().drops()).tags(name)
                    .description("Completions counted as overload signals").register(registry);
        }
    }
}

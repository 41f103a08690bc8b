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
import java.util.function.ToDoubleFunction;

/**
 * Publishes {@link Retry} counters to Micrometer. With {@link HedgeMetricsBinder}, the only classes of
 * this module that touch Micrometer ({@code micrometer-core} is an optional dependency).
 *
 * <table>
 *   <caption>Meters (every one tagged {@code name})</caption>
 *   <tr><th>name</th><th>type</th><th>tags</th></tr>
 *   <tr><td>{@code levee.retry.calls}</td><td>counter</td><td>{@code kind} =
 *       {@code successful_without_retry}, {@code successful_with_retry}, {@code failed_without_retry},
 *       {@code failed_with_retry}</td></tr>
 *   <tr><td>{@code levee.retry.retries}</td><td>counter</td><td></td></tr>
 *   <tr><td>{@code levee.retry.rejected}</td><td>counter</td><td>{@code kind} =
 *       {@value RetryBudget#REJECTED_KIND}: retries the budget refused; {@code kind} =
 *       {@value MissingIdempotencyKeyException#REJECTED_KIND}: retries refused because a keyed call
 *       carried no idempotency key</td></tr>
 *   <tr><td>{@code levee.retry.budget.available}</td><td>gauge</td><td>(only for a retry with a budget:
 *       retries its budget would allow now)</td></tr>
 * </table>
 * Counters read the retries' own {@code LongAdder}s at scrape time; nothing is added to the call path.
 */
public final class RetryMetricsBinder implements MeterBinder {
    private static final String PATTERN = "retry";

    private final List<Retry> retries;

    /**
     * @param retries the retries to bind
     */
    public RetryMetricsBinder(Retry... retries) {
        this(List.of(retries));
    }

    /**
     * @param retries the retries to bind, e.g. {@code registry.all()} (copied at construction)
     */
    public RetryMetricsBinder(Collection<Retry> retries) {
        this.retries = List.copyOf(Objects.requireNonNull(retries, "retries"));
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Objects.requireNonNull(registry, "registry");
        for (Retry retry : retries) {
            bind(registry, retry);
        }
    }

    private static void bind(MeterRegistry registry, Retry retry) {
        Tags name = Tags.of(MetricNames.TAG_NAME, retry.name());
        calls(registry, name, "successful_without_retry", retry, r -> r.metrics().successfulWithoutRetry());
        calls(registry, name, "successful_with_retry", retry, r -> r.metrics().successfulWithRetry());
        calls(registry, name, "failed_without_retry", retry, r -> r.metrics().failedWithoutRetry());
        calls(registry, name, "failed_with_retry", retry, r -> r.metrics().failedWithRetry());
        FunctionCounter.builder(MetricNames.name(PATTERN, "retries"), retry, r -> r.metrics().retries())
                .tags(name).description("Retries made").register(registry);
        FunctionCounter.builder(MetricNames.name(PATTERN, MetricNames.REJECTED), retry, r -> r.metrics().rejected())
                .tags(name.and(MetricNames.TAG_KIND, RetryBudget.REJECTED_KIND))
                .description("Retries refused, by kind: the retry budget, or a keyed call without an idempotency key").register(registry);
        FunctionCounter.builder(MetricNames.name(PATTERN, MetricNames.REJECTED), retry, r -> r.metrics().rejectedWithoutKey())
                .tags(name.and(MetricNames.TAG_KIND, MissingIdempotencyKeyException.REJECTED_KIND))
                .description("Retries refused, by kind: the retry budget, or a keyed call without an idempotency key").register(registry);
        RetryBudget budget = retry.budget();
        if (budget != null) {
            Gauge.builder(MetricNames.name(PATTERN, "budget.available"), budget, RetryBudget::available)
                    .tags(name)
                    .description("Retries the budget would allow now").register(registry);
        }
    }

    private static void calls(MeterRegistry registry, Tags name, String kind, Retry retry, ToDoubleFunction<Retry> f) {
        FunctionCounter.builder(MetricNames.name(PATTERN, "calls"), retry, f).tags(name.and(MetricNames.TAG_KIND, kind))
                .description("Calls through the retry, by how they ended").register(registry);
    }
}

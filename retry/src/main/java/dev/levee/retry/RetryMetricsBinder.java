package dev.levee.retry;

import dev.levee.core.MetricNames;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.List;
import java.util.Objects;

/**
 * Publishes {@link Retry} and {@link Hedge} counters to Micrometer. The only class of this module that
 * touches Micrometer ({@code micrometer-core} is an optional dependency).
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>name</th><th>type</th><th>tags</th></tr>
 *   <tr><td>{@code levee.retry.calls}</td><td>counter</td><td>{@code name}, {@code kind} =
 *       {@code successful_without_retry}, {@code successful_with_retry}, {@code failed_without_retry},
 *       {@code failed_with_retry}</td></tr>
 *   <tr><td>{@code levee.retry.retries}</td><td>counter</td><td>{@code name}</td></tr>
 *   <tr><td>{@code levee.retry.budget.refusals}</td><td>counter</td><td>{@code name}</td></tr>
 *   <tr><td>{@code levee.retry.budget.available}</td><td>gauge</td><td>{@code name} (the retry's), {@code kind} = the budget's name</td></tr>
 *   <tr><td>{@code levee.hedge.calls}, {@code levee.hedge.hedges}, {@code levee.hedge.wins},
 *       {@code levee.hedge.budget.refusals}</td><td>counters</td><td>{@code name}</td></tr>
 * </table>
 * Counters read the policies' own {@code LongAdder}s at scrape time; nothing is added to the call path.
 */
public final class RetryMetricsBinder implements MeterBinder {
    private final List<Retry> retries;
    private final List<Hedge> hedges;

    private RetryMetricsBinder(List<Retry> retries, List<Hedge> hedges) {
        this.retries = retries;
        this.hedges = hedges;
    }

    /**
     * A binder for these retries.
     *
     * @param retries the retries
     * @return the binder
     */
    public static RetryMetricsBinder of(Retry... retries) {
        return new RetryMetricsBinder(List.of(retries), List.of());
    }

    /**
     * A binder for these retries and hedges.
     *
     * @param retries the retries
     * @param hedges the hedges
     * @return the binder
     */
    public static RetryMetricsBinder of(List<Retry> retries, List<Hedge> hedges) {
        return new RetryMetricsBinder(List.copyOf(retries), List.copyOf(hedges));
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Objects.requireNonNull(registry, "registry");
        for (Retry retry : retries) {
            bindRetry(registry, retry);
        }
        for (Hedge hedge : hedges) {
            bindHedge(registry, hedge);
        }
    }

    private static void bindRetry(MeterRegistry registry, Retry retry) {
        String calls = MetricNames.name("retry", "calls");
        counter(registry, calls, retry.name(), "successful_without_retry", retry, r -> r.metrics().successfulWithoutRetry());
        counter(registry, calls, retry.name(), "successful_with_retry", retry, r -> r.metrics().successfulWithRetry());
        counter(registry, calls, retry.name(), "failed_without_retry", retry, r -> r.metrics().failedWithoutRetry());
        counter(registry, calls, retry.name(), "failed_with_retry", retry, r -> r.metrics().failedWithRetry());
        FunctionCounter.builder(MetricNames.name("retry", "retries"), retry, r -> r.metrics().retries())
                .tag(MetricNames.TAG_NAME, retry.name()).description("Retries made").register(registry);
        FunctionCounter.builder(MetricNames.name("retry", "budget.refusals"), retry, r -> r.metrics().budgetRefusals())
                .tag(MetricNames.TAG_NAME, retry.name()).description("Retries refused by the retry budget")
                .register(registry);
        RetryBudget budget = retry.budget();
        if (budget != null) {
            Gauge.builder(MetricNames.name("retry", "budget.available"), budget, RetryBudget::available)
                    .tag(MetricNames.TAG_NAME, retry.name()).tag(MetricNames.TAG_KIND, budget.name())
                    .description("Retries the budget would allow now").register(registry);
        }
    }

    private static void counter(MeterRegistry registry, String name, String policy, String kind, Retry retry,
                                java.util.function.ToDoubleFunction<Retry> f) {
        FunctionCounter.builder(name, retry, f).tag(MetricNames.TAG_NAME, policy).tag(MetricNames.TAG_KIND, kind)
                .description("Calls through the retry, by how they ended").register(registry);
    }

    private static void bindHedge(MeterRegistry registry, Hedge hedge) {
        FunctionCounter.builder(MetricNames.name("hedge", "calls"), hedge, h -> h.metrics().calls())
                .tag(MetricNames.TAG_NAME, hedge.name()).description("Calls through the hedge").register(registry);
        FunctionCounter.builder(MetricNames.name("hedge", "hedges"), hedge, h -> h.metrics().hedges())
                .tag(MetricNames.TAG_NAME, hedge.name()).description("Extra attempts started").register(registry);
        FunctionCounter.builder(MetricNames.name("hedge", "wins"), hedge, h -> h.metrics().hedgeWins())
                .tag(MetricNames.TAG_NAME, hedge.name()).description("Calls answered by an extra attempt")
                .register(registry);
        FunctionCounter.builder(MetricNames.name("hedge", "budget.refusals"), hedge, h -> h.metrics().budgetRefusals())
                .tag(MetricNames.TAG_NAME, hedge.name()).description("Hedges refused by the retry budget")
                .register(registry);
    }
}

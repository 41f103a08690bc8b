package dev.levee.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RetryMetricsBinderTest {
    private final ManualTicker ticker = new ManualTicker();

    @Test
    void everyKindOfCallIsCounted() throws IOException {
        RetryBudget budget = RetryBudget.of("b", RetryBudgetConfig.builder().ticker(ticker).retryRatio(0).minRetriesPerSecond(0.3).build());
        Retry retry = Retry.of("payments", RetryConfig.builder().ticker(ticker).sleeper(ticker).budget(budget).retryAll()
                .backoff(Backoff.constant(Duration.ofMillis(1))).jitter(Jitter.none()).build());
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new RetryMetricsBinder(retry).bindTo(registry);

        retry.execute(() -> "ok"); // successful without retry
        AtomicInteger n = new AtomicInteger();
        retry.execute(() -> { // successful with retry (1 retry)
            if (n.incrementAndGet() == 1) {
                throw new IOException("once");
            }
            return "ok";
        });
        assertThatThrownBy(() -> retry.execute(() -> { // failed with retries (2 retries: budget now spent)
            throw new IOException("always");
        })).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> retry.execute(() -> { // failed without retry: the budget refuses
            throw new IOException("always");
        })).isInstanceOf(IOException.class);

        assertThat(kind(registry, "successful_without_retry")).isEqualTo(1);
        assertThat(kind(registry, "successful_with_retry")).isEqualTo(1);
        assertThat(kind(registry, "failed_with_retry")).isEqualTo(1);
        assertThat(kind(registry, "failed_without_retry")).isEqualTo(1);
        assertThat(registry.get("levee.retry.retries").tag("name", "payments").functionCounter().count()).isEqualTo(3);
        // Issue 11: one rejection meter shape, levee.<pattern>.rejected{name, kind}.
        assertThat(registry.get("levee.retry.rejected").tag("name", "payments").tag("kind", "retry_budget")
                .functionCounter().count()).isEqualTo(1);
        assertThat(registry.get("levee.retry.budget.available").tag("name", "payments").gauge().value()).isZero();
    }

    private static double kind(SimpleMeterRegistry registry, String kind) {
        return registry.get("levee.retry.calls").tag("name", "payments").tag("kind", kind).functionCounter().count();
    }

    @Test
    void hedgesAreCounted() {
        ManualScheduler scheduler = new ManualScheduler(ticker);
        Hedge hedge = Hedge.of("search", HedgeConfig.builder().ticker(ticker).scheduler(scheduler).asyncExecutor(Runnable::run)
                .delay(Duration.ofMillis(5)).build());
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new HedgeMetricsBinder(hedge).bindTo(registry);
        CompletableFuture<String> slow = new CompletableFuture<>();
        AtomicInteger attempt = new AtomicInteger();
        hedge.executeAsync(() -> attempt.incrementAndGet() == 1 ? slow : CompletableFuture.completedFuture("fast"));
        scheduler.advance(Duration.ofMillis(5));
        assertThat(registry.get("levee.hedge.calls").tag("name", "search").functionCounter().count()).isEqualTo(1);
        assertThat(registry.get("levee.hedge.hedges").functionCounter().count()).isEqualTo(1);
        assertThat(registry.get("levee.hedge.wins").functionCounter().count()).isEqualTo(1);
        assertThat(registry.get("levee.hedge.rejected").tag("name", "search").tag("kind", "retry_budget")
                .functionCounter().count()).isZero();
        assertThat(slow).isCancelled();
    }

    /** Issue 11: binders take (X...) and (Collection<X>), and every meter uses core's vocabulary. */
    @Test
    void bindersFollowTheHouseShapeAndVocabulary() {
        Retry a = Retry.ofDefaults("a");
        Retry b = Retry.of("b", RetryConfig.builder().defaultBudget().build());
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new RetryMetricsBinder(List.of(a, b)).bindTo(registry);
        new HedgeMetricsBinder(List.of(Hedge.ofDefaults("h"))).bindTo(registry);
        java.util.Set<String> tagKeys = java.util.Set.of(dev.levee.core.internal.MetricNames.TAG_NAME, dev.levee.core.internal.MetricNames.TAG_KIND);
        registry.getMeters().forEach(meter -> {
            assertThat(meter.getId().getName()).matches("levee\\.(retry|hedge)\\.[a-z.]+");
            meter.getId().getTags().forEach(tag -> assertThat(tagKeys).contains(tag.getKey()));
        });
        // two kinds per retry and per hedge: the budget's refusals and keyed calls without a key (issue 23)
        assertThat(registry.find("levee.retry.rejected").meters()).hasSize(4);
        assertThat(registry.find("levee.retry.rejected").tag("kind", "no_idempotency_key").meters()).hasSize(2);
        assertThat(registry.find("levee.hedge.rejected").meters()).hasSize(2);
        assertThat(registry.find("levee.hedge.rejected").tag("kind", "no_idempotency_key").meters()).hasSize(1);
    }
}

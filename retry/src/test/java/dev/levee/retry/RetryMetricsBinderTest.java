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
        RetryBudget budget = RetryBudget.of(RetryBudgetConfig.builder("b").ticker(ticker).retryRatio(0).minRetriesPerSecond(0.3).build());
        Retry retry = Retry.of(RetryConfig.builder("payments").ticker(ticker).sleeper(ticker).budget(budget).retryAll()
                .backoff(Backoff.constant(Duration.ofMillis(1))).jitter(Jitter.none()).build());
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RetryMetricsBinder.of(retry).bindTo(registry);

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
        assertThat(registry.get("levee.retry.budget.refusals").tag("name", "payments").functionCounter().count()).isEqualTo(1);
        assertThat(registry.get("levee.retry.budget.available").tag("kind", "b").gauge().value()).isZero();
    }

    private static double kind(SimpleMeterRegistry registry, String kind) {
        return registry.get("levee.retry.calls").tag("name", "payments").tag("kind", kind).functionCounter().count();
    }

    @Test
    void hedgesAreCounted() {
        ManualScheduler scheduler = new ManualScheduler(ticker);
        Hedge hedge = Hedge.of(HedgeConfig.builder("search").ticker(ticker).scheduler(scheduler).asyncExecutor(Runnable::run)
                .delay(Duration.ofMillis(5)).build());
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RetryMetricsBinder.of(List.of(), List.of(hedge)).bindTo(registry);
        CompletableFuture<String> slow = new CompletableFuture<>();
        AtomicInteger attempt = new AtomicInteger();
        hedge.executeAsync(() -> attempt.incrementAndGet() == 1 ? slow : CompletableFuture.completedFuture("fast"));
        scheduler.advance(Duration.ofMillis(5));
        assertThat(registry.get("levee.hedge.calls").functionCounter().count()).isEqualTo(1);
        assertThat(registry.get("levee.hedge.hedges").functionCounter().count()).isEqualTo(1);
        assertThat(registry.get("levee.hedge.wins").functionCounter().count()).isEqualTo(1);
        assertThat(registry.get("levee.hedge.budget.refusals").functionCounter().count()).isZero();
        assertThat(slow).isCancelled();
    }
}

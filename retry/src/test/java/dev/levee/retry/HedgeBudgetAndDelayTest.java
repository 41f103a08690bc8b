package dev.levee.retry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** A hedged call's deposit into its budget, and the percentile delay when every call answered at once. */
class HedgeBudgetAndDelayTest {
    private final ManualTicker ticker = new ManualTicker();
    private final ManualScheduler scheduler = new ManualScheduler(ticker);

    private HedgeConfig.Builder config() {
        return HedgeConfig.builder().ticker(ticker).scheduler(scheduler).asyncExecutor(Runnable::run)
                .delay(Duration.ofMillis(50));
    }

    @Test
    void aCallDepositsOnceUnlessALayerOutsideItAlreadyDidForThisBudget() {
        RetryBudget budget = RetryBudget.of("b", RetryBudgetConfig.builder().ticker(ticker)
                .maxConcurrentRetries(1, 5).build());
        Hedge hedge = Hedge.of("h", config().budget(budget).build());

        CompletableFuture<String> first = new CompletableFuture<>();
        CompletableFuture<String> result = hedge.executeAsync(() -> first).toCompletableFuture();
        assertThat(budget.deposits()).isEqualTo(1);
        assertThat(budget.requestsInFlight()).isEqualTo(1);
        first.complete("ok");
        assertThat(result).isCompletedWithValue("ok");
        assertThat(budget.requestsInFlight()).isZero();

        int[] outer = budget.enterNested(); // e.g. a retry around the hedge, same budget
        hedge.executeAsync(() -> CompletableFuture.completedFuture("inner"));
        assertThat(budget.deposits()).as("the outer layer's deposit only").isEqualTo(2);
        budget.exitNested(outer);
    }

    /** Every observed call answered in 0 ns: the percentile is 0, and a delay of 0 is used as is. */
    @Test
    void aPercentileOfZeroIsUsedNotTheFallbackDelay() {
        Hedge hedge = Hedge.of("h", config().percentileDelay(0.5, Duration.ofMillis(500)).build());
        assertThat(hedge.currentDelayNanos()).isEqualTo(Duration.ofMillis(500).toNanos());
        for (int i = 0; i < HedgeConfig.MIN_SAMPLES; i++) {
            hedge.executeAsync(() -> CompletableFuture.completedFuture("at once"));
        }
        assertThat(hedge.currentDelayNanos()).isZero();
    }
}

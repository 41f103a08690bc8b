package dev.levee.retry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The events of an asynchronous retry whose first attempt succeeds. */
class AsyncRetryEventsTest {
    private final ManualTicker ticker = new ManualTicker(5_000);
    private final ManualScheduler scheduler = new ManualScheduler(ticker);

    @Test
    void aFirstTrySuccessPublishesSucceededWithOneAttempt() {
        Retry retry = Retry.of("a", RetryConfig.builder().ticker(ticker).sleeper(ticker).scheduler(scheduler)
                .executor(Runnable::run).retryAll().backoff(Backoff.constant(Duration.ofMillis(100)))
                .jitter(Jitter.none()).build());
        List<RetryEvent> events = new ArrayList<>();
        retry.onEvent(events::add);

        CompletableFuture<String> result = retry.executeAsync(() -> CompletableFuture.completedFuture("ok"))
                .toCompletableFuture();

        assertThat(result).isCompletedWithValue("ok");
        assertThat(events).containsExactly(new RetryEvent.Succeeded("a", 5_000, 1));
        assertThat(retry.metrics().successfulWithoutRetry()).isEqualTo(1);
    }

    @Test
    void anAsynchronousCallDepositsOnceUnlessALayerOutsideItAlreadyDid() {
        RetryBudget budget = RetryBudget.of("b", RetryBudgetConfig.builder().ticker(ticker).build());
        Retry retry = Retry.of("a", RetryConfig.builder().ticker(ticker).sleeper(ticker).scheduler(scheduler)
                .executor(Runnable::run).retryAll().budget(budget).build());
        retry.executeAsync(() -> CompletableFuture.completedFuture("ok"));
        assertThat(budget.deposits()).isEqualTo(1);

        int[] outer = budget.enterNested(); // e.g. a hedge around the retry, same budget
        retry.executeAsync(() -> CompletableFuture.completedFuture("inner"));
        assertThat(budget.deposits()).as("the outer layer's deposit only").isEqualTo(2);
        budget.exitNested(outer);
    }

    @Test
    void anAsynchronousGiveUpAndACancellationAreRecorded() {
        Retry retry = Retry.of("g", RetryConfig.builder().ticker(ticker).sleeper(ticker).scheduler(scheduler)
                .executor(Runnable::run).retryAll().backoff(Backoff.constant(Duration.ofMillis(100)))
                .jitter(Jitter.none()).maxAttempts(2).build());
        List<RetryEvent> events = new ArrayList<>();
        retry.onEvent(events::add);
        java.io.IOException boom = new java.io.IOException("boom");

        CompletableFuture<String> exhausted = retry.<String>executeAsync(() -> CompletableFuture.failedFuture(boom))
                .toCompletableFuture();
        scheduler.advance(Duration.ofMillis(100));
        assertThat(exhausted).isCompletedExceptionally();
        assertThat(events.get(events.size() - 1)).isEqualTo(
                new RetryEvent.GaveUp("g", 5_000 + 100_000_000, 2, GiveUpReason.MAX_ATTEMPTS, boom, null));
        assertThat(retry.metrics().failedWithRetry()).isEqualTo(1);

        CompletableFuture<String> cancelled = retry.<String>executeAsync(() -> CompletableFuture.failedFuture(boom))
                .toCompletableFuture();
        cancelled.cancel(true); // during its backoff: one attempt ran
        RetryEvent last = events.get(events.size() - 1);
        assertThat(last).isInstanceOf(RetryEvent.GaveUp.class);
        assertThat(((RetryEvent.GaveUp) last).reason()).isEqualTo(GiveUpReason.CANCELLED);
        assertThat(scheduler.pending()).as("the backoff is cancelled").isZero();
    }
}

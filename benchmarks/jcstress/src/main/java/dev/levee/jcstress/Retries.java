package dev.levee.jcstress;

import dev.levee.core.ManualTicker;
import dev.levee.retry.Backoff;
import dev.levee.retry.Retry;
import dev.levee.retry.RetryBudget;
import dev.levee.retry.RetryBudgetConfig;
import dev.levee.retry.RetryConfig;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * An asynchronous retry under test: 3 attempts, a 1 ms constant backoff on a {@link OneSlotScheduler}
 * (the backoff runs only when a test runs it), attempts started on the calling thread, every failure
 * retryable, and a budget that counts retries in flight (so a retry that never ends shows up). Each
 * attempt returns a future the test completes; {@link #attempts} counts the attempts started.
 */
final class Retries {
    final ManualTicker ticker = new ManualTicker(0L);
    final OneSlotScheduler scheduler = new OneSlotScheduler();
    final RetryBudget budget = RetryBudget.of("jcstress", RetryBudgetConfig.builder()
            .maxConcurrentRetries(1.0, 5)
            .ticker(ticker)
            .build());
    final Retry retry = Retry.of("jcstress", RetryConfig.builder()
            .maxAttempts(3)
            .backoff(Backoff.constant(Duration.ofMillis(1)))
            .retryIf(e -> true)
            .budget(budget)
            .ticker(ticker)
            .scheduler(scheduler)
            .executor(Runnable::run)
            .build());
    final AtomicInteger attempts = new AtomicInteger();
    final CompletableFuture<String> first = new CompletableFuture<>();
    /** The future of the latest attempt after the first, if one started. */
    final AtomicReference<CompletableFuture<String>> later = new AtomicReference<>();
    final CompletableFuture<String> result;

    Retries() {
        CompletionStage<String> stage = retry.executeAsync(() -> {
            if (attempts.incrementAndGet() == 1) {
                return first;
            }
            CompletableFuture<String> f = new CompletableFuture<>();
            later.set(f);
            return f;
        });
        result = stage.toCompletableFuture();
    }

    /** 1 if the result holds a value, 2 if cancelled, 3 if failed otherwise, 0 if not done. */
    int resultState() {
        if (!result.isDone()) {
            return 0;
        }
        if (result.isCancelled()) {
            return 2;
        }
        return result.isCompletedExceptionally() ? 3 : 1;
    }
}

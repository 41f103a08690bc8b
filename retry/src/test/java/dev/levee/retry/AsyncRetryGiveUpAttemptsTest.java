package dev.levee.retry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import org.junit.jupiter.api.Test;

/**
 * The attempt count an asynchronous give-up reports (in the {@code GaveUp} event and the with/without
 * retry metrics) is the number of attempts that started: a cancellation during a backoff and an
 * executor that refuses the next attempt do not count the attempt that never ran.
 */
class AsyncRetryGiveUpAttemptsTest {
    private static final long BACKOFF = 100_000_000L;
    private final ManualTicker ticker = new ManualTicker(5_000);
    private final ManualScheduler scheduler = new ManualScheduler(ticker);
    private final IOException boom = new IOException("boom");
    private final List<RetryEvent> events = new ArrayList<>();

    private Retry retry(java.util.concurrent.Executor executor) {
        Retry retry = Retry.of("a", RetryConfig.builder().ticker(ticker).sleeper(ticker).scheduler(scheduler)
                .executor(executor).retryAll().backoff(Backoff.constant(Duration.ofMillis(100)))
                .jitter(Jitter.none()).maxAttempts(3).build());
        retry.onEvent(events::add);
        return retry;
    }

    private RetryEvent.GaveUp lastGiveUp() {
        RetryEvent last = events.get(events.size() - 1);
        assertThat(last).isInstanceOf(RetryEvent.GaveUp.class);
        return (RetryEvent.GaveUp) last;
    }

    @Test
    void aCancellationDuringTheFirstBackoffReportsTheOneAttemptThatRan() {
        Retry retry = retry(Runnable::run);
        CompletableFuture<String> call = retry.<String>executeAsync(() -> CompletableFuture.failedFuture(boom))
                .toCompletableFuture();
        call.cancel(true);
        RetryEvent.GaveUp gaveUp = lastGiveUp();
        assertThat(gaveUp.reason()).isEqualTo(GiveUpReason.CANCELLED);
        assertThat(gaveUp.attempts()).isEqualTo(1);
        assertThat(retry.metrics().failedWithoutRetry()).isEqualTo(1);
        assertThat(retry.metrics().failedWithRetry()).isZero();
    }

    @Test
    void aCancellationDuringTheSecondBackoffReportsTwoAttempts() {
        Retry retry = retry(Runnable::run);
        int[] runs = new int[1];
        CompletableFuture<String> call = retry.<String>executeAsync(() -> {
            runs[0]++;
            return CompletableFuture.failedFuture(boom);
        }).toCompletableFuture();
        scheduler.advance(Duration.ofMillis(100));
        assertThat(runs[0]).isEqualTo(2);
        call.cancel(true);
        assertThat(lastGiveUp().attempts()).isEqualTo(2);
        assertThat(retry.metrics().failedWithRetry()).isEqualTo(1);
    }

    @Test
    void aCancellationWhileTheSecondAttemptRunsReportsTwoAttempts() {
        Retry retry = retry(Runnable::run);
        CompletableFuture<String> second = new CompletableFuture<>();
        int[] runs = new int[1];
        CompletableFuture<String> call = retry.<String>executeAsync(
                () -> ++runs[0] == 1 ? CompletableFuture.failedFuture(boom) : second).toCompletableFuture();
        scheduler.advance(Duration.ofMillis(100));
        call.cancel(true);
        assertThat(lastGiveUp().attempts()).isEqualTo(2);
        assertThat(second).as("the attempt in flight is cancelled").isCancelled();
    }

    @Test
    void anExecutorThatRefusesTheNextAttemptGivesUpAfterTheAttemptsThatRan() {
        RejectedExecutionException refused = new RejectedExecutionException("shut down");
        Retry retry = retry(task -> {
            throw refused;
        });
        CompletableFuture<String> call = retry.<String>executeAsync(() -> CompletableFuture.failedFuture(boom))
                .toCompletableFuture();
        scheduler.advance(Duration.ofMillis(100));
        assertThat(call).isCompletedExceptionally();
        try {
            call.get();
        } catch (ExecutionException expected) {
            assertThat(expected.getCause()).isSameAs(boom);
            assertThat(boom.getSuppressed()).containsExactly(refused);
        } catch (InterruptedException | CancellationException unexpected) {
            throw new AssertionError(unexpected);
        }
        assertThat(lastGiveUp()).isEqualTo(new RetryEvent.GaveUp("a", 5_000 + BACKOFF, 1,
                GiveUpReason.NOT_RETRYABLE, boom, null));
        assertThat(retry.metrics().failedWithoutRetry()).isEqualTo(1);
        assertThat(retry.metrics().failedWithRetry()).isZero();
    }
}

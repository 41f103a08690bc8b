package dev.levee.retry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ContextScope;
import dev.levee.core.Deadline;
import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import dev.levee.core.RateLimitedException;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

@SuppressWarnings("try") // deadline scopes opened only to make the deadline current
class AsyncRetryTest {
    private static final long MS = 1_000_000L;
    private final ManualTicker ticker = new ManualTicker();
    private final ManualScheduler scheduler = new ManualScheduler(ticker);

    private RetryConfig.Builder config() {
        // A direct executor: attempts run on the thread advancing the manual scheduler, deterministically.
        return RetryConfig.builder().ticker(ticker).sleeper(ticker).scheduler(scheduler).executor(Runnable::run).retryAll()
                .backoff(Backoff.constant(Duration.ofMillis(100))).jitter(Jitter.none());
    }

    /** Fails the first {@code failures} attempts with fresh exceptions. */
    private static final class FlakyAsync implements Supplier<CompletionStage<String>> {
        final List<IOException> thrown = new ArrayList<>();
        final List<CompletableFuture<String>> stages = new ArrayList<>();
        final int failures;

        FlakyAsync(int failures) {
            this.failures = failures;
        }

        @Override
        public CompletionStage<String> get() {
            CompletableFuture<String> f;
            if (stages.size() < failures) {
                IOException e = new IOException("boom " + stages.size());
                thrown.add(e);
                f = CompletableFuture.failedFuture(e);
            } else {
                f = CompletableFuture.completedFuture("ok");
            }
            stages.add(f);
            return f;
        }
    }

    private static Throwable failureOf(CompletionStage<?> stage) {
        AtomicReference<Throwable> seen = new AtomicReference<>();
        stage.whenComplete((v, t) -> seen.set(t));
        return seen.get();
    }

    @Test
    void aFirstSuccessCompletesAtOnce() {
        Retry retry = Retry.of("async", config().build());
        CompletionStage<String> stage = retry.executeAsync(new FlakyAsync(0));
        assertThat(stage.toCompletableFuture().getNow(null)).isEqualTo("ok");
        assertThat(retry.metrics().successfulWithoutRetry()).isEqualTo(1);
    }

    @Test
    void backoffsWaitOnTheSchedulerWithoutBlocking() {
        Retry retry = Retry.of("async", config().build());
        FlakyAsync call = new FlakyAsync(2);
        CompletableFuture<String> result = retry.executeAsync(call).toCompletableFuture();
        assertThat(result).isNotDone();
        assertThat(call.stages).hasSize(1);
        scheduler.advance(Duration.ofMillis(99));
        assertThat(call.stages).hasSize(1);
        scheduler.advance(Duration.ofMillis(1));
        assertThat(call.stages).hasSize(2);
        scheduler.advance(Duration.ofMillis(100));
        assertThat(result.getNow(null)).isEqualTo("ok");
        assertThat(retry.metrics()).isEqualTo(new RetryMetrics(0, 1, 0, 0, 2, 0, 0));
    }

    @Test
    void exhaustionFailsWithTheLastFailureUnchanged() {
        Retry retry = Retry.of("async", config().build());
        FlakyAsync call = new FlakyAsync(10);
        CompletionStage<String> stage = retry.executeAsync(call);
        scheduler.advance(Duration.ofSeconds(1));
        assertThat(failureOf(stage)).isSameAs(call.thrown.get(2));
        assertThat(call.stages).hasSize(3);
    }

    @Test
    void aCallThatThrowsInsteadOfReturningAStageIsRetried() {
        Retry retry = Retry.of("async", config().build());
        AtomicInteger calls = new AtomicInteger();
        CompletionStage<String> stage = retry.executeAsync(() -> {
            if (calls.incrementAndGet() == 1) {
                throw new IllegalStateException("sync throw");
            }
            return CompletableFuture.completedFuture("ok");
        });
        scheduler.advance(Duration.ofMillis(100));
        assertThat(stage.toCompletableFuture().getNow(null)).isEqualTo("ok");
    }

    @Test
    void cancellingTheResultStopsFurtherAttempts() {
        RetryBudget budget = RetryBudget.of("b", RetryBudgetConfig.builder().ticker(ticker).maxConcurrentRetries(1, 5).build());
        Retry retry = Retry.of("async", config().budget(budget).build());
        FlakyAsync call = new FlakyAsync(10);
        CompletableFuture<String> result = retry.executeAsync(call).toCompletableFuture();
        assertThat(scheduler.pending()).isEqualTo(1);
        result.cancel(false);
        assertThat(scheduler.pending()).as("the pending backoff is cancelled").isZero();
        assertThat(budget.retriesInFlight()).as("the withdrawn retry is returned").isZero();
        assertThat(budget.requestsInFlight()).isZero();
        scheduler.advance(Duration.ofSeconds(10));
        assertThat(call.stages).hasSize(1);
    }

    @Test
    void cancellingTheResultCancelsTheAttemptInFlight() {
        Retry retry = Retry.of("async", config().build());
        List<CompletableFuture<String>> attempts = new ArrayList<>();
        CompletableFuture<String> result = retry.executeAsync(() -> {
            CompletableFuture<String> f = new CompletableFuture<>();
            attempts.add(f);
            return f;
        }).toCompletableFuture();
        result.cancel(true);
        assertThat(attempts).hasSize(1);
        assertThat(attempts.get(0)).isCancelled();
        scheduler.advance(Duration.ofSeconds(10));
        assertThat(attempts).hasSize(1);
    }

    @SuppressWarnings("try") // the scope is held only for its close()
    @Test
    void theCallersDeadlineIsRespectedAndRestoredAroundLaterAttempts() {
        Retry retry = Retry.of("async", config().maxAttempts(10).build());
        List<Deadline> seenDeadlines = new ArrayList<>();
        FlakyAsync flaky = new FlakyAsync(100);
        CompletionStage<String> stage;
        Deadline deadline = Deadline.after(Duration.ofMillis(250), ticker);
        try (ContextScope scope = deadline.attach()) {
            stage = retry.executeAsync(() -> {
                seenDeadlines.add(Deadline.currentOrNull());
                return flaky.get();
            });
        }
        assertThat(Deadline.currentOrNull()).isNull();
        scheduler.advance(Duration.ofSeconds(5));
        // Attempts at 0, 100, 200 ms; a 100 ms backoff from 200 would end at the deadline: not started.
        assertThat(flaky.stages).hasSize(3);
        assertThat(seenDeadlines).containsOnly(deadline);
        assertThat(failureOf(stage)).isSameAs(flaky.thrown.get(2));
    }

    @Test
    void asyncHonoursRetryAfterHints() {
        Retry retry = Retry.of("async", config().build());
        AtomicInteger calls = new AtomicInteger();
        CompletableFuture<String> result = retry.executeAsync(() -> calls.incrementAndGet() == 1
                ? CompletableFuture.<String>failedFuture(new RateLimitedException("l", "no", 300 * MS))
                : CompletableFuture.completedFuture("ok")).toCompletableFuture();
        scheduler.advance(Duration.ofMillis(299));
        assertThat(result).isNotDone();
        scheduler.advance(Duration.ofMillis(1));
        assertThat(result.getNow(null)).isEqualTo("ok");
    }

    @Test
    void anErrorIsNotRetriedAsynchronously() {
        Retry retry = Retry.of("async", config().build());
        AssertionError error = new AssertionError("bug");
        AtomicInteger calls = new AtomicInteger();
        CompletionStage<String> stage = retry.executeAsync(() -> {
            calls.incrementAndGet();
            return CompletableFuture.failedFuture(error);
        });
        assertThat(failureOf(stage)).isSameAs(error);
        assertThat(calls).hasValue(1);
    }

    @Test
    void failedResultsAreRetriedAsynchronously() {
        Retry retry = Retry.of("async", config().retryOnResult("busy"::equals).build());
        AtomicInteger calls = new AtomicInteger();
        CompletableFuture<String> result = retry.executeAsync(
                () -> CompletableFuture.completedFuture(calls.incrementAndGet() < 3 ? "busy" : "done")).toCompletableFuture();
        scheduler.advance(Duration.ofMillis(200));
        assertThat(result.getNow(null)).isEqualTo("done");
    }

    /** A scheduler whose tasks the test runs by hand; a handle cancels nothing, as for a task already started. */
    private static final class StartedScheduler implements dev.levee.core.Scheduler {
        final List<Runnable> tasks = new ArrayList<>();

        @Override
        public Cancellable schedule(Runnable task, long delayNanos) {
            tasks.add(task);
            return () -> false;
        }
    }

    @Test
    void aCancelRacingTheBackoffTaskStillReturnsTheConcurrentRetrySlot() {
        RetryBudget budget = RetryBudget.of("b", RetryBudgetConfig.builder().ticker(ticker).maxConcurrentRetries(1, 5).build());
        StartedScheduler started = new StartedScheduler();
        Retry retry = Retry.of("async", config().scheduler(started).budget(budget).build());
        FlakyAsync call = new FlakyAsync(10);
        CompletableFuture<String> result = retry.executeAsync(call).toCompletableFuture();
        assertThat(budget.retriesInFlight()).isEqualTo(1);
        // The backoff task has started on the scheduler thread (cancel() fails), then the caller cancels.
        result.cancel(false);
        started.tasks.get(0).run();
        assertThat(call.stages).as("no attempt after the cancel").hasSize(1);
        assertThat(budget.retriesInFlight()).as("the slot is returned by the task that found the call cancelled").isZero();
        assertThat(budget.tryRetry()).as("later retries are not refused forever").isTrue();
    }

    @Test
    void aZeroDelayBackoffThatRunsBeforeItsHandleIsStoredCannotHideTheNextBackoff() {
        RetryBudget budget = RetryBudget.of("b", RetryBudgetConfig.builder().ticker(ticker).maxConcurrentRetries(1, 5).build());
        // The first backoff's task runs inline, before schedule() returns (a zero delay on a fast
        // scheduler thread); later backoffs wait on the manual scheduler.
        AtomicInteger schedules = new AtomicInteger();
        dev.levee.core.Scheduler racing = (task, delayNanos) -> {
            if (schedules.incrementAndGet() == 1) {
                task.run();
                return () -> false;
            }
            return scheduler.schedule(task, delayNanos);
        };
        Retry retry = Retry.of("async", config().scheduler(racing).budget(budget).maxAttempts(5).build());
        FlakyAsync call = new FlakyAsync(10);
        CompletableFuture<String> result = retry.executeAsync(call).toCompletableFuture();
        assertThat(call.stages).hasSize(2);
        assertThat(scheduler.pending()).isEqualTo(1);
        result.cancel(false);
        assertThat(scheduler.pending()).as("the newer backoff is cancelled").isZero();
        assertThat(budget.retriesInFlight()).isZero();
        scheduler.advance(Duration.ofSeconds(10));
        assertThat(call.stages).hasSize(2);
    }

    @Test
    void aCancelWhileAnAttemptIsStartingCancelsThatAttempt() {
        Retry retry = Retry.of("async", config().build());
        List<CompletableFuture<String>> attempts = new ArrayList<>();
        AtomicReference<CompletableFuture<String>> result = new AtomicReference<>();
        result.set(retry.executeAsync(() -> {
            CompletableFuture<String> f = new CompletableFuture<>();
            attempts.add(f);
            if (attempts.size() == 1) {
                f.completeExceptionally(new IOException("boom"));
            } else {
                result.get().cancel(true); // lands after launch's isDone check, before the stage is recorded
            }
            return f;
        }).toCompletableFuture());
        scheduler.advance(Duration.ofMillis(100));
        assertThat(attempts).hasSize(2);
        assertThat(result.get()).isCancelled();
        assertThat(attempts.get(1)).as("the attempt started during the cancel is cancelled").isCancelled();
    }

    /**
     * Bug 4 (issue 12): an attempt after a backoff must never run on the timer thread. The scheduler's
     * task only hands the attempt to the configured executor.
     */
    @Test
    void anAttemptAfterABackoffRunsOnTheExecutorNeverOnTheSchedulersThread() {
        List<Runnable> handedOver = new ArrayList<>();
        Retry retry = Retry.of("async", config().executor(handedOver::add).build());
        FlakyAsync call = new FlakyAsync(1);
        CompletableFuture<String> result = retry.executeAsync(call).toCompletableFuture();
        assertThat(call.stages).hasSize(1);
        assertThat(scheduler.advance(Duration.ofMillis(100))).as("the backoff's task ran").isEqualTo(1);
        assertThat(call.stages).as("but the timer did not run the attempt").hasSize(1);
        assertThat(handedOver).hasSize(1);
        handedOver.get(0).run();
        assertThat(call.stages).hasSize(2);
        assertThat(result.getNow(null)).isEqualTo("ok");
    }

    /** By default the attempt runs on the first stage's default async executor, not on the timer's thread. */
    @Test
    void byDefaultTheAttemptRunsOnTheStagesDefaultAsyncExecutor() throws Exception {
        List<Runnable> handedOver = new ArrayList<>();
        Retry retry = Retry.of("async", RetryConfig.builder().ticker(ticker).scheduler(scheduler).retryAll()
                .backoff(Backoff.constant(Duration.ofMillis(100))).jitter(Jitter.none()).build());
        AtomicInteger calls = new AtomicInteger();
        AtomicReference<Thread> secondAttemptThread = new AtomicReference<>();
        CompletableFuture<String> result = retry.executeAsync(() -> {
            if (calls.incrementAndGet() == 1) {
                return new RecordingFuture<String>(handedOver).completeAsFailure(new IOException("boom"));
            }
            secondAttemptThread.set(Thread.currentThread());
            return CompletableFuture.completedFuture("ok");
        }).toCompletableFuture();
        scheduler.advance(Duration.ofMillis(100)); // the test thread plays the timer thread
        assertThat(calls).as("the timer thread did not run the attempt").hasValue(1);
        assertThat(handedOver).as("it went to the stage's default executor").hasSize(1);
        handedOver.get(0).run();
        assertThat(calls).hasValue(2);
        assertThat(result.getNow(null)).isEqualTo("ok");
    }

    /** A stage whose default async executor records tasks instead of running them. */
    private static final class RecordingFuture<V> extends CompletableFuture<V> {
        private final List<Runnable> tasks;

        RecordingFuture(List<Runnable> tasks) {
            this.tasks = tasks;
        }

        @Override
        public java.util.concurrent.Executor defaultExecutor() {
            return tasks::add;
        }

        @Override
        public <U> CompletableFuture<U> newIncompleteFuture() {
            return new RecordingFuture<>(tasks);
        }

        RecordingFuture<V> completeAsFailure(Throwable failure) {
            completeExceptionally(failure);
            return this;
        }
    }

    /** If the executor refuses the attempt, the call gives up with the last failure, the refusal suppressed. */
    @Test
    void anExecutorThatRefusesEndsTheCallWithTheLastFailure() {
        java.util.concurrent.RejectedExecutionException refusal = new java.util.concurrent.RejectedExecutionException("full");
        RetryBudget budget = RetryBudget.of("b", RetryBudgetConfig.builder().ticker(ticker).maxConcurrentRetries(1, 5).build());
        Retry retry = Retry.of("async", config().executor(task -> {
            throw refusal;
        }).budget(budget).build());
        FlakyAsync call = new FlakyAsync(1);
        CompletableFuture<String> result = retry.executeAsync(call).toCompletableFuture();
        scheduler.advance(Duration.ofMillis(100));
        assertThat(call.stages).hasSize(1);
        Throwable failure = failureOf(result);
        assertThat(failure).isSameAs(call.thrown.get(0));
        assertThat(failure.getSuppressed()).containsExactly(refusal);
        assertThat(retry.metrics().failedWithRetry() + retry.metrics().failedWithoutRetry()).isEqualTo(1);
        assertThat(budget.retriesInFlight()).as("the withdrawn retry was returned").isZero();
        assertThat(budget.requestsInFlight()).isZero();
    }
}

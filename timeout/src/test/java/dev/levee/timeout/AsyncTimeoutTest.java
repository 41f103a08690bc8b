package dev.levee.timeout;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ContextScope;
import dev.levee.core.Deadline;
import dev.levee.core.DeadlineExceededException;
import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Asynchronous calls on the manual scheduler. */
@SuppressWarnings("try")
class AsyncTimeoutTest {
    private static final long MS = 1_000_000L;
    /**
     * The timer wheel's tick: an async deadline fires in the first tick at or after it, never before it
     * and at most one tick after it (on manual time the tick task runs every tick from the arming).
     */
    private static final long TICK = MS;

    private final ManualTicker ticker = new ManualTicker(42L);
    private final ManualScheduler scheduler = new ManualScheduler(ticker);

    private Timeout timeout(boolean interrupt) {
        return Timeout.of("async", TimeoutConfig.builder().timeout(Duration.ofMillis(100)).interruptOnTimeout(interrupt)
                .ticker(ticker).scheduler(scheduler).asyncExecutor(Runnable::run).build());
    }

    private static Throwable failureOf(CompletionStage<?> stage) {
        return stage.toCompletableFuture().handle((v, t) -> t).join();
    }

    @Test
    void completesExceptionallyAtTheDeadlineAndCancelsTheUnderlyingFuture() {
        Timeout timeout = timeout(true);
        CompletableFuture<String> underlying = new CompletableFuture<>();
        CompletionStage<String> result = timeout.executeAsync(() -> underlying);
        scheduler.advance(100 * MS - 1);
        assertThat(result.toCompletableFuture()).as("never before the deadline").isNotDone();
        scheduler.advance(1 + TICK);
        assertThat(failureOf(result)).isInstanceOf(DeadlineExceededException.class);
        assertThat(underlying).isCancelled();
        assertThat(timeout.timeoutCount()).isEqualTo(1);
    }

    /** An executor that rejects the deadline's hand-off: the deadline fires on the wheel's thread instead. */
    @Test
    void aRejectingExecutorStillTimesTheCallOut() {
        Timeout timeout = Timeout.of("async", TimeoutConfig.builder().timeout(Duration.ofMillis(100))
                .ticker(ticker).scheduler(scheduler).asyncExecutor(task -> {
                    throw new java.util.concurrent.RejectedExecutionException("shut down");
                }).build());
        CompletableFuture<String> underlying = new CompletableFuture<>();
        CompletionStage<String> result = timeout.executeAsync(() -> underlying);
        scheduler.advance(100 * MS + TICK);
        assertThat(failureOf(result)).isInstanceOf(DeadlineExceededException.class);
        assertThat(timeout.timeoutCount()).isEqualTo(1);
    }

    /** Cancelling reports what happened: true for a pending stage, false once it has an outcome. */
    @Test
    void cancellingTheStageReportsWhetherItCancelled() {
        Timeout timeout = timeout(true);
        CompletableFuture<String> done = new CompletableFuture<>();
        CompletableFuture<String> completed = timeout.executeAsync(() -> done).toCompletableFuture();
        done.complete("ok");
        assertThat(completed.cancel(true)).as("already completed").isFalse();
        assertThat(completed.join()).isEqualTo("ok");

        CompletableFuture<String> pending = new CompletableFuture<>();
        CompletableFuture<String> running = timeout.executeAsync(() -> pending).toCompletableFuture();
        assertThat(running.cancel(true)).isTrue();
        assertThat(pending).as("the underlying call is cancelled too").isCancelled();
        scheduler.advance(100 * MS + TICK);
        assertThat(timeout.timeoutCount()).as("the timer went with it").isZero();
    }

    @Test
    void timeSpentCreatingTheStageCountsAgainstTheDeadline() {
        Timeout timeout = timeout(true);
        CompletableFuture<String> underlying = new CompletableFuture<>();
        CompletionStage<String> result = timeout.executeAsync(() -> {
            ticker.advance(60 * MS); // e.g. a blocking DNS lookup before the request is sent
            return underlying;
        });
        scheduler.advance(40 * MS - 1);
        assertThat(result.toCompletableFuture()).isNotDone();
        scheduler.advance(1 + TICK);
        assertThat(result.toCompletableFuture()).isCompletedExceptionally();
        assertThat(failureOf(result)).isInstanceOf(DeadlineExceededException.class);
        assertThat(underlying).isCancelled();
    }

    @Test
    void manyPendingDeadlinesEachFireOnceNeverEarlyAndAtMostOneTickLate() {
        ManualTicker clock = new ManualTicker(0L);
        ManualScheduler timers = new ManualScheduler(clock);
        Timeout timeout = Timeout.of("many", TimeoutConfig.builder().timeout(Duration.ofMillis(100))
                .ticker(clock).scheduler(timers).asyncExecutor(Runnable::run).build());
        int calls = 1_000;
        long[] deadline = new long[calls];
        long[] firedAt = new long[calls];
        int[] fired = new int[calls];
        for (int i = 0; i < calls; i++) {
            long budget = 2 * MS + (i + 1) * 97_003L; // spread over ~97 ms, off the tick boundaries
            deadline[i] = clock.read() + budget;
            int call = i;
            try (ContextScope scope = Deadline.afterNanos(budget, clock).attach()) {
                timeout.executeAsync(() -> new CompletableFuture<String>()).whenComplete((v, f) -> {
                    fired[call]++;
                    firedAt[call] = clock.read();
                });
            }
            clock.advance(1_009L); // arm them at different moments too
        }
        timers.advance(200 * MS);
        for (int i = 0; i < calls; i++) {
            assertThat(fired[i]).as("call %d fired once", i).isEqualTo(1);
            assertThat(firedAt[i] - deadline[i]).as("call %d: never early, at most one tick late", i)
                    .isBetween(0L, TICK);
        }
        assertThat(timeout.timeoutCount()).isEqualTo(calls);
        assertThat(timers.pending()).as("the wheel stops once no timer is pending").isZero();
    }

    @Test
    void withoutInterruptOnTimeoutTheUnderlyingFutureIsLeftRunning() {
        Timeout timeout = timeout(false);
        CompletableFuture<String> underlying = new CompletableFuture<>();
        CompletionStage<String> result = timeout.executeAsync(() -> underlying);
        scheduler.advance(100 * MS + TICK);
        assertThat(failureOf(result)).isInstanceOf(DeadlineExceededException.class);
        assertThat(underlying).isNotDone();
    }

    @Test
    void anOutcomeBeforeTheDeadlinePassesThroughUnchangedAndDisarmsTheTimer() {
        Timeout timeout = timeout(true);
        CompletableFuture<Object> ok = new CompletableFuture<>();
        CompletionStage<Object> okResult = timeout.executeAsync(() -> ok);
        Object value = new Object();
        ok.complete(value);
        assertThat(okResult.toCompletableFuture().join()).isSameAs(value);

        IOException boom = new IOException("boom");
        CompletionStage<Object> failed = timeout.executeAsync(() -> CompletableFuture.failedFuture(boom));
        assertThat(failureOf(failed)).isSameAs(boom);

        scheduler.advance(TICK); // the wheel's next tick finds no timer left and stops
        assertThat(scheduler.pending()).isZero();
        scheduler.advance(1_000 * MS);
        assertThat(timeout.successCount()).isEqualTo(1);
        assertThat(timeout.failureCount()).isEqualTo(1);
        assertThat(timeout.timeoutCount()).isZero();
    }

    @Test
    void aLateOutcomeAfterTheDeadlineIsIgnored() {
        Timeout timeout = timeout(false);
        CompletableFuture<String> underlying = new CompletableFuture<>();
        CompletionStage<String> result = timeout.executeAsync(() -> underlying);
        scheduler.advance(100 * MS + TICK);
        underlying.complete("late");
        assertThat(failureOf(result)).isInstanceOf(DeadlineExceededException.class);
        assertThat(timeout.successCount()).isZero();
        assertThat(timeout.timeoutCount()).isEqualTo(1);
    }

    @Test
    void cancellingTheReturnedStageCancelsTheUnderlyingOneAndTheTimer() {
        Timeout timeout = timeout(true);
        CompletableFuture<String> underlying = new CompletableFuture<>();
        CompletionStage<String> result = timeout.executeAsync(() -> underlying);
        assertThat(result.toCompletableFuture().cancel(true)).isTrue();
        assertThat(underlying).isCancelled();
        scheduler.advance(TICK); // the wheel's next tick finds no timer left and stops
        assertThat(scheduler.pending()).isZero();
        assertThat(timeout.timeoutCount()).isZero();
    }

    @Test
    void theCallIsCreatedUnderTheCallDeadline() {
        Timeout timeout = timeout(true);
        AtomicLong seen = new AtomicLong();
        timeout.executeAsync(() -> {
            seen.set(Deadline.currentOrNull().remainingNanos());
            return CompletableFuture.completedFuture("x");
        });
        assertThat(seen.get()).isEqualTo(100 * MS);
        assertThat(Deadline.currentOrNull()).isNull();
    }

    @Test
    void failsBeforeStartingWithoutCallingTheSupplier() {
        Timeout timeout = timeout(true);
        boolean[] called = {false};
        CompletionStage<String> result;
        try (ContextScope scope = Deadline.afterNanos(MS / 2, ticker).attach()) {
            result = timeout.executeAsync(() -> {
                called[0] = true;
                return CompletableFuture.completedFuture("x");
            });
        }
        assertThat(failureOf(result)).isInstanceOf(DeadlineExceededException.class);
        assertThat(called[0]).isFalse();
        assertThat(timeout.rejectedCount()).isEqualTo(1);
    }

    @Test
    void aSupplierThatThrowsFailsTheStageAndNeverThrows() {
        Timeout timeout = timeout(true);
        IllegalStateException boom = new IllegalStateException();
        CompletionStage<String> result = timeout.executeAsync(() -> {
            throw boom;
        });
        assertThat(failureOf(result)).isSameAs(boom);
    }

    @Test
    void theEffectiveTimeoutOfAsyncCallsFollowsTheCurrentDeadline() {
        Timeout timeout = timeout(true);
        List<TimeoutEvent> events = new ArrayList<>();
        timeout.onEvent(events::add);
        CompletableFuture<String> underlying = new CompletableFuture<>();
        CompletionStage<String> result;
        try (ContextScope scope = Deadline.afterNanos(30 * MS, ticker).attach()) {
            result = timeout.executeAsync(() -> underlying);
        }
        scheduler.advance(30 * MS + TICK);
        assertThat(failureOf(result)).isInstanceOf(DeadlineExceededException.class);
        assertThat(events).singleElement().satisfies(e -> {
            assertThat(e).isInstanceOf(TimeoutEvent.TimedOut.class);
            assertThat(e.effectiveTimeoutNanos()).isEqualTo(30 * MS);
        });
        assertThat(timeout.lastEffectiveTimeoutNanos()).isEqualTo(30 * MS);
    }

    @Test
    void onTheSystemSchedulerTheStageFailsAtTheDeadline() {
        Timeout timeout = Timeout.of("async-real", Duration.ofMillis(20));
        CompletableFuture<String> never = new CompletableFuture<>();
        CompletionStage<String> result = timeout.executeAsync(() -> never);
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
                .until(() -> result.toCompletableFuture().isDone());
        assertThat(failureOf(result)).isInstanceOf(DeadlineExceededException.class);
        assertThat(never).isCancelled();
    }

    /** Issue 12, bug 4's principle: the timer's thread only hands the deadline off. */
    @Test
    void theDeadlineIsFiredByTheTimerButTheStageIsCompletedOnTheAsyncExecutor() {
        java.util.Queue<Runnable> handedOff = new java.util.ArrayDeque<>();
        Timeout timeout = Timeout.of("handoff", TimeoutConfig.builder().timeout(Duration.ofMillis(100))
                .ticker(ticker).scheduler(scheduler).asyncExecutor(handedOff::add).build());
        java.util.concurrent.atomic.AtomicReference<Thread> dependentRanOn = new java.util.concurrent.atomic.AtomicReference<>();
        CompletableFuture<String> never = new CompletableFuture<>();
        CompletableFuture<String> result = timeout.executeAsync(() -> never).toCompletableFuture();
        result.whenComplete((v, f) -> dependentRanOn.set(Thread.currentThread()));

        scheduler.advance(100 * MS + TICK);
        assertThat(result).as("not completed on the timer's thread").isNotDone();
        assertThat(handedOff).hasSize(1);

        handedOff.poll().run();
        assertThat(failureOf(result)).isInstanceOf(DeadlineExceededException.class);
        assertThat(never).isCancelled();
        assertThat(dependentRanOn.get()).isSameAs(Thread.currentThread());
    }
}

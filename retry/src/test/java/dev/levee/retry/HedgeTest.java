package dev.levee.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.withinPercentage;

import dev.levee.core.InvalidConfigException;
import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import dev.levee.core.Scheduler;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

class HedgeTest {
    private static final long MS = 1_000_000L;
    private final ManualTicker ticker = new ManualTicker();
    private final ManualScheduler scheduler = new ManualScheduler(ticker);

    private HedgeConfig.Builder config() {
        return HedgeConfig.builder().ticker(ticker).scheduler(scheduler).asyncExecutor(Runnable::run)
                .delay(Duration.ofMillis(50));
    }

    /** Each attempt gets a future the test completes by hand. */
    private static final class Attempts {
        final List<CompletableFuture<String>> futures = new ArrayList<>();

        CompletionStage<String> next() {
            CompletableFuture<String> f = new CompletableFuture<>();
            futures.add(f);
            return f;
        }
    }

    private static Throwable failureOf(CompletionStage<?> stage) {
        AtomicReference<Throwable> seen = new AtomicReference<>();
        stage.whenComplete((v, t) -> seen.set(t));
        return seen.get();
    }

    @Test
    void aFastFirstAnswerStartsNoHedge() {
        Hedge hedge = Hedge.of("hedge", config().build());
        Attempts attempts = new Attempts();
        CompletableFuture<String> result = hedge.executeAsync(attempts::next).toCompletableFuture();
        scheduler.advance(Duration.ofMillis(10));
        attempts.futures.get(0).complete("first");
        assertThat(result.getNow(null)).isEqualTo("first");
        assertThat(scheduler.pending()).as("the hedge timer is cancelled").isZero();
        scheduler.advance(Duration.ofSeconds(1));
        assertThat(attempts.futures).hasSize(1);
        assertThat(hedge.metrics()).isEqualTo(new HedgeMetrics(1, 0, 0, 0, 0));
    }

    @Test
    void theFastAnswerWinsAndTheLoserIsCancelled() {
        Hedge hedge = Hedge.of("hedge", config().build());
        Attempts attempts = new Attempts();
        List<HedgeEvent> events = new ArrayList<>();
        hedge.onEvent(events::add);
        CompletableFuture<String> result = hedge.executeAsync(attempts::next).toCompletableFuture();
        scheduler.advance(Duration.ofMillis(49));
        assertThat(attempts.futures).hasSize(1);
        scheduler.advance(Duration.ofMillis(1));
        assertThat(attempts.futures).hasSize(2);
        attempts.futures.get(1).complete("hedge");
        assertThat(result.getNow(null)).isEqualTo("hedge");
        assertThat(attempts.futures.get(0)).isCancelled();
        assertThat(events).containsExactly(new HedgeEvent.Hedged("hedge", 50 * MS, 2, 50 * MS));
        assertThat(hedge.metrics()).isEqualTo(new HedgeMetrics(1, 1, 1, 0, 0));
    }

    @Test
    void upToMaxHedgesAreStartedOneDelayApart() {
        Hedge hedge = Hedge.of("hedge", config().maxHedges(2).build());
        Attempts attempts = new Attempts();
        CompletableFuture<String> result = hedge.executeAsync(attempts::next).toCompletableFuture();
        scheduler.advance(Duration.ofMillis(50));
        assertThat(attempts.futures).hasSize(2);
        scheduler.advance(Duration.ofMillis(50));
        assertThat(attempts.futures).hasSize(3);
        scheduler.advance(Duration.ofSeconds(1));
        assertThat(attempts.futures).as("no more than maxHedges extra attempts").hasSize(3);
        attempts.futures.get(0).complete("first, at last");
        assertThat(result.getNow(null)).isEqualTo("first, at last");
        assertThat(attempts.futures.get(1)).isCancelled();
        assertThat(attempts.futures.get(2)).isCancelled();
    }

    @Test
    void hedgesStopWhenTheBudgetRefuses() {
        RetryBudget empty = RetryBudget.of("empty", RetryBudgetConfig.builder().ticker(ticker)
                .retryRatio(0).minRetriesPerSecond(0).build());
        Hedge hedge = Hedge.of("hedge", config().maxHedges(3).budget(empty).build());
        List<HedgeEvent> events = new ArrayList<>();
        hedge.onEvent(events::add);
        Attempts attempts = new Attempts();
        CompletableFuture<String> result = hedge.executeAsync(attempts::next).toCompletableFuture();
        scheduler.advance(Duration.ofSeconds(1));
        assertThat(attempts.futures).hasSize(1);
        assertThat(events).containsExactly(new HedgeEvent.Rejected("hedge", 50 * MS, 2, "empty"));
        assertThat(hedge.metrics().rejected()).isEqualTo(1);
        attempts.futures.get(0).complete("slow but fine");
        assertThat(result.getNow(null)).isEqualTo("slow but fine");
    }

    @Test
    void hedgesDrawFromASharedBudgetUntilItIsSpent() {
        RetryBudget budget = RetryBudget.of("shared", RetryBudgetConfig.builder().ticker(ticker)
                .retryRatio(0).minRetriesPerSecond(0.3).ttl(Duration.ofSeconds(10)).build()); // 3 retries per 10 s
        Hedge hedge = Hedge.of("hedge", config().budget(budget).build());
        int hedged = 0;
        for (int i = 0; i < 6; i++) {
            Attempts attempts = new Attempts();
            CompletableFuture<String> result = hedge.executeAsync(attempts::next).toCompletableFuture();
            scheduler.advance(Duration.ofMillis(50));
            hedged += attempts.futures.size() - 1;
            attempts.futures.get(0).complete("ok");
            assertThat(result).isCompleted();
        }
        assertThat(hedged).isEqualTo(3);
        assertThat(hedge.metrics()).isEqualTo(new HedgeMetrics(6, 3, 0, 3, 0));
    }

    @Test
    void whenEveryAttemptFailsTheLastFailureComesOutUnchanged() {
        Hedge hedge = Hedge.of("hedge", config().build());
        Attempts attempts = new Attempts();
        CompletionStage<String> stage = hedge.executeAsync(attempts::next);
        scheduler.advance(Duration.ofMillis(50));
        IOException first = new IOException("first");
        IOException second = new IOException("second");
        attempts.futures.get(0).completeExceptionally(first);
        assertThat(stage.toCompletableFuture()).as("the hedge may still answer").isNotDone();
        attempts.futures.get(1).completeExceptionally(second);
        assertThat(failureOf(stage)).isSameAs(second);
    }

    @Test
    void aFirstFailureBeforeTheDelayEndsTheCall() {
        Hedge hedge = Hedge.of("hedge", config().build());
        Attempts attempts = new Attempts();
        CompletionStage<String> stage = hedge.executeAsync(attempts::next);
        IOException failure = new IOException("down");
        attempts.futures.get(0).completeExceptionally(failure);
        assertThat(failureOf(stage)).isSameAs(failure);
        assertThat(scheduler.pending()).isZero();
    }

    @Test
    void anErrorIsADefinitiveAnswer() {
        Hedge hedge = Hedge.of("hedge", config().build());
        Attempts attempts = new Attempts();
        CompletionStage<String> stage = hedge.executeAsync(attempts::next);
        scheduler.advance(Duration.ofMillis(50));
        OutOfMemoryError error = new OutOfMemoryError("test");
        attempts.futures.get(1).completeExceptionally(error);
        assertThat(failureOf(stage)).isSameAs(error);
        assertThat(attempts.futures.get(0)).isCancelled();
    }

    @Test
    void cancellingTheResultCancelsEveryAttemptAndTheTimer() {
        RetryBudget budget = RetryBudget.of("b", RetryBudgetConfig.builder().ticker(ticker).maxConcurrentRetries(1, 5).build());
        Hedge hedge = Hedge.of("hedge", config().maxHedges(2).budget(budget).build());
        Attempts attempts = new Attempts();
        CompletableFuture<String> result = hedge.executeAsync(attempts::next).toCompletableFuture();
        scheduler.advance(Duration.ofMillis(50));
        result.cancel(true);
        assertThat(attempts.futures).allMatch(CompletableFuture::isCancelled);
        assertThat(scheduler.pending()).isZero();
        assertThat(budget.retriesInFlight()).isZero();
        assertThat(budget.requestsInFlight()).isZero();
    }

    /** Issue 11 item 3: 0.99 is the p99, not (as on the old 0-100 scale) about the fastest call. */
    @Test
    void percentileDelayOfPointNineNineIsTheP99() {
        Hedge hedge = Hedge.of("hedge", config().percentileDelay(0.99, Duration.ofMillis(500)).build());
        for (int i = 1; i <= 100; i++) {
            Attempts attempts = new Attempts();
            hedge.executeAsync(attempts::next);
            ticker.advance(i * MS); // answers in 1..100 ms
            attempts.futures.get(0).complete("ok");
        }
        // the histogram estimate of the nearest-rank p99 (99 ms) is within 1/32 of it
        assertThat(hedge.currentDelayNanos()).isCloseTo(99 * MS, withinPercentage(100.0 / 32));
    }

    @Test
    void thePercentileDelayFollowsObservedLatency() {
        Hedge hedge = Hedge.of("hedge", config().percentileDelay(0.9, Duration.ofMillis(500)).build());
        assertThat(hedge.currentDelayNanos()).isEqualTo(500 * MS);
        for (int i = 1; i <= 100; i++) {
            Attempts attempts = new Attempts();
            CompletableFuture<String> result = hedge.executeAsync(attempts::next).toCompletableFuture();
            ticker.advance(i * MS); // answers in 1..100 ms
            attempts.futures.get(0).complete("ok");
            assertThat(result).isCompleted();
        }
        assertThat(hedge.currentDelayNanos()).isCloseTo(90 * MS, withinPercentage(100.0 / 32));
    }

    @Test
    void theSynchronousFormReturnsTheFastAnswerAndInterruptsTheLoser() throws Exception {
        ExecutorService pool = Executors.newCachedThreadPool();
        try {
            Scheduler immediate = (task, delay) -> {
                task.run();
                return () -> false;
            };
            Hedge hedge = Hedge.of("hedge", config().scheduler(immediate).executor(pool).build());
            AtomicInteger calls = new AtomicInteger();
            CountDownLatch never = new CountDownLatch(1);
            AtomicBoolean loserInterrupted = new AtomicBoolean();
            String answer = hedge.execute(() -> {
                if (calls.incrementAndGet() == 1) {
                    try {
                        never.await();
                    } catch (InterruptedException e) {
                        loserInterrupted.set(true);
                        throw e;
                    }
                    return "slow";
                }
                return "fast";
            });
            assertThat(answer).isEqualTo("fast");
            Awaitility.await().atMost(60, TimeUnit.SECONDS).untilTrue(loserInterrupted);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void anInterruptedCallerCancelsTheAttemptsAndKeepsItsFlag() throws Exception {
        List<Thread> workers = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.concurrent.Executor threadPerTask = task -> {
            Thread worker = new Thread(task);
            workers.add(worker);
            worker.start();
        };
        Hedge hedge = Hedge.of("hedge", config().executor(threadPerTask).build());
        AtomicBoolean started = new AtomicBoolean();
        AtomicBoolean attemptInterrupted = new AtomicBoolean();
        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(() -> hedge.execute(() -> {
                started.set(true);
                try {
                    new CountDownLatch(1).await();
                } catch (InterruptedException e) {
                    attemptInterrupted.set(true);
                    throw e;
                }
                return "never";
            })).isInstanceOf(java.util.concurrent.CancellationException.class);
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
        assertThat(scheduler.pending()).as("the hedge timer is cancelled").isZero();
        for (Thread worker : workers) {
            worker.join(60_000);
            assertThat(worker.isAlive()).as("the cancelled attempt's thread ends").isFalse();
        }
        // The attempt may have been cancelled before it started; if it started, it was interrupted.
        assertThat(!started.get() || attemptInterrupted.get()).isTrue();
    }

    @Test
    void theSynchronousFormRethrowsTheFailureUnchanged() {
        Hedge hedge = Hedge.of("hedge", config().build());
        IOException failure = new IOException("down");
        assertThatThrownBy(() -> hedge.execute(() -> {
            throw failure;
        })).isSameAs(failure);
    }

    @Test
    void everyFieldIsValidated() {
        assertThatThrownBy(() -> Hedge.of("", HedgeConfig.defaults())).isInstanceOf(InvalidConfigException.class)
                .hasMessage("Hedge: name must be a non-blank string but was ''");
        assertThatThrownBy(() -> Hedge.of("h", null)).isInstanceOf(InvalidConfigException.class)
                .hasMessage("Hedge 'h': config must be set (not null) but was null");
        assertThatThrownBy(() -> config().delay(Duration.ZERO).build())
                .hasMessage("Hedge: delay must be > 0 but was PT0S");
        assertThatThrownBy(() -> config().delay(Duration.ofHours(2)).build()).hasMessageContaining("delay must be <= PT1H");
        // Issue 11: the percentile is a fraction; 95 (a percent) is refused with a message that says so.
        assertThatThrownBy(() -> config().percentileDelay(95, Duration.ofMillis(1)).build())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessage("Hedge: percentile must be a fraction in (0, 1) (95.0 looks like a percent: write 0.95) but was 95.0");
        assertThatThrownBy(() -> config().percentileDelay(1, Duration.ofMillis(1)).build())
                .hasMessage("Hedge: percentile must be a fraction in (0, 1) but was 1.0");
        assertThatThrownBy(() -> config().percentileDelay(100, Duration.ofMillis(1)).build())
                .hasMessageContaining("100.0 looks like a percent: write 1.0");
        assertThatThrownBy(() -> config().percentileDelay(101, Duration.ofMillis(1)).build())
                .hasMessage("Hedge: percentile must be a fraction in (0, 1) but was 101.0");
        assertThatThrownBy(() -> config().percentileDelay(0, Duration.ofMillis(1)).build()).hasMessageContaining("percentile");
        assertThatThrownBy(() -> config().maxHedges(0).build())
                .hasMessage("Hedge: maxHedges must be in [1, 10] but was 0");
        assertThatThrownBy(() -> config().maxHedges(11).build()).hasMessageContaining("maxHedges");
        assertThatThrownBy(() -> config().classifier(null).build()).hasMessageContaining("classifier must be set");
        assertThatThrownBy(() -> config().ticker(null).build()).hasMessageContaining("ticker must be set");
        assertThatThrownBy(() -> config().scheduler(null).build()).hasMessageContaining("scheduler must be set");
        HedgeConfig defaults = HedgeConfig.builder().build();
        assertThat(defaults.percentile()).isEqualTo(HedgeConfig.DEFAULT_PERCENTILE).isEqualTo(0.95);
        assertThat(defaults.delayNanos()).isEqualTo(100 * MS);
        assertThat(defaults.maxHedges()).isEqualTo(1);
        assertThat(defaults.executor()).isNotNull();
        assertThat(Hedge.of("hedge", config().withoutBudget().build()).budget()).isNull();
    }

    /** Bug 4 (issue 12): the hedge timer only hands the hedged attempt over; the timer thread runs no user code. */
    @Test
    void aHedgeTimerHandsTheAttemptToTheAsyncExecutor() {
        List<Runnable> handedOver = new ArrayList<>();
        Hedge hedge = Hedge.of("hedge", config().asyncExecutor(handedOver::add).build());
        Attempts attempts = new Attempts();
        CompletableFuture<String> result = hedge.executeAsync(attempts::next).toCompletableFuture();
        scheduler.advance(Duration.ofMillis(50));
        assertThat(attempts.futures).as("the timer did not start the hedge itself").hasSize(1);
        assertThat(handedOver).hasSize(1);
        handedOver.get(0).run();
        assertThat(attempts.futures).hasSize(2);
        attempts.futures.get(1).complete("hedge");
        assertThat(result.getNow(null)).isEqualTo("hedge");
    }
}

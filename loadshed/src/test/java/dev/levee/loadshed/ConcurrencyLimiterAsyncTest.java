package dev.levee.loadshed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ContextScope;
import dev.levee.core.Deadline;
import dev.levee.core.Gate;
import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import dev.levee.core.ShedException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@link ConcurrencyLimiter#acquireAsync}: asynchronous callers wait (bounded, in the configured order)
 * instead of being refused, on a manual scheduler and an executor that counts what it runs.
 */
class ConcurrencyLimiterAsyncTest {
    private final ManualTicker ticker = new ManualTicker();
    private final ManualScheduler scheduler = new ManualScheduler(ticker);
    private final AtomicInteger handedOff = new AtomicInteger();
    private final Executor executor = task -> {
        handedOff.incrementAndGet();
        task.run();
    };

    private ConcurrencyLimiter limiter(int limit, ConcurrencyLimiterConfig.WaitOrder order, Duration maxWait,
            int maxWaiters) {
        return ConcurrencyLimiter.of("async", ConcurrencyLimiterConfig.builder()
                .algorithm(() -> ScriptedAlgorithm.fixed(limit)).maxWait(maxWait).maxWaiters(maxWaiters)
                .waitOrder(order).ticker(ticker).scheduler(scheduler).asyncExecutor(executor).build());
    }

    private static boolean refusedWithShed(CompletionStage<Void> stage) {
        CompletableFuture<Void> f = stage.toCompletableFuture();
        return f.isCompletedExceptionally() && f.handle((v, e) -> e instanceof ShedException).join();
    }

    @Test
    void aFreeSlotIsGrantedAtOnceWithTheSharedStage() {
        ConcurrencyLimiter l = limiter(1, ConcurrencyLimiterConfig.WaitOrder.FIFO, Duration.ofSeconds(1), 10);
        assertThat((Object) l.acquireAsync(ticker.read())).isSameAs(Gate.granted());
        assertThat(l.inflight()).isEqualTo(1);
        assertThat(handedOff.get()).isZero();
    }

    @Test
    void failFastRefusesAtOnce() {
        ConcurrencyLimiter l = limiter(1, ConcurrencyLimiterConfig.WaitOrder.FIFO, Duration.ZERO, 10);
        l.acquireAsync(ticker.read());
        assertThat(refusedWithShed(l.acquireAsync(ticker.read()))).isTrue();
        assertThat(l.waiting()).isZero();
        assertThat(l.metrics().rejected()).isEqualTo(1);
    }

    @Test
    void aWaiterIsGrantedTheSlotACompletionFreesOnTheExecutor() {
        ConcurrencyLimiter l = limiter(1, ConcurrencyLimiterConfig.WaitOrder.FIFO, Duration.ofSeconds(1), 10);
        l.acquireAsync(ticker.read());
        CompletableFuture<Void> w = l.acquireAsync(ticker.read()).toCompletableFuture();
        assertThat(w).isNotDone();
        assertThat(l.waiting()).isEqualTo(1);
        l.onSuccess(1);
        assertThat(w).isCompleted();
        assertThat(handedOff.get()).isEqualTo(1);
        assertThat(l.inflight()).isEqualTo(1);
        assertThat(l.waiting()).isZero();
        assertThat(scheduler.pending()).isZero();
    }

    @Test
    void theWaitEndsAtMaxWaitWithARefusal() {
        ConcurrencyLimiter l = limiter(1, ConcurrencyLimiterConfig.WaitOrder.FIFO, Duration.ofMillis(50), 10);
        l.acquireAsync(ticker.read());
        CompletionStage<Void> w = l.acquireAsync(ticker.read());
        scheduler.advance(Duration.ofMillis(49));
        assertThat(w.toCompletableFuture()).isNotDone();
        scheduler.advance(Duration.ofMillis(1));
        assertThat(refusedWithShed(w)).isTrue();
        assertThat(l.waiting()).isZero();
        assertThat(l.metrics().rejected()).isEqualTo(1);
        // The slot freed later goes to nobody and stays free.
        l.onSuccess(1);
        assertThat(l.inflight()).isZero();
    }

    @Test
    void neverWaitsPastTheCurrentDeadline() {
        ConcurrencyLimiter l = limiter(1, ConcurrencyLimiterConfig.WaitOrder.FIFO, Duration.ofSeconds(10), 10);
        l.acquireAsync(ticker.read());
        CompletionStage<Void> w;
        try (ContextScope scope = Deadline.afterNanos(20_000_000L, ticker).attach()) {
            w = l.acquireAsync(ticker.read());
        }
        scheduler.advance(Duration.ofMillis(20));
        assertThat(refusedWithShed(w)).isTrue();
        try (ContextScope scope = Deadline.afterNanos(0, ticker).attach()) {
            assertThat(refusedWithShed(l.acquireAsync(ticker.read()))).isTrue();
        }
    }

    @Test
    void atMostMaxWaitersWaitAndTheNextIsRefusedAtOnce() {
        ConcurrencyLimiter l = limiter(1, ConcurrencyLimiterConfig.WaitOrder.FIFO, Duration.ofSeconds(1), 2);
        l.acquireAsync(ticker.read());
        CompletionStage<Void> a = l.acquireAsync(ticker.read());
        CompletionStage<Void> b = l.acquireAsync(ticker.read());
        assertThat(refusedWithShed(l.acquireAsync(ticker.read()))).isTrue();
        assertThat(l.waiting()).isEqualTo(2);
        // A granted waiter frees its place in the bound.
        l.onSuccess(1);
        assertThat(a.toCompletableFuture()).isCompleted();
        assertThat(l.acquireAsync(ticker.read()).toCompletableFuture()).isNotDone();
        assertThat(b.toCompletableFuture()).isNotDone();
    }

    private List<Integer> grantOrder(ConcurrencyLimiterConfig.WaitOrder order) {
        ConcurrencyLimiter l = limiter(1, order, Duration.ofSeconds(1), 10);
        l.acquireAsync(ticker.read());
        List<Integer> granted = new CopyOnWriteArrayList<>();
        List<CompletionStage<Void>> stages = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            int id = i;
            stages.add(l.acquireAsync(ticker.read()).thenRun(() -> granted.add(id)));
        }
        for (int i = 0; i < 4; i++) {
            l.onSuccess(1);
        }
        assertThat(stages).allMatch(s -> s.toCompletableFuture().isDone());
        assertThat(l.inflight()).isZero();
        return granted;
    }

    @Test
    void fifoGrantsTheOldestWaiterFirst() {
        assertThat(grantOrder(ConcurrencyLimiterConfig.WaitOrder.FIFO)).containsExactly(0, 1, 2);
    }

    @Test
    void lifoGrantsTheNewestWaiterFirst() {
        assertThat(grantOrder(ConcurrencyLimiterConfig.WaitOrder.LIFO)).containsExactly(2, 1, 0);
    }

    @Test
    void inFifoOrderANewCallerDoesNotOvertakeAWaiter() {
        ConcurrencyLimiter l = limiter(1, ConcurrencyLimiterConfig.WaitOrder.FIFO, Duration.ofSeconds(1), 10);
        l.acquireAsync(ticker.read());
        CompletionStage<Void> waiter = l.acquireAsync(ticker.read());
        // The waiter holds the only slot once it is freed; a new caller finds it taken.
        l.onIgnored();
        assertThat(waiter.toCompletableFuture()).isCompleted();
        assertThat(l.tryAcquire(ticker.read())).isFalse();
    }

    @Test
    void executeAsyncWaitsForASlotInsteadOfBeingRefused() {
        ConcurrencyLimiter l = limiter(1, ConcurrencyLimiterConfig.WaitOrder.FIFO, Duration.ofSeconds(1), 10);
        CompletableFuture<String> first = new CompletableFuture<>();
        CompletionStage<String> a = l.executeAsync(() -> first);
        CompletionStage<String> b = l.executeAsync(() -> CompletableFuture.completedFuture("b"));
        assertThat(b.toCompletableFuture()).isNotDone();
        first.complete("a");
        assertThat(a.toCompletableFuture()).isCompletedWithValue("a");
        assertThat(b.toCompletableFuture()).isCompletedWithValue("b");
        assertThat(l.inflight()).isZero();
        assertThat(l.metrics().samples()).isEqualTo(2);
    }
}

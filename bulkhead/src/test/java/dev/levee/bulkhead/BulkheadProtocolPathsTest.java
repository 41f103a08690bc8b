package dev.levee.bulkhead;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.BulkheadFullException;
import dev.levee.core.Chain;
import dev.levee.core.Gate;
import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import java.lang.reflect.Field;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;

/**
 * Every entry point of the semaphore bulkhead (tryAcquire, acquire, execute, acquireAsync, executeAsync)
 * on its fairness check and on its asynchronous wait: a manual ticker and scheduler, completions run inline.
 */
class BulkheadProtocolPathsTest {
    private static final Duration WAIT = Duration.ofMillis(100);
    private final ManualTicker ticker = new ManualTicker(1_000_000_000L);
    private final ManualScheduler scheduler = new ManualScheduler(ticker);

    private Bulkhead bulkhead(int limit, Duration maxWait, boolean fair) {
        return Bulkhead.of("b", BulkheadConfig.builder().maxConcurrentCalls(limit).maxWait(maxWait).fair(fair)
                .ticker(ticker).scheduler(scheduler).asyncExecutor(Runnable::run).build());
    }

    /** White-box: a waiter is counted while a slot is free, the moment fairness is about. */
    private static void pretendAWaiter(Bulkhead b, int waiters) throws ReflectiveOperationException {
        Field field = Bulkhead.class.getDeclaredField("waiters");
        field.setAccessible(true);
        field.setInt(b, waiters);
    }

    private static Throwable failureOf(CompletionStage<?> stage) {
        return stage.toCompletableFuture().handle((r, e) -> e).join();
    }

    @Test
    void aFairBulkheadRefusesAFreeSlotOnEveryEntryPointWhileSomeoneWaits() throws Exception {
        Bulkhead fair = bulkhead(2, Duration.ZERO, true);
        pretendAWaiter(fair, 1);
        assertThat(fair.tryAcquire(ticker.read())).isFalse();
        assertThat(fair.tryAcquire(Gate.NO_READING)).isFalse();
        assertThatThrownBy(() -> fair.acquire(ticker.read())).isInstanceOf(BulkheadFullException.class);
        assertThatThrownBy(() -> fair.execute(Chain.direct(), () -> "x")).isInstanceOf(BulkheadFullException.class);
        assertThat(failureOf(fair.acquireAsync(ticker.read()))).isInstanceOf(BulkheadFullException.class);
        assertThat(failureOf(fair.executeAsync(Chain.direct(), () -> CompletableFuture.completedFuture("x"))))
                .isInstanceOf(BulkheadFullException.class);
        assertThat(fair.activeCount()).isZero();
        assertThat(fair.rejectedCount()).isEqualTo(6);
    }

    @Test
    void anUnfairBulkheadAdmitsOnEveryEntryPointWhileSomeoneWaits() throws Exception {
        Bulkhead unfair = bulkhead(5, Duration.ZERO, false);
        pretendAWaiter(unfair, 1);
        assertThat(unfair.tryAcquire(ticker.read())).isTrue();
        unfair.acquire(ticker.read());
        assertThat(unfair.execute(Chain.direct(), () -> unfair.activeCount())).isEqualTo(3);
        assertThat((Object) unfair.acquireAsync(ticker.read())).isSameAs(Gate.granted());
        assertThat(unfair.executeAsync(Chain.direct(), () -> CompletableFuture.completedFuture(unfair.activeCount()))
                .toCompletableFuture().join()).isEqualTo(4);
        assertThat(unfair.activeCount()).isEqualTo(3);
        assertThat(unfair.rejectedCount()).isZero();
    }

    @Test
    void anAsyncWaiterIsGrantedTheSlotTheHolderReleases() {
        Bulkhead b = bulkhead(1, WAIT, false);
        assertThat(b.tryAcquire()).isTrue();
        CompletionStage<Void> permit = b.acquireAsync(ticker.read());
        assertThat(permit.toCompletableFuture()).isNotDone();
        assertThat(b.waitingCount()).isEqualTo(1);
        b.onSuccess(0);
        assertThat(permit.toCompletableFuture()).isCompleted();
        assertThat(b.waitingCount()).isZero();
        assertThat(b.activeCount()).isEqualTo(1);  // the waiter holds it now
        assertThat(b.rejectedCount()).isZero();
        b.onSuccess(0);
        assertThat(b.activeCount()).isZero();
    }

    @Test
    void anAsyncWaiterNotGrantedWithinMaxWaitIsRefusedAtTheExpiryInstant() {
        Bulkhead b = bulkhead(1, WAIT, false);
        List<BulkheadEvent> events = new ArrayList<>();
        b.onEvent(events::add);
        b.tryAcquire();
        CompletionStage<Void> permit = b.acquireAsync(ticker.read());
        scheduler.advance(WAIT.toNanos() - 1);
        assertThat(permit.toCompletableFuture()).isNotDone();
        scheduler.advance(1);
        // A plain rejection, not the "evicted from its keyed bulkhead" one.
        assertThat(failureOf(permit)).isExactlyInstanceOf(BulkheadFullException.class);
        assertThat(b.rejectedCount()).isEqualTo(1);
        assertThat(b.waitingCount()).isZero();
        assertThat(events).singleElement().isInstanceOfSatisfying(BulkheadEvent.Rejected.class,
                e -> assertThat(e.tickerNanos()).isEqualTo(1_000_000_000L + WAIT.toNanos()));
    }

    @Test
    void executeAsyncWaitsForTheSlotThenRunsTheCallAndReleasesIt() {
        Bulkhead b = bulkhead(1, WAIT, false);
        b.tryAcquire();
        CompletableFuture<String> call = new CompletableFuture<>();
        List<String> started = new ArrayList<>();
        CompletionStage<String> out = b.executeAsync(Chain.direct(), () -> {
            started.add("call");
            return call;
        });
        assertThat(started).isEmpty();
        b.onSuccess(0);                              // the slot goes to the waiting call
        assertThat(started).containsExactly("call");
        assertThat(b.activeCount()).isEqualTo(1);
        call.complete("done");
        assertThat(out.toCompletableFuture().join()).isEqualTo("done");
        assertThat(b.activeCount()).isZero();

        // Refused after its wait: the call never runs.
        b.tryAcquire();
        CompletionStage<String> refused = b.executeAsync(Chain.direct(), () -> {
            started.add("never");
            return CompletableFuture.completedFuture("x");
        });
        scheduler.advance(WAIT);
        assertThat(failureOf(refused)).isInstanceOf(BulkheadFullException.class);
        assertThat(started).containsExactly("call");
    }

    @Test
    void aCallThatThrowsInsteadOfReturningAStageReleasesTheSlot() {
        Bulkhead b = bulkhead(1, Duration.ZERO, false);
        IllegalStateException thrown = new IllegalStateException("no stage");
        Chain throwing = new Chain() {
            @Override
            public <T, E extends Throwable> T proceed(dev.levee.core.CheckedSupplier<T, E> call) throws E {
                return call.get();
            }

            @Override
            public <T> CompletionStage<T> proceedAsync(java.util.function.Supplier<? extends CompletionStage<T>> call) {
                throw thrown;
            }
        };
        assertThatThrownBy(() -> b.executeAsync(throwing, () -> CompletableFuture.completedFuture("x"))).isSameAs(thrown);
        assertThat(b.activeCount()).isZero();
    }

    @Test
    void growingTheLimitGrantsAsyncWaitersAndShrinkingOrKeepingItDoesNot() {
        Bulkhead b = bulkhead(1, WAIT, false);
        b.tryAcquire();
        CompletionStage<Void> first = b.acquireAsync(ticker.read());
        CompletionStage<Void> second = b.acquireAsync(ticker.read());
        b.resize(1);
        assertThat(first.toCompletableFuture()).isNotDone();
        b.resize(2);
        assertThat(first.toCompletableFuture()).isCompleted();
        assertThat(second.toCompletableFuture()).isNotDone();
        assertThat(b.activeCount()).isEqualTo(2);
        assertThat(b.waitingCount()).isEqualTo(1);
        b.resize(3);
        assertThat(second.toCompletableFuture()).isCompleted();
        assertThat(b.waitingCount()).isZero();
    }

    @Test
    void resizeReportsFromAndToAndTheCallsInside() {
        Bulkhead b = bulkhead(2, Duration.ZERO, false);
        List<BulkheadEvent> events = new ArrayList<>();
        b.onEvent(events::add);
        b.tryAcquire();
        ticker.advance(7);
        b.resize(4);
        assertThat(events).singleElement().isEqualTo(new BulkheadEvent.Resized("b", 1_000_000_007L, 2, 4, 1));
        assertThat(b.availablePermits()).isEqualTo(3);
        assertThatThrownBy(() -> b.resize(0)).isInstanceOf(dev.levee.core.InvalidConfigException.class);
        assertThatThrownBy(() -> b.resize(BulkheadConfig.MAX_CONCURRENT_CALLS_LIMIT + 1))
                .isInstanceOf(dev.levee.core.InvalidConfigException.class);
        b.resize(BulkheadConfig.MAX_CONCURRENT_CALLS_LIMIT);
        assertThat(b.maxConcurrentCalls()).isEqualTo(BulkheadConfig.MAX_CONCURRENT_CALLS_LIMIT);
    }

    @Test
    void aShrunkLimitAdmitsOnlyOnceTheCallsInsideFallBelowIt() {
        Bulkhead b = bulkhead(3, Duration.ZERO, false);
        b.tryAcquire();
        b.tryAcquire();
        b.tryAcquire();
        b.resize(2);
        assertThat(b.availablePermits()).isZero();
        b.onSuccess(0);
        assertThat(b.tryAcquire()).isFalse();       // 2 inside, limit 2
        b.onSuccess(0);
        assertThat(b.tryAcquire()).isTrue();
        assertThat(b.activeCount()).isEqualTo(2);
    }

    @Test
    void aRetiredBulkheadRefusesAsyncCallersWithTheRetiredRejection() {
        Bulkhead b = bulkhead(1, WAIT, false);
        assertThat(b.isRetired()).isFalse();
        assertThat(b.retire()).isTrue();
        assertThat(b.isRetired()).isTrue();
        assertThat(failureOf(b.acquireAsync(ticker.read()))).isInstanceOf(Bulkhead.RetiredException.class);
        assertThatThrownBy(() -> b.acquire(ticker.read())).isInstanceOf(Bulkhead.RetiredException.class);
    }

    @Test
    void aWaitAlreadyPastTheDeadlineIsRefusedAtOnceWithoutQueueing() {
        Bulkhead b = bulkhead(1, WAIT, false);
        b.tryAcquire();
        try (var ignored = dev.levee.core.Deadline.at(ticker.read(), ticker).attach()) {
            assertThat(failureOf(b.acquireAsync(ticker.read()))).isInstanceOf(BulkheadFullException.class);
            assertThatThrownBy(() -> b.acquire(ticker.read())).isInstanceOf(BulkheadFullException.class);
        }
        assertThat(b.waitingCount()).isZero();
        assertThat(scheduler.pending()).isZero();
        assertThat(b.rejectedCount()).isEqualTo(2);
    }

    @Test
    void takingTheLastSlotDoesNotEndASaturationEpisode() {
        Bulkhead b = Bulkhead.of("s", BulkheadConfig.builder().maxConcurrentCalls(1)
                .saturationWarning(Duration.ofSeconds(1)).ticker(ticker).build());
        b.tryAcquire();
        b.tryAcquire();                              // the episode starts
        ticker.advance(Duration.ofSeconds(1));
        b.tryAcquire();                              // reported
        assertThat(b.isSaturationReported()).isTrue();
        b.onSuccess(0);
        assertThat(b.tryAcquire()).isTrue();         // 1 of 1 inside: still saturated
        assertThat(b.isSaturationReported()).isTrue();
    }
}

package dev.levee.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import dev.levee.core.Scheduler;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The asynchronous waiters of an event-driven gate, on a manual scheduler and a direct executor. */
class AsyncWaitQueueTest {
    private static final long WAIT = 1_000;
    private static final Executor DIRECT = Runnable::run;
    private static final Executor REJECTING = task -> {
        throw new RejectedExecutionException("shut down");
    };

    private final ManualScheduler scheduler = new ManualScheduler(new ManualTicker());

    /** A pool of permits that counts what the queue does with them. */
    static class Permits implements AsyncWaitQueue.Permits {
        final AtomicInteger free;
        final AtomicInteger givenBack = new AtomicInteger();
        final AtomicInteger left = new AtomicInteger();

        Permits(int free) {
            this.free = new AtomicInteger(free);
        }

        @Override
        public boolean tryTake() {
            if (free.get() == 0) {
                return false;
            }
            free.decrementAndGet();
            return true;
        }

        @Override
        public void giveBack() {
            givenBack.incrementAndGet();
            free.incrementAndGet();
        }

        @Override
        public void waiterLeft() {
            left.incrementAndGet();
        }
    }

    private static IllegalStateException refused() {
        return new IllegalStateException("full");
    }

    @Test
    void aFreePermitIsGrantedAtOnceAndItsTimerCancelled() {
        AsyncWaitQueue queue = new AsyncWaitQueue(scheduler, DIRECT);
        Permits permits = new Permits(1);
        CompletableFuture<Void> granted = queue.enqueue(WAIT, permits, AsyncWaitQueueTest::refused);
        assertThat(granted).isCompleted().isNotCompletedExceptionally();
        assertThat(permits.free).hasValue(0);
        assertThat(permits.left).hasValue(1);
        assertThat(queue.size()).isZero();
        assertThat(scheduler.pending()).isZero();   // the expiry task was cancelled
    }

    @Test
    void waitersAreGrantedOldestFirstOnePerFreedPermit() {
        AsyncWaitQueue queue = new AsyncWaitQueue(scheduler, DIRECT);
        Permits permits = new Permits(0);
        CompletableFuture<Void> first = queue.enqueue(WAIT, permits, AsyncWaitQueueTest::refused);
        CompletableFuture<Void> second = queue.enqueue(WAIT, permits, AsyncWaitQueueTest::refused);
        CompletableFuture<Void> third = queue.enqueue(WAIT, permits, AsyncWaitQueueTest::refused);
        assertThat(queue.size()).isEqualTo(3);
        assertThat(scheduler.pending()).isEqualTo(3);
        assertThat(first).isNotDone();

        permits.free.set(1);
        queue.drain(permits);
        assertThat(first).isCompleted();
        assertThat(second).isNotDone();
        assertThat(third).isNotDone();
        assertThat(queue.size()).isEqualTo(2);
        assertThat(permits.left).hasValue(1);
        assertThat(scheduler.pending()).isEqualTo(2);

        permits.free.set(2);
        queue.drain(permits);
        assertThat(second).isCompleted();
        assertThat(third).isCompleted();
        assertThat(queue.size()).isZero();
        assertThat(permits.free).hasValue(0);
        assertThat(permits.givenBack).hasValue(0);
    }

    @Test
    void aLifoQueueGrantsTheNewestWaiterFirst() {
        AsyncWaitQueue queue = new AsyncWaitQueue(scheduler, DIRECT, true);
        Permits permits = new Permits(0);
        CompletableFuture<Void> first = queue.enqueue(WAIT, permits, AsyncWaitQueueTest::refused);
        CompletableFuture<Void> second = queue.enqueue(WAIT, permits, AsyncWaitQueueTest::refused);
        permits.free.set(1);
        queue.drain(permits);
        assertThat(second).isCompleted();
        assertThat(first).isNotDone();
    }

    @Test
    void aWaiterNotGrantedInTimeIsRefusedWithWhatTheRefusalBuilds() {
        AsyncWaitQueue queue = new AsyncWaitQueue(scheduler, DIRECT);
        Permits permits = new Permits(0);
        CompletableFuture<Void> waiter = queue.enqueue(WAIT, permits, AsyncWaitQueueTest::refused);
        scheduler.advance(WAIT - 1);
        assertThat(waiter).isNotDone();
        scheduler.advance(1);
        assertThat(waiter).isCompletedExceptionally();
        assertThat(waiter.handle((v, e) -> e).join()).isInstanceOf(IllegalStateException.class).hasMessage("full");
        assertThat(queue.size()).isZero();
        assertThat(permits.left).hasValue(1);

        // A permit freed later is not taken for the expired waiter.
        permits.free.set(1);
        queue.drain(permits);
        assertThat(permits.free).hasValue(1);
    }

    @Test
    void aWaiterThatExpiresWhileTheDrainTakesItsPermitGetsNoPermitAndThePermitGoesBack() {
        AsyncWaitQueue queue = new AsyncWaitQueue(scheduler, DIRECT);
        Permits racing = new Permits(0) {
            @Override
            public boolean tryTake() {
                scheduler.advance(WAIT); // the expiry wins the race for the waiter
                return super.tryTake();
            }
        };
        CompletableFuture<Void> waiter = queue.enqueue(WAIT, new Permits(0), AsyncWaitQueueTest::refused);
        racing.free.set(1);
        queue.drain(racing);
        assertThat(waiter).isCompletedExceptionally();
        assertThat(racing.givenBack).hasValue(1);
        assertThat(racing.free).hasValue(1);
        assertThat(queue.size()).isZero();
    }

    @Test
    void anExpiryFiredBeforeEnqueueReturnsStillCancelsItsTimer() {
        AtomicInteger cancels = new AtomicInteger();
        Scheduler immediate = (task, delay) -> {
            task.run();
            return () -> {
                cancels.incrementAndGet();
                return false;
            };
        };
        AsyncWaitQueue queue = new AsyncWaitQueue(immediate, DIRECT);
        Permits permits = new Permits(1);
        CompletableFuture<Void> waiter = queue.enqueue(WAIT, permits, AsyncWaitQueueTest::refused);
        assertThat(waiter).isCompletedExceptionally();
        assertThat(cancels).hasValue(1);
        assertThat(permits.free).hasValue(1);      // the later drain found no waiter to take it for
        assertThat(queue.size()).isZero();
    }

    @Test
    void aWaitingWaiterKeepsItsTimer() {
        AtomicInteger cancels = new AtomicInteger();
        Scheduler never = (task, delay) -> () -> {
            cancels.incrementAndGet();
            return true;
        };
        AsyncWaitQueue queue = new AsyncWaitQueue(never, DIRECT);
        Permits permits = new Permits(0);
        queue.enqueue(WAIT, permits, AsyncWaitQueueTest::refused);
        assertThat(cancels).hasValue(0);
        permits.free.set(1);
        queue.drain(permits);
        assertThat(cancels).hasValue(1);           // cancelled by the grant
    }

    @Test
    void aWaiterWhoseCallerCancelledLeavesTheQueueAndIsNeverGranted() {
        AsyncWaitQueue queue = new AsyncWaitQueue(scheduler, DIRECT);
        Permits permits = new Permits(0);
        CompletableFuture<Void> waiter = queue.enqueue(WAIT, permits, AsyncWaitQueueTest::refused);
        assertThat(waiter.cancel(false)).isTrue();
        assertThat(queue.size()).isZero();
        assertThat(permits.left).hasValue(1);
        assertThat(scheduler.pending()).as("its expiry is cancelled").isZero();

        permits.free.set(1);
        queue.drain(permits);
        assertThat(permits.free).as("the freed permit is not handed to the cancelled waiter").hasValue(1);
    }

    @Test
    void aCancelBetweenTheGrantAndItsCompletionGivesThePermitBack() {
        List<Runnable> handedOff = new ArrayList<>();
        AsyncWaitQueue queue = new AsyncWaitQueue(scheduler, handedOff::add);
        Permits permits = new Permits(0);
        CompletableFuture<Void> waiter = queue.enqueue(WAIT, permits, AsyncWaitQueueTest::refused);
        permits.free.set(1);
        queue.drain(permits); // the grant is decided and the permit taken; the completion waits on the executor
        assertThat(permits.free).hasValue(0);
        assertThat(handedOff).hasSize(1);

        assertThat(waiter.cancel(false)).as("the caller gives up before the executor runs").isTrue();
        handedOff.remove(0).run();

        assertThat(permits.givenBack).as("the permit nobody would release goes back").hasValue(1);
        assertThat(permits.free).hasValue(1);
        assertThat(queue.size()).isZero();
        assertThat(permits.left).hasValue(1);
    }

    @Test
    void aGrantTheExecutorRejectsGivesThePermitBackAndFailsTheWaiter() {
        AsyncWaitQueue queue = new AsyncWaitQueue(scheduler, REJECTING);
        Permits permits = new Permits(1);
        CompletableFuture<Void> waiter = queue.enqueue(WAIT, permits, AsyncWaitQueueTest::refused);
        assertThat(waiter).isCompletedExceptionally();
        assertThat(waiter.handle((v, e) -> e).join()).isInstanceOf(RejectedExecutionException.class);
        assertThat(permits.givenBack).hasValue(1);
        assertThat(permits.free).hasValue(1);
    }

    @Test
    void anExpiryTheExecutorRejectsIsRefusedOnTheSchedulerThread() {
        AsyncWaitQueue queue = new AsyncWaitQueue(scheduler, REJECTING);
        Permits permits = new Permits(0);
        CompletableFuture<Void> waiter = queue.enqueue(WAIT, permits, AsyncWaitQueueTest::refused);
        scheduler.advance(WAIT);
        assertThat(waiter.handle((v, e) -> e).join()).isInstanceOf(IllegalStateException.class);
        assertThat(queue.size()).isZero();
    }

    @Test
    void completionsRunOnTheExecutorNotInline() {
        java.util.List<Runnable> handedOff = new java.util.ArrayList<>();
        AsyncWaitQueue queue = new AsyncWaitQueue(scheduler, handedOff::add);
        Permits permits = new Permits(0);
        CompletableFuture<Void> waiter = queue.enqueue(WAIT, permits, AsyncWaitQueueTest::refused);
        permits.free.set(1);
        queue.drain(permits);
        assertThat(waiter).isNotDone();
        assertThat(handedOff).hasSize(1);
        handedOff.get(0).run();
        assertThat(waiter).isCompleted();
    }

    @Test
    void afterCompletesOnTheExecutorWhenTheDelayHasPassed() {
        CompletableFuture<Void> done = AsyncWaitQueue.after(scheduler, DIRECT, 500);
        scheduler.advance(499);
        assertThat(done).isNotDone();
        scheduler.advance(1);
        assertThat(done).isCompleted().isNotCompletedExceptionally();

        CompletableFuture<Void> rejected = AsyncWaitQueue.after(scheduler, REJECTING, 500);
        scheduler.advance(500);
        assertThat(rejected.handle((v, e) -> e).join()).isInstanceOf(RejectedExecutionException.class);
    }

    @Test
    void theDefaultExecutorIsTheCommonPoolUnlessItHasOneThread() throws InterruptedException {
        Executor executor = AsyncWaitQueue.defaultExecutor();
        if (ForkJoinPool.getCommonPoolParallelism() > 1) {
            assertThat(executor).isSameAs(ForkJoinPool.commonPool());
        } else {
            assertThat(executor).isNotSameAs(ForkJoinPool.commonPool());
        }
        CountDownLatch ran = new CountDownLatch(1);
        AtomicReference<Thread> thread = new AtomicReference<>();
        executor.execute(() -> {
            thread.set(Thread.currentThread());
            ran.countDown();
        });
        assertThat(ran.await(60, TimeUnit.SECONDS)).isTrue();
        assertThat(thread.get()).isNotSameAs(Thread.currentThread());
        if (ForkJoinPool.getCommonPoolParallelism() <= 1) {
            assertThat(thread.get().getName()).isEqualTo("levee-async");
        }
    }
}

package dev.levee.loadshed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.levee.core.ContextScope;
import dev.levee.core.Deadline;
import dev.levee.core.Gate;
import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import dev.levee.core.Pipeline;
import dev.levee.core.ShedException;
import dev.levee.loadshed.CoDelGateTest.Slots;
import dev.levee.loadshed.queue.CoDelQueueConfig;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Asynchronous callers of a {@link CoDelGate}: the same queue, order, bound, CoDel state and refusals
 * as the threads, completed on the configured executor, and no permit leaked by a caller that gives
 * up. Manual time and a manual scheduler throughout; real threads only where a synchronous waiter
 * must park (observed with Awaitility).
 */
@SuppressWarnings("try") // scopes opened only for their effect on the current thread
class CoDelGateAsyncTest {
    private static final Executor INLINE = Runnable::run;

    private final ManualTicker ticker = new ManualTicker();
    private final ManualScheduler scheduler = new ManualScheduler(ticker);

    /** Runs nothing until the test says so, on the test's thread. */
    private static final class CapturingExecutor implements Executor {
        final ArrayDeque<Runnable> tasks = new ArrayDeque<>();

        @Override
        public synchronized void execute(Runnable task) {
            tasks.add(task);
        }

        synchronized Runnable next() {
            return tasks.remove();
        }

        void runAll() {
            while (true) {
                Runnable task;
                synchronized (this) {
                    task = tasks.poll();
                }
                if (task == null) {
                    return;
                }
                task.run();
            }
        }
    }

    private CoDelGate gate(Slots slots, int maxSize, boolean lifo, Duration maxWait, Executor executor) {
        return CoDelGate.of("g", CoDelQueueConfig.builder().maxSize(maxSize).adaptiveLifo(lifo)
                .scheduler(scheduler).asyncExecutor(executor).build(), maxWait, slots);
    }

    private static String reason(CompletionStage<Void> stage) {
        CompletableFuture<Void> future = stage.toCompletableFuture();
        assertThat(future).isCompletedExceptionally();
        try {
            future.join();
            throw new AssertionError("not refused");
        } catch (CompletionException e) {
            return ((ShedException) e.getCause()).reason();
        }
    }

    /** A thread that waits synchronously and records its name when granted (or its refusal's reason). */
    private Thread syncWaiter(CoDelGate g, String name, ConcurrentLinkedQueue<String> order) {
        Thread t = new Thread(() -> {
            try {
                g.acquire(ticker.read());
                order.add(name);
            } catch (ShedException e) {
                order.add(name + ":" + e.reason());
            }
        }, name);
        t.start();
        return t;
    }

    private CompletionStage<Void> asyncWaiter(CoDelGate g, String name, ConcurrentLinkedQueue<String> order) {
        CompletionStage<Void> stage = g.acquireAsync(ticker.read());
        stage.whenComplete((ignored, failure) -> order.add(failure == null ? name
                : name + ":" + ((ShedException) (failure instanceof CompletionException ? failure.getCause() : failure)).reason()));
        return stage;
    }

    @Test
    void aFreePermitIsTheSharedGrantedStageAndNobodyWaits() {
        Slots slots = new Slots(ticker, 1);
        CoDelGate g = gate(slots, 10, true, Duration.ofSeconds(1), INLINE);
        assertThat(g.acquireAsync(ticker.read()) == Gate.granted()).as("the shared granted stage").isTrue();
        assertThat(g.waitingCount()).isZero();
        assertThat(slots.out.get()).isEqualTo(1);
        g.onSuccess(1);
        assertThat(slots.out.get()).isZero();
        assertThat(g.inFlight()).isZero();
    }

    /**
     * Queues a1 (a stage), s1 (a thread), a2, s2 in that order, each after the one before has joined.
     *
     * @return the two waiting threads, s1 and s2
     */
    private Thread[] enqueueMixed(CoDelGate g, ConcurrentLinkedQueue<String> order) {
        asyncWaiter(g, "a1", order);
        Thread s1 = syncWaiter(g, "s1", order);
        await().atMost(Duration.ofSeconds(60)).until(() -> g.waitingCount() == 2);
        asyncWaiter(g, "a2", order);
        Thread s2 = syncWaiter(g, "s2", order);
        await().atMost(Duration.ofSeconds(60)).until(() -> g.waitingCount() == 4);
        return new Thread[] {s1, s2};
    }

    @Test
    void mixedSyncAndAsyncWaitersAreGrantedInArrivalOrderWhileNotCongested() throws Exception {
        Slots slots = new Slots(ticker, 1);
        CoDelGate g = gate(slots, 10, true, Duration.ofHours(1), INLINE);
        assertThat(g.tryAcquire()).isTrue();
        ConcurrentLinkedQueue<String> order = new ConcurrentLinkedQueue<>();
        Thread[] threads = enqueueMixed(g, order);
        Thread s1 = threads[0];
        Thread s2 = threads[1];

        for (int granted = 1; granted <= 4; granted++) {
            g.onSuccess(1); // the holder leaves; its permit goes to the next waiter
            int expected = granted;
            await().atMost(Duration.ofSeconds(60)).until(() -> order.size() == expected);
        }
        s1.join(60_000);
        s2.join(60_000);

        assertThat(order).containsExactly("a1", "s1", "a2", "s2");
        assertThat(slots.out.get()).isEqualTo(1);
        assertThat(slots.max.get()).isEqualTo(1);
        assertThat(g.waitingCount()).isZero();
        g.onSuccess(1);
        assertThat(g.inFlight()).isZero();
    }

    /** Adaptive LIFO: once a sample is above target, the newest waiter, thread or stage, goes first. */
    @Test
    void mixedWaitersAreGrantedNewestFirstWhileCongested() throws Exception {
        Slots slots = new Slots(ticker, 1);
        CoDelGate g = gate(slots, 10, true, Duration.ofHours(1), INLINE);
        assertThat(g.tryAcquire()).isTrue();
        ConcurrentLinkedQueue<String> order = new ConcurrentLinkedQueue<>();
        Thread[] threads = enqueueMixed(g, order);
        Thread s1 = threads[0];
        Thread s2 = threads[1];
        ticker.advance(Duration.ofMillis(10)); // every waiter has waited 10 ms, above the 5 ms target

        g.onSuccess(1); // not congested yet: the oldest (a1); its 10 ms sample makes the queue congested
        await().atMost(Duration.ofSeconds(60)).until(() -> order.size() == 1);
        g.onSuccess(1); // congested: the newest (s2)
        await().atMost(Duration.ofSeconds(60)).until(() -> order.size() == 2);
        g.onSuccess(1); // the newest left (a2)
        await().atMost(Duration.ofSeconds(60)).until(() -> order.size() == 3);
        g.onSuccess(1);
        await().atMost(Duration.ofSeconds(60)).until(() -> order.size() == 4);
        s1.join(60_000);
        s2.join(60_000);

        assertThat(order).containsExactly("a1", "s2", "a2", "s1");
        assertThat(g.shedCount()).isZero();
        g.onSuccess(1);
        assertThat(slots.out.get()).isZero();
        assertThat(g.inFlight()).isZero();
    }

    @Test
    void asyncAndSyncCallersShareTheBoundOnWaiters() {
        Slots slots = new Slots(ticker, 1);
        CoDelGate g = gate(slots, 2, true, Duration.ofHours(1), INLINE);
        assertThat(g.tryAcquire()).isTrue();
        CompletionStage<Void> first = g.acquireAsync(ticker.read());
        CompletionStage<Void> second = g.acquireAsync(ticker.read());
        assertThat(g.waitingCount()).isEqualTo(2);

        CompletionStage<Void> third = g.acquireAsync(ticker.read());
        assertThat(reason(third)).isEqualTo("queue_full");
        assertThat(g.decide(5, ticker.read())).isEqualTo(ShedDecision.QUEUE_FULL);
        assertThatThrownBy(() -> g.acquire(ticker.read())).isInstanceOfSatisfying(ShedException.class,
                e -> assertThat(e.reason()).isEqualTo("queue_full"));
        assertThat(g.shedCount(ShedDecision.QUEUE_FULL)).isEqualTo(2);
        assertThat(g.waitingCount()).isEqualTo(2);

        g.onSuccess(1);
        g.onSuccess(1);
        assertThat(first.toCompletableFuture()).isCompleted();
        assertThat(second.toCompletableFuture()).isCompleted();
        g.onSuccess(1);
        assertThat(slots.out.get()).isZero();
        assertThat(g.inFlight()).isZero();
    }

    @Test
    void anAsyncWaiterIsRefusedAtMaxWaitByTheScheduler() {
        Slots slots = new Slots(ticker, 1);
        CapturingExecutor executor = new CapturingExecutor();
        CoDelGate g = gate(slots, 10, true, Duration.ofSeconds(1), executor);
        assertThat(g.tryAcquire()).isTrue();
        CompletionStage<Void> stage = g.acquireAsync(ticker.read());

        scheduler.advance(Duration.ofMillis(999)); // re-checks every 100 ms (interval), finds no permit
        executor.runAll();
        assertThat(stage.toCompletableFuture()).isNotDone();
        assertThat(g.waitingCount()).isEqualTo(1);

        scheduler.advance(Duration.ofMillis(1));
        assertThat(stage.toCompletableFuture()).as("refused on the executor, not the scheduler's thread").isNotDone();
        executor.runAll();
        assertThat(reason(stage)).isEqualTo("queue_timeout");
        assertThat(g.shedCount(ShedDecision.QUEUE_TIMEOUT)).isEqualTo(1);
        assertThat(g.waitingCount()).isZero();

        g.onSuccess(1); // the held permit comes back to nobody
        executor.runAll();
        assertThat(slots.out.get()).isZero();
        assertThat(g.inFlight()).isZero();
    }

    @Test
    void anAsyncWaiterNeverWaitsPastItsDeadline() {
        Slots slots = new Slots(ticker, 1);
        CoDelGate g = gate(slots, 10, true, Duration.ofSeconds(1), INLINE);
        assertThat(g.tryAcquire()).isTrue();
        CompletionStage<Void> stage;
        try (ContextScope s = Deadline.after(Duration.ofMillis(200), ticker).attach()) {
            stage = g.acquireAsync(ticker.read());
        }
        scheduler.advance(Duration.ofMillis(199));
        assertThat(stage.toCompletableFuture()).isNotDone();
        scheduler.advance(Duration.ofMillis(1));
        assertThat(reason(stage)).isEqualTo("deadline");
        assertThat(g.shedCount(ShedDecision.DEADLINE)).isEqualTo(1);

        try (ContextScope s = Deadline.afterNanos(0, ticker).attach()) {
            assertThat(reason(g.acquireAsync(ticker.read()))).as("a deadline already passed").isEqualTo("deadline");
        }
        assertThat(g.waitingCount()).isZero();
        CoDelGate noWait = gate(slots, 10, true, Duration.ZERO, INLINE);
        assertThat(reason(noWait.acquireAsync(ticker.read()))).isEqualTo("queue_timeout");
        assertThat(noWait.waitingCount()).isZero();
    }

    /** The sync test's seed schedule, with asynchronous waiters: the oldest remaining is dropped with codel. */
    @Test
    void codelDropsTheOldestAsyncWaiter() {
        Slots slots = new Slots(ticker, 1);
        CoDelGate g = gate(slots, 100, false, Duration.ofHours(1), INLINE);
        assertThat(g.tryAcquire()).isTrue();
        ConcurrentLinkedQueue<String> order = new ConcurrentLinkedQueue<>();
        for (int i = 1; i <= 5; i++) {
            asyncWaiter(g, "a" + i, order);
        }
        ticker.advance(Duration.ofMillis(10)); // head waited 10 ms: above target, first_above = +100 ms
        g.onSuccess(1);
        assertThat(order).containsExactly("a1");
        ticker.advance(Duration.ofMillis(100)); // enter dropping
        g.onSuccess(1);
        assertThat(order).containsExactly("a1", "a2");
        assertThat(g.isDropping()).isTrue();
        ticker.advance(Duration.ofMillis(100)); // drop_next: one granted, the oldest remaining dropped
        g.onSuccess(1);

        assertThat(order).containsExactlyInAnyOrder("a1", "a2", "a3", "a4:codel"); // one release, two endings
        assertThat(g.shedCount(ShedDecision.CODEL)).isEqualTo(1);
        assertThat(g.waitingCount()).isEqualTo(1);
        g.onSuccess(1);
        assertThat(order).hasSize(5).endsWith("a5");
        g.onSuccess(1);
        assertThat(slots.out.get()).isZero();
        assertThat(g.inFlight()).isZero();
    }

    @Test
    void aGrantIsCompletedOnTheExecutorOutsideTheReleasingCall() {
        Slots slots = new Slots(ticker, 1);
        CapturingExecutor executor = new CapturingExecutor();
        CoDelGate g = gate(slots, 10, true, Duration.ofHours(1), executor);
        assertThat(g.tryAcquire()).isTrue();
        CompletionStage<Void> stage = g.acquireAsync(ticker.read());

        g.onSuccess(1);
        assertThat(stage.toCompletableFuture()).isNotDone();
        assertThat(slots.out.get()).as("the permit is taken for the waiter at hand-off").isEqualTo(1);
        assertThat(executor.tasks).hasSize(1);
        executor.next().run();
        assertThat(stage.toCompletableFuture()).isCompletedWithValue(null);
        g.onSuccess(1);
        assertThat(slots.out.get()).isZero();
        assertThat(g.inFlight()).isZero();
    }

    @Test
    void aCancelledWaiterLeavesAtOnceAndIsNeverGranted() {
        Slots slots = new Slots(ticker, 1);
        CoDelGate g = gate(slots, 10, true, Duration.ofSeconds(1), INLINE);
        assertThat(g.tryAcquire()).isTrue();
        CompletionStage<Void> stage = g.acquireAsync(ticker.read());
        assertThat(g.waitingCount()).isEqualTo(1);

        assertThat(stage.toCompletableFuture().cancel(false)).isTrue();
        assertThat(g.waitingCount()).isZero();
        stage.toCompletableFuture().cancel(false); // a second cancel changes nothing
        stage.toCompletableFuture().completeExceptionally(new IllegalStateException("a caller's orTimeout"));
        assertThat(g.waitingCount()).isZero();

        g.onSuccess(1); // nobody waits: the permit goes back to the inner gate
        assertThat(slots.out.get()).isZero();
        assertThat(g.inFlight()).isZero();
        assertThat(scheduler.advance(Duration.ofSeconds(2))).as("its timer was cancelled").isZero();
        assertThat(g.shedCount()).isZero();
    }

    /** The race AsyncWaitQueue had: a permit handed to a waiter whose caller cancelled meanwhile goes back once. */
    @Test
    void aPermitHandedToAWaiterCancelledBeforeItsCompletionGoesBackOnceAndOnToTheNext() {
        Slots slots = new Slots(ticker, 1);
        CapturingExecutor executor = new CapturingExecutor();
        CoDelGate g = gate(slots, 10, true, Duration.ofHours(1), executor);
        assertThat(g.tryAcquire()).isTrue();
        CompletionStage<Void> cancelled = g.acquireAsync(ticker.read());
        CompletionStage<Void> next = g.acquireAsync(ticker.read());

        g.onSuccess(1); // the permit is taken for the first waiter; its completion is on the executor
        assertThat(slots.out.get()).isEqualTo(1);
        assertThat(cancelled.toCompletableFuture().cancel(false)).isTrue();
        assertThat(g.waitingCount()).isEqualTo(1);

        executor.next().run(); // finds the stage cancelled: the permit goes back, to the next waiter
        assertThat(slots.out.get()).isEqualTo(1);
        assertThat(g.inFlight()).isEqualTo(1);
        assertThat(next.toCompletableFuture()).isNotDone();
        executor.runAll();
        assertThat(next.toCompletableFuture()).isCompletedWithValue(null);
        assertThat(g.waitingCount()).isZero();

        g.onSuccess(1);
        assertThat(slots.out.get()).isZero();
        assertThat(g.inFlight()).isZero();
        assertThatThrownBy(() -> g.onSuccess(1)).as("nothing left to return: the permit went back once")
                .isInstanceOf(IllegalStateException.class);
    }

    /** What an asynchronous server runs: {@code Pipeline.executeAsync} waits in the queue, then calls and returns the permit. */
    @Test
    void pipelineExecuteAsyncWaitsForAPermitThenCallsAndReturnsIt() {
        Slots slots = new Slots(ticker, 1);
        CoDelGate g = gate(slots, 10, true, Duration.ofSeconds(1), INLINE);
        assertThat(g.tryAcquire()).isTrue();
        AtomicInteger calls = new AtomicInteger();
        CompletableFuture<String> response = new CompletableFuture<>();

        CompletableFuture<String> out = Pipeline.of(g).executeAsync(() -> {
            calls.incrementAndGet();
            return response;
        }).toCompletableFuture();
        assertThat(calls).as("waiting, not refused").hasValue(0);
        assertThat(g.waitingCount()).isEqualTo(1);

        g.onSuccess(1); // the holder leaves: the queued handler runs
        assertThat(calls).hasValue(1);
        assertThat(slots.out.get()).isEqualTo(1);
        response.complete("ok");
        assertThat(out).isCompletedWithValue("ok");
        assertThat(slots.out.get()).as("the permit came back with the response").isZero();
        assertThat(g.inFlight()).isZero();

        assertThat(g.tryAcquire()).isTrue();
        CompletableFuture<String> refused = Pipeline.of(g).executeAsync(() -> {
            calls.incrementAndGet();
            return response;
        }).toCompletableFuture();
        scheduler.advance(Duration.ofSeconds(1));
        assertThat(refused).isCompletedExceptionally();
        assertThatThrownBy(refused::join).hasCauseInstanceOf(ShedException.class);
        assertThat(calls).as("a refused handler never runs").hasValue(1);
    }

    @Test
    void anExecutorThatRejectsTheGrantGetsThePermitBackAndFailsTheStage() {
        Slots slots = new Slots(ticker, 1);
        CoDelGate g = gate(slots, 10, true, Duration.ofHours(1), task -> {
            throw new RejectedExecutionException("shut down");
        });
        assertThat(g.tryAcquire()).isTrue();
        CompletionStage<Void> stage = g.acquireAsync(ticker.read());
        g.onSuccess(1);
        assertThat(stage.toCompletableFuture()).isCompletedExceptionally();
        assertThatThrownBy(() -> stage.toCompletableFuture().join()).hasCauseInstanceOf(RejectedExecutionException.class);
        assertThat(slots.out.get()).isZero();
        assertThat(g.inFlight()).isZero();
        assertThat(g.waitingCount()).isZero();
    }

    /**
     * 16 threads, each a synchronous caller, an asynchronous one that waits, or one that cancels its
     * stage at once, over an inner gate of 4 and a bound of 8 waiters: the inner bound is never
     * exceeded, every call ends exactly once (granted, refused or cancelled), refusals are counted
     * exactly, and nothing is left held or waiting.
     */
    @Test
    void sixteenThreadsMixingSyncAsyncAndCancelledWaitersNeverExceedTheInnerBoundAndEveryWaiterEndsOnce()
            throws Exception {
        Slots slots = new Slots(ticker, 4);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        Executor executor = task -> pool.execute(() -> {
            try {
                task.run();
            } catch (Throwable t) {
                errors.add(t);
            }
        });
        CoDelGate g = gate(slots, 8, true, Duration.ofHours(1), executor);
        int threads = 16;
        int calls = 1_000;
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger maxInside = new AtomicInteger();
        AtomicInteger granted = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        AtomicInteger cancelled = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            SplittableRandom random = new SplittableRandom(t);
            workers.add(new Thread(() -> {
                try {
                    start.await();
                    for (int i = 0; i < calls; i++) {
                        int mode = random.nextInt(3);
                        boolean holds;
                        if (mode == 0) {
                            try {
                                g.acquire(ticker.read());
                                holds = true;
                            } catch (ShedException e) {
                                holds = false;
                            }
                        } else {
                            CompletableFuture<Void> stage = g.acquireAsync(ticker.read()).toCompletableFuture();
                            if (mode == 2 && stage.cancel(false)) {
                                cancelled.incrementAndGet();
                                continue;
                            }
                            try {
                                stage.join();
                                holds = true;
                            } catch (CompletionException e) {
                                if (!(e.getCause() instanceof ShedException)) {
                                    throw e;
                                }
                                holds = false;
                            }
                        }
                        if (holds) {
                            maxInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
                            inside.decrementAndGet();
                            granted.incrementAndGet();
                            g.onSuccess(1);
                        } else {
                            refused.incrementAndGet();
                        }
                    }
                } catch (Throwable e) {
                    errors.add(e);
                }
            }, "worker-" + t));
        }
        workers.forEach(Thread::start);
        start.countDown();
        for (Thread t : workers) {
            t.join(120_000);
            assertThat(t.isAlive()).as("a waiter never ended").isFalse();
        }
        pool.shutdown();
        assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).isTrue();

        assertThat(errors).isEmpty();
        assertThat(granted.get() + refused.get() + cancelled.get()).isEqualTo(threads * calls);
        assertThat(g.shedCount()).as("every refusal counted once, as queue_full").isEqualTo(refused.get())
                .isEqualTo(g.shedCount(ShedDecision.QUEUE_FULL));
        assertThat(slots.max.get()).isLessThanOrEqualTo(4);
        assertThat(maxInside.get()).isLessThanOrEqualTo(4);
        assertThat(slots.out.get()).as("no permit leaked").isZero();
        assertThat(g.inFlight()).isZero();
        assertThat(g.waitingCount()).isZero();
    }
}

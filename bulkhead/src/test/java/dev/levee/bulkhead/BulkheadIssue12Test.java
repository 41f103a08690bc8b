package dev.levee.bulkhead;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.levee.core.BulkheadFullException;
import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import dev.levee.core.Pipeline;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Issue 12 bugs 4 (async waits), 10 (keyed eviction) and 14 (double release), each failing on the old code. */
class BulkheadIssue12Test {
    private final ManualTicker ticker = new ManualTicker();
    private final ManualScheduler scheduler = new ManualScheduler(ticker);
    /** The async executor under test's control: completions wait here until the test runs them. */
    private final Queue<Runnable> handedOff = new ArrayDeque<>();
    private final Executor recording = task -> {
        synchronized (handedOff) {
            handedOff.add(task);
        }
    };

    private int runHandedOff() {
        int ran = 0;
        while (true) {
            Runnable task;
            synchronized (handedOff) {
                task = handedOff.poll();
            }
            if (task == null) {
                return ran;
            }
            task.run();
            ran++;
        }
    }

    private Bulkhead waitingBulkhead() {
        return Bulkhead.of("async", BulkheadConfig.builder().maxConcurrentCalls(1).maxWait(Duration.ofSeconds(1))
                .ticker(ticker).scheduler(scheduler).asyncExecutor(recording).build());
    }

    @Test
    void executeAsyncWithAWaitNeverBlocksTheCallerAndResumesOnTheAsyncExecutor() throws Exception {
        Bulkhead bulkhead = waitingBulkhead();
        assertThat(bulkhead.tryAcquire()).isTrue(); // the only slot is taken
        AtomicReference<Thread> ranOn = new AtomicReference<>();

        CompletionStage<String> stage = assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> bulkhead.executeAsync(() -> {
                    ranOn.set(Thread.currentThread());
                    return CompletableFuture.completedFuture("done");
                }), "executeAsync must return at once, not wait on the caller's thread");
        assertThat(stage.toCompletableFuture()).isNotDone();
        assertThat(bulkhead.waitingCount()).isEqualTo(1);

        bulkhead.onSuccess(0); // frees the slot: granted to the waiter, completion handed to the executor
        assertThat(ranOn.get()).as("the call does not run on the releasing thread").isNull();
        assertThat(runHandedOff()).isEqualTo(1);

        assertThat(stage.toCompletableFuture().get(60, SECONDS)).isEqualTo("done");
        assertThat(ranOn.get()).isSameAs(Thread.currentThread()); // the executor's (here: the test's) thread
        assertThat(bulkhead.activeCount()).isZero();
        assertThat(bulkhead.waitingCount()).isZero();
    }

    @Test
    void anAsyncWaitEndsOnTheSchedulerButTheRefusalIsDeliveredByTheExecutor() {
        Bulkhead bulkhead = waitingBulkhead();
        assertThat(bulkhead.tryAcquire()).isTrue();
        AtomicBoolean ran = new AtomicBoolean();
        CompletableFuture<String> stage = assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> bulkhead.executeAsync(() -> {
                    ran.set(true);
                    return CompletableFuture.completedFuture("x");
                })).toCompletableFuture();

        scheduler.advance(Duration.ofSeconds(1)); // the scheduler's "thread" only hands the refusal off
        assertThat(stage).as("not completed on the scheduler").isNotDone();
        runHandedOff();

        assertThat(stage).isCompletedExceptionally();
        assertThatThrownBy(stage::get).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(BulkheadFullException.class);
        assertThat(ran).isFalse();
        assertThat(bulkhead.waitingCount()).isZero();
        bulkhead.onSuccess(0);
        assertThat(bulkhead.activeCount()).isZero();
    }

    @Test
    void aPipelineWaitsAsynchronouslyInTheBulkheadToo() throws Exception {
        Bulkhead bulkhead = waitingBulkhead();
        Bulkhead outer = Bulkhead.of("outer", BulkheadConfig.builder().maxConcurrentCalls(5).ticker(ticker).build());
        assertThat(bulkhead.tryAcquire()).isTrue();
        Pipeline pipeline = Pipeline.of(outer, bulkhead);

        CompletableFuture<String> stage = assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> pipeline.executeAsync(() -> CompletableFuture.completedFuture("ok"))).toCompletableFuture();
        assertThat(stage).isNotDone();
        assertThat(outer.activeCount()).as("the outer gate's permit is held while the inner one waits").isEqualTo(1);

        bulkhead.onSuccess(0);
        runHandedOff();
        assertThat(stage.get(60, SECONDS)).isEqualTo("ok");
        assertThat(outer.activeCount()).isZero();
        assertThat(bulkhead.activeCount()).isZero();
    }

    @Test
    void aPipelineWhoseInnerWaitExpiresReleasesTheOuterGate() {
        Bulkhead bulkhead = waitingBulkhead();
        Bulkhead outer = Bulkhead.of("outer", BulkheadConfig.builder().maxConcurrentCalls(5).ticker(ticker).build());
        assertThat(bulkhead.tryAcquire()).isTrue();

        CompletableFuture<String> stage = Pipeline.of(outer, bulkhead)
                .executeAsync(() -> CompletableFuture.completedFuture("ok")).toCompletableFuture();
        scheduler.advance(Duration.ofSeconds(1));
        runHandedOff();

        assertThat(stage).isCompletedExceptionally();
        assertThat(outer.activeCount()).isZero();
    }

    @Test
    void aBulkheadHeldAcrossAnEvictionCannotAdmitBesideTheKeysFreshOne() {
        BulkheadConfig perKey = BulkheadConfig.builder().maxConcurrentCalls(1).ticker(ticker).build();
        KeyedBulkhead<String> keyed = KeyedBulkhead.of("tenants", KeyedBulkheadConfig.builder().perKey(perKey).maxEntries(1)
                .build());
        Bulkhead held = keyed.forKey("a"); // a caller looked the key up...
        keyed.forKey("b");                // ...then "a" was evicted, idle, to make room

        int admittedForA = 0;
        if (held.tryAcquire()) {
            admittedForA++;
        }
        if (keyed.forKey("a").tryAcquire()) {
            admittedForA++;
        }
        assertThat(admittedForA).as("calls inside key 'a', limited to 1").isLessThanOrEqualTo(1);
        assertThatThrownBy(() -> held.execute(() -> "x")).isInstanceOf(BulkheadFullException.class)
                .hasMessageContaining("evicted");
    }

    @Test
    void keyedExecuteLooksTheKeyUpAgainWhenItsBulkheadWasRetired() throws Exception {
        BulkheadConfig perKey = BulkheadConfig.builder().maxConcurrentCalls(1).ticker(ticker).build();
        KeyedBulkhead<String> keyed = KeyedBulkhead.of("tenants", KeyedBulkheadConfig.builder().perKey(perKey).maxEntries(1)
                .build());
        for (int i = 0; i < 100; i++) {
            assertThat(keyed.execute(i % 2 == 0 ? "a" : "b", () -> "ok")).isEqualTo("ok");
            assertThat(keyed.executeAsync(i % 3 == 0 ? "a" : "c", () -> CompletableFuture.completedFuture("ok"))
                    .toCompletableFuture().get(60, SECONDS)).isEqualTo("ok");
        }
    }

    @Test
    void aSecondReleaseIsReportedAndNeverMovesTheCountBelowZero() throws Exception {
        Bulkhead bulkhead = Bulkhead.of("twice", BulkheadConfig.builder().maxConcurrentCalls(1).ticker(ticker).build());
        assertThat(bulkhead.tryAcquire()).isTrue();
        bulkhead.onSuccess(0);
        assertThatThrownBy(() -> bulkhead.onSuccess(0)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("already returned");
        assertThat(bulkhead.activeCount()).isZero();

        // Race a thread returning permits it never took against one watching the count: with a
        // decrement-then-undo the watcher sees -1 (a moment in which a second caller could enter).
        AtomicInteger lowest = new AtomicInteger();
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch started = new CountDownLatch(2);
        Thread misuser = new Thread(() -> {
            started.countDown();
            for (int i = 0; i < 500_000 && lowest.get() >= 0; i++) {
                try {
                    bulkhead.onIgnored();
                } catch (IllegalStateException expected) {
                    // reported
                }
            }
            stop.set(true);
        });
        Thread watcher = new Thread(() -> {
            started.countDown();
            while (!stop.get()) {
                int seen = bulkhead.activeCount();
                if (seen < 0) {
                    lowest.set(seen);
                    return;
                }
            }
        });
        misuser.start();
        watcher.start();
        misuser.join();
        stop.set(true);
        watcher.join();
        assertThat(lowest.get()).as("lowest count another thread saw").isZero();
    }
}

package dev.levee.bulkhead;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.levee.core.internal.VirtualThreads;
import dev.levee.core.BulkheadFullException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/**
 * Issue 12, bug 15: what {@code close()} guarantees, the awaiting close, idle core threads, and the
 * virtual-thread admission at shutdown and on cancel. Real threads, observed with Awaitility.
 */
class ThreadPoolBulkheadCloseTest {
    private static final Duration BOUND = Duration.ofSeconds(30);

    /** Waits for the latch and ignores interrupts: a call close() cannot stop. */
    private static String ignoringInterrupts(CountDownLatch started, CountDownLatch release) {
        started.countDown();
        boolean interrupted = false;
        while (true) {
            try {
                release.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return "finished";
    }

    @Test
    void closeReturnsAfterTheGraceWhileAnInterruptIgnoringCallRunsAndCloseAndAwaitWaitsForIt() throws Exception {
        ThreadPoolBulkhead bulkhead = ThreadPoolBulkhead.of("closing", ThreadPoolBulkheadConfig.builder().maxThreads(1)
                .closeGracePeriod(Duration.ZERO).build());
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<String> stuck = bulkhead.submit(() -> ignoringInterrupts(started, release));
        assertThat(started.await(30, SECONDS)).isTrue();

        assertThat(bulkhead.close(Duration.ZERO)).as("close(grace) reports the unfinished work").isFalse();
        assertThat(bulkhead.threadCount()).as("the worker still runs the call").isEqualTo(1);
        assertThat(bulkhead.closeAndAwait(Duration.ZERO)).as("not yet: the call ignores the interrupt").isFalse();

        release.countDown();
        assertThat(bulkhead.closeAndAwait(BOUND)).as("every worker thread ended").isTrue();
        assertThat(bulkhead.threadCount()).isZero();
        assertThat(stuck.get(30, SECONDS)).isEqualTo("finished");
    }

    @Test
    void idleCoreThreadsEndAfterKeepAliveSoAnUnclosedBulkheadHoldsNoThread() throws Exception {
        ThreadPoolBulkhead bulkhead = ThreadPoolBulkhead.of("idle", ThreadPoolBulkheadConfig.builder().maxThreads(2)
                .coreThreads(2).keepAlive(Duration.ofMillis(1)).build());
        assertThat(bulkhead.submit(() -> "x").get(30, SECONDS)).isEqualTo("x");

        await().atMost(BOUND).until(() -> bulkhead.threadCount() == 0);
        assertThat(bulkhead.submit(() -> "again").get(30, SECONDS)).isEqualTo("again");
        bulkhead.close();
    }

    @Test
    void onVirtualThreadsATaskWaitingForASlotAtShutdownFailsWithBulkheadFull() throws Exception {
        assumeTrue(VirtualThreads.supported(), "virtual threads need JDK 21+");
        ThreadPoolBulkhead bulkhead = ThreadPoolBulkhead.of("vt-close", ThreadPoolBulkheadConfig.builder()
                .virtualThreads(true).maxThreads(1).queueCapacity(1).closeGracePeriod(Duration.ZERO).build());
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        CompletableFuture<String> running = bulkhead.submit(() -> {
            started.countDown();
            never.await();
            return "unreachable";
        });
        assertThat(started.await(30, SECONDS)).isTrue();
        CompletableFuture<String> waiting = bulkhead.submit(() -> "never runs");
        await().atMost(BOUND).until(() -> bulkhead.queueDepth() == 1);

        bulkhead.close(Duration.ZERO);

        assertThatThrownBy(() -> waiting.get(30, SECONDS)).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(BulkheadFullException.class);
        assertThatThrownBy(() -> running.get(30, SECONDS)).isInstanceOf(ExecutionException.class);
    }

    @Test
    void onVirtualThreadsACancelledRunningTaskKeepsItsAdmissionUntilItStops() throws Exception {
        assumeTrue(VirtualThreads.supported(), "virtual threads need JDK 21+");
        ThreadPoolBulkhead bulkhead = ThreadPoolBulkhead.of("vt-cancel", ThreadPoolBulkheadConfig.builder()
                .virtualThreads(true).maxThreads(1).queueCapacity(0).build());
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<String> first = bulkhead.submit(() -> ignoringInterrupts(started, release));
        assertThat(started.await(30, SECONDS)).isTrue();

        first.cancel(true); // the call ignores the interrupt and keeps running

        CompletableFuture<String> second = bulkhead.submit(() -> "second");
        assertThat(second).as("refused at once: the cancelled call still occupies the only slot")
                .isCompletedExceptionally();
        assertThatThrownBy(second::get).hasCauseInstanceOf(BulkheadFullException.class);

        release.countDown();
        await().atMost(BOUND).until(() -> bulkhead.threadCount() == 0);
        assertThat(bulkhead.submit(() -> "third").get(30, SECONDS)).isEqualTo("third");
        bulkhead.close();
    }
}

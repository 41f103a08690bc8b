package dev.levee.bulkhead;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Closing, awaiting, the queue figures and the event subscription of the thread-pool bulkhead. */
class ThreadPoolBulkheadLifecycleTest {
    private final CountDownLatch release = new CountDownLatch(1);
    private final List<ThreadPoolBulkhead> toClose = new ArrayList<>();

    @AfterEach
    void closeAll() {
        release.countDown();
        Thread.interrupted();
        toClose.forEach(b -> b.close(Duration.ofSeconds(5)));
    }

    private ThreadPoolBulkhead pool(int maxThreads, int queueCapacity) {
        ThreadPoolBulkhead b = ThreadPoolBulkhead.of("tp", ThreadPoolBulkheadConfig.builder().maxThreads(maxThreads)
                .coreThreads(maxThreads).queueCapacity(queueCapacity).build());
        toClose.add(b);
        return b;
    }

    /** Submits a call that blocks until the test releases it, and waits until it runs. */
    private CompletableFuture<String> blockOne(ThreadPoolBulkhead b) throws InterruptedException {
        CountDownLatch started = new CountDownLatch(1);
        CompletableFuture<String> f = b.submit(() -> {
            started.countDown();
            release.await();
            return "released";
        });
        assertThat(started.await(60, TimeUnit.SECONDS)).isTrue();
        return f;
    }

    @Test
    void theQueueFiguresCountQueuedCalls() throws Exception {
        ThreadPoolBulkhead b = pool(1, 5);
        assertThat(b.isClosed()).isFalse();
        blockOne(b);
        CompletableFuture<String> q1 = b.submit(() -> "q1");
        CompletableFuture<String> q2 = b.submit(() -> "q2");
        assertThat(b.queueDepth()).isEqualTo(2);
        assertThat(b.remainingQueueCapacity()).isEqualTo(3);
        ThreadPoolBulkheadMetrics metrics = b.metrics();
        assertThat(metrics.queueDepth()).isEqualTo(2);
        assertThat(metrics.active()).isEqualTo(1);
        release.countDown();
        assertThat(q1.get(60, TimeUnit.SECONDS)).isEqualTo("q1");
        assertThat(q2.get(60, TimeUnit.SECONDS)).isEqualTo("q2");
        assertThat(b.remainingQueueCapacity()).isEqualTo(5);
    }

    @Test
    void awaitTerminationIsFalseWhileOpenAndTrueOnceClosedAndDrained() throws Exception {
        ThreadPoolBulkhead b = pool(1, 1);
        assertThat(b.awaitTermination(Duration.ZERO)).isFalse();
        assertThat(b.close(Duration.ofSeconds(10))).isTrue();
        assertThat(b.isClosed()).isTrue();
        assertThat(b.awaitTermination(Duration.ZERO)).isTrue();
    }

    @Test
    void closingTwicePublishesOneClosedEventAndAnUnsubscribedListenerHearsNothing() throws Exception {
        ThreadPoolBulkhead b = pool(1, 1);
        List<BulkheadEvent> events = new ArrayList<>();
        List<BulkheadEvent> unsubscribed = new ArrayList<>();
        b.onEvent(events::add);
        b.onEvent(unsubscribed::add).close();
        b.close(Duration.ofSeconds(10));
        b.close(Duration.ofSeconds(10));
        assertThat(events).singleElement().isInstanceOf(BulkheadEvent.Closed.class);
        assertThat(unsubscribed).isEmpty();
    }

    @Test
    void anInterruptedCloseAndAwaitKeepsTheFlagAndStopsTheRunningCall() throws Exception {
        ThreadPoolBulkhead b = pool(1, 1);
        CompletableFuture<String> running = blockOne(b);
        Thread.currentThread().interrupt();
        // Whether the pool has terminated by the time the outcome is read is a race; the flag is not.
        b.closeAndAwait(Duration.ofSeconds(10));
        assertThat(Thread.interrupted()).as("the interrupt flag is restored").isTrue();
        assertThat(b.isClosed()).isTrue();
        // The grace was cut short: the running call was interrupted.
        assertThat(running.handle((r, e) -> e).get(60, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
    }

    @Test
    void anInterruptedCloseGivesUpAtOnceAndKeepsTheFlag() throws Exception {
        ThreadPoolBulkhead b = pool(1, 1);
        blockOne(b);
        Thread.currentThread().interrupt();
        assertThat(b.close(Duration.ofSeconds(10))).isFalse();
        assertThat(Thread.interrupted()).isTrue();
    }

    @Test
    void cancellingACompletedCallReportsFalse() throws Exception {
        ThreadPoolBulkhead b = pool(1, 1);
        CompletableFuture<String> done = b.submit(() -> "x");
        assertThat(done.get(60, TimeUnit.SECONDS)).isEqualTo("x");
        assertThat(done.cancel(true)).isFalse();
        CompletableFuture<String> blocked = blockOne(b);
        assertThat(blocked.cancel(true)).isTrue();
    }

    @Test
    void ofDefaultsUsesTheDefaultConfig() {
        ThreadPoolBulkhead b = ThreadPoolBulkhead.ofDefaults("d");
        toClose.add(b);
        assertThat(b.config().maxThreads()).isEqualTo(ThreadPoolBulkheadConfig.defaults().maxThreads());
        assertThat(b.name()).isEqualTo("d");
    }
}

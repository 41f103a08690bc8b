package dev.levee.bulkhead;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.BulkheadFullException;
import dev.levee.core.InvalidConfigException;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The {@code workQueue} hook: a user-supplied bounded queue replaces the built-in one. */
class ThreadPoolWorkQueueTest {

    @Test
    void theFactoryGetsTheCapacityAndItsQueueHoldsTheWaitingTasks() throws Exception {
        AtomicInteger askedFor = new AtomicInteger(-1);
        AtomicReference<BlockingQueue<Runnable>> made = new AtomicReference<>();
        ThreadPoolBulkhead pool = ThreadPoolBulkhead.of("queue", ThreadPoolBulkheadConfig.builder()
                .maxThreads(1).queueCapacity(2)
                .workQueue(capacity -> {
                    askedFor.set(capacity);
                    BlockingQueue<Runnable> q = new LinkedBlockingDeque<>(capacity);
                    made.set(q);
                    return q;
                })
                .build());
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch running = new CountDownLatch(1);
        try {
            CompletableFuture<String> first = pool.submit(() -> {
                running.countDown();
                release.await();
                return "first";
            });
            assertThat(running.await(30, TimeUnit.SECONDS)).isTrue();
            CompletableFuture<String> second = pool.submit(() -> "second");
            CompletableFuture<String> third = pool.submit(() -> "third");

            assertThat(askedFor.get()).isEqualTo(2);
            assertThat(made.get()).hasSize(2);
            assertThat(pool.queueDepth()).isEqualTo(2);
            // The user's queue is full: the bulkhead refuses, as with the built-in queue.
            CompletableFuture<String> fourth = pool.submit(() -> "fourth");
            assertThatThrownBy(() -> fourth.get(30, TimeUnit.SECONDS)).hasCauseInstanceOf(BulkheadFullException.class);

            release.countDown();
            assertThat(first.get(30, TimeUnit.SECONDS)).isEqualTo("first");
            assertThat(second.get(30, TimeUnit.SECONDS)).isEqualTo("second");
            assertThat(third.get(30, TimeUnit.SECONDS)).isEqualTo("third");
        } finally {
            release.countDown();
            assertThat(pool.closeAndAwait(Duration.ofSeconds(30))).isTrue();
        }
    }

    @Test
    void aWorkQueueWithVirtualThreadsIsRefused() {
        ThreadPoolBulkheadConfig.Builder builder = ThreadPoolBulkheadConfig.builder()
                .virtualThreads(true).workQueue(LinkedBlockingDeque::new);
        // On JDK 17 virtual threads are refused first; either way the message names the policy and field.
        assertThatThrownBy(builder::build).isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("ThreadPoolBulkhead");
    }

    @Test
    void toBuilderKeepsTheFactory() {
        ThreadPoolBulkheadConfig config = ThreadPoolBulkheadConfig.builder().workQueue(LinkedBlockingDeque::new).build();
        assertThat(config.toBuilder().build().workQueue()).isSameAs(config.workQueue());
        assertThat(ThreadPoolBulkheadConfig.defaults().workQueue()).isNull();
    }
}

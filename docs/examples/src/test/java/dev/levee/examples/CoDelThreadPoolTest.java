package dev.levee.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.bulkhead.ThreadPoolBulkhead;
import dev.levee.bulkhead.ThreadPoolBulkheadConfig;
import dev.levee.loadshed.queue.CoDelQueue;
import dev.levee.loadshed.queue.CoDelQueueConfig;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A CoDel queue plugged into a thread-pool bulkhead, as {@code docs/loadshed.md} shows. */
class CoDelThreadPoolTest {

    @Test
    void aThreadPoolBulkheadRunsItsWaitingTasksFromACoDelQueue() throws Exception {
        ThreadPoolBulkhead pool = ThreadPoolBulkhead.of("search", ThreadPoolBulkheadConfig.builder()
                .maxThreads(2).queueCapacity(100)
                .workQueue(capacity -> CoDelQueue.<Runnable>of("search",
                        CoDelQueueConfig.builder().maxSize(capacity).build()))
                .build());
        try {
            CompletableFuture<?>[] calls = new CompletableFuture<?>[20];
            for (int i = 0; i < calls.length; i++) {
                int n = i;
                calls[i] = pool.submit(() -> n * 2);
            }
            CompletableFuture.allOf(calls).get(30, TimeUnit.SECONDS);
            for (int i = 0; i < calls.length; i++) {
                assertThat(calls[i].get()).isEqualTo(i * 2);
            }
        } finally {
            assertThat(pool.closeAndAwait(Duration.ofSeconds(30))).isTrue();
        }
    }
}

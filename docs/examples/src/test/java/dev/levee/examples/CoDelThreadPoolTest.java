package dev.levee.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.bulkhead.ThreadPoolBulkhead;
import dev.levee.bulkhead.ThreadPoolBulkheadConfig;
import dev.levee.core.ManualTicker;
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
                // The page's queue, on a manual ticker: on the system clock a worker started late on a loaded
                // machine lets a task wait past CoDel's 5 ms target for a 100 ms interval, and CoDel then
                // (correctly) drops it. Frozen time keeps every sojourn at 0, so all 20 tasks must run.
                .workQueue(capacity -> CoDelQueue.<Runnable>of("search",
                        CoDelQueueConfig.builder().maxSize(capacity).ticker(new ManualTicker()).build()))
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

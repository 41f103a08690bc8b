package dev.levee.bulkhead;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualTicker;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

class BulkheadMetricsTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private double gauge(String name, String tag) {
        return registry.get(name).tag("name", tag).gauge().value();
    }

    @Test
    void semaphoreGaugesAndRejectionCounter() {
        Bulkhead b = Bulkhead.of("db", BulkheadConfig.builder().maxConcurrentCalls(2).ticker(new ManualTicker()).build());
        new BulkheadMetricsBinder(b).bindTo(registry);
        b.tryAcquire();
        b.tryAcquire();
        b.tryAcquire();
        assertThat(gauge("levee.bulkhead.active", "db")).isEqualTo(2);
        assertThat(gauge("levee.bulkhead.available", "db")).isZero();
        assertThat(gauge("levee.bulkhead.waiting", "db")).isZero();
        assertThat(gauge("levee.bulkhead.limit", "db")).isEqualTo(2);
        assertThat(registry.get("levee.bulkhead.rejected").tag("name", "db").tag("kind", "bulkhead_full")
                .functionCounter().count()).isEqualTo(1);
        assertThat(b.metrics()).isEqualTo(new BulkheadMetrics(2, 2, 0, 0, 1));
        b.onSuccess(0);
        assertThat(gauge("levee.bulkhead.available", "db")).isEqualTo(1);
        assertThat(b.metrics().utilisation()).isEqualTo(0.5);
    }

    @Test
    void threadPoolGaugesIncludingQueueDepth() throws Exception {
        ThreadPoolBulkhead b = ThreadPoolBulkhead.of("io", ThreadPoolBulkheadConfig.builder().maxThreads(1)
                .queueCapacity(2).build());
        try {
            BulkheadMetricsBinder.forThreadPools(b).bindTo(registry);
            CountDownLatch release = new CountDownLatch(1);
            CompletableFuture<Object> running = b.submit(() -> {
                release.await();
                return null;
            });
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> b.activeCount() == 1);
            CompletableFuture<Object> queued = b.submit(() -> null);
            b.submit(() -> null);
            b.submit(() -> null);
            assertThat(gauge("levee.bulkhead.threadpool.active", "io")).isEqualTo(1);
            assertThat(gauge("levee.bulkhead.queue.depth", "io")).isEqualTo(2);
            assertThat(gauge("levee.bulkhead.queue.capacity", "io")).isEqualTo(2);
            assertThat(gauge("levee.bulkhead.threadpool.limit", "io")).isEqualTo(1);
            assertThat(gauge("levee.bulkhead.threadpool.threads", "io")).isEqualTo(1);
            assertThat(registry.get("levee.bulkhead.rejected").tag("name", "io").functionCounter().count())
                    .isEqualTo(1);
            release.countDown();
            running.join();
            queued.join();
            Awaitility.await().atMost(Duration.ofSeconds(20))
                    .until(() -> registry.get("levee.bulkhead.completed").tag("name", "io").functionCounter().count() == 3);
        } finally {
            b.close(Duration.ofSeconds(5));
        }
    }

    @Test
    void keyedAndShardedBulkheads() {
        ManualTicker ticker = new ManualTicker();
        BulkheadConfig per = BulkheadConfig.builder().maxConcurrentCalls(1).ticker(ticker).build();
        KeyedBulkhead<String> keyed = KeyedBulkhead.of("tenants", KeyedBulkheadConfig.builder().perKey(per).maxEntries(2).build());
        BulkheadMetricsBinder.forKeyed(keyed).bindTo(registry);
        keyed.execute("a", () -> null);
        keyed.execute("b", () -> null);
        keyed.execute("c", () -> null);
        assertThat(gauge("levee.bulkhead.keys", "tenants")).isEqualTo(2);
        assertThat(gauge("levee.bulkhead.draining", "tenants")).isZero();
        assertThat(registry.get("levee.bulkhead.evictions").tag("name", "tenants").functionCounter().count())
                .isEqualTo(1);

        ShuffleShardedBulkhead sharded = ShuffleShardedBulkhead.of("shards", per, 4, 2, 1L);
        BulkheadMetricsBinder.forShuffleSharded(sharded).bindTo(registry);
        assertThat(gauge("levee.bulkhead.limit", "shards-3")).isEqualTo(1);
        assertThat(registry.get("levee.bulkhead.rejected").tag("name", "shards").functionCounter().count()).isZero();
    }
}

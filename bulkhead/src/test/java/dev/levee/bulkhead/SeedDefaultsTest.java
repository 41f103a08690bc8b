package dev.levee.bulkhead;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The "seed default — Levee default" table of {@code docs/bulkhead.md}, read from the builders. */
class SeedDefaultsTest {

    @Test
    void semaphoreBulkhead() {
        BulkheadConfig c = BulkheadConfig.builder().build();
        assertThat(c.maxConcurrentCalls()).isEqualTo(BulkheadConfig.DEFAULT_MAX_CONCURRENT_CALLS).isEqualTo(25); // 003
        assertThat(c.maxWait()).isEqualTo(BulkheadConfig.DEFAULT_MAX_WAIT).isZero(); // seeds: 5 s; see the page
        assertThat(c.fair()).isEqualTo(BulkheadConfig.DEFAULT_FAIR).isFalse();
        assertThat(c.saturationWarning()).isEqualTo(BulkheadConfig.DEFAULT_SATURATION_WARNING)
                .isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void threadPoolBulkhead() {
        ThreadPoolBulkheadConfig c = ThreadPoolBulkheadConfig.builder().build();
        assertThat(c.maxThreads()).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(c.queueCapacity()).isEqualTo(ThreadPoolBulkheadConfig.DEFAULT_QUEUE_CAPACITY).isEqualTo(100);
        assertThat(c.keepAlive()).isEqualTo(ThreadPoolBulkheadConfig.DEFAULT_KEEP_ALIVE).isEqualTo(Duration.ofSeconds(60));
        assertThat(c.closeGracePeriod()).isEqualTo(ThreadPoolBulkheadConfig.DEFAULT_CLOSE_GRACE_PERIOD)
                .isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void keyedBulkhead() {
        KeyedBulkheadConfig c = KeyedBulkheadConfig.builder().build();
        assertThat(c.maxEntries()).isEqualTo(KeyedBulkheadConfig.DEFAULT_MAX_ENTRIES).isEqualTo(10_000);
        assertThat(c.idleTimeout()).isEqualTo(KeyedBulkheadConfig.DEFAULT_IDLE_TIMEOUT).isEqualTo(Duration.ofMinutes(10));
    }
}

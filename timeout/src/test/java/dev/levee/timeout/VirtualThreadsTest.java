package dev.levee.timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.levee.core.internal.VirtualThreads;
import java.time.Duration;
import java.util.concurrent.ThreadPoolExecutor;
import org.junit.jupiter.api.Test;

/** The default executor: virtual threads on JDK 21+, a bounded daemon pool on 17. */
class VirtualThreadsTest {
    private static final boolean JDK_21_PLUS = Runtime.version().feature() >= 21;

    @Test
    void virtualThreadsAreAvailableExactlyOnJdk21AndLater() {
        assertThat(TimeoutExecutors.virtualThreadsAvailable()).isEqualTo(JDK_21_PLUS);
    }

    @Test
    void theDefaultExecutorRunsCallsOnVirtualThreads() throws Exception {
        assumeTrue(JDK_21_PLUS, "virtual threads need JDK 21+");
        Timeout timeout = Timeout.of("vt", Duration.ofSeconds(30));
        Thread worker = timeout.execute(Thread::currentThread);
        assertThat(VirtualThreads.isVirtual(worker)).isTrue();
        assertThat(worker.getName()).startsWith("levee-timeout-");
    }

    @Test
    void onJdk17TheDefaultIsABoundedPoolOfDaemonThreads() throws Exception {
        assumeTrue(!JDK_21_PLUS, "only JDK 17 uses the pool");
        assertThat(TimeoutExecutors.defaultExecutor()).isInstanceOf(ThreadPoolExecutor.class);
        ThreadPoolExecutor pool = (ThreadPoolExecutor) TimeoutExecutors.defaultExecutor();
        assertThat(pool.getMaximumPoolSize()).isEqualTo(TimeoutExecutors.DEFAULT_POOL_SIZE);
        Thread worker = Timeout.of("pool", Duration.ofSeconds(30)).execute(Thread::currentThread);
        assertThat(worker.isDaemon()).isTrue();
        assertThat(VirtualThreads.isVirtual(worker)).isFalse();
        assertThatThrownBy(TimeoutExecutors::virtualThreadPerTask).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void boundedPoolValidatesItsSize() {
        assertThatThrownBy(() -> TimeoutExecutors.boundedDaemonPool(0))
                .hasMessageContaining("threads must be > 0 but was 0");
        ThreadPoolExecutor pool = TimeoutExecutors.boundedDaemonPool(3);
        try {
            assertThat(pool.getMaximumPoolSize()).isEqualTo(3);
            assertThat(pool.allowsCoreThreadTimeOut()).isTrue();
        } finally {
            pool.shutdownNow();
        }
    }
}

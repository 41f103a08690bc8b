package dev.levee.timeout;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.DeadlineExceededException;
import dev.levee.core.ManualTicker;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** 16 threads of mixed outcomes: every call is counted exactly once, under the right outcome. */
class TimeoutStressTest {

    @ParameterizedTest
    @EnumSource(TimeoutMode.class)
    void everyCallIsCountedExactlyOnceUnderItsOutcome(TimeoutMode mode) throws Exception {
        ManualTicker ticker = new ManualTicker();
        Timeout timeout = Timeout.of("stress", TimeoutConfig.builder().timeout(Duration.ofSeconds(30)).mode(mode)
                .ticker(ticker).build());
        int threads = 16;
        int perThread = mode == TimeoutMode.THREAD ? 300 : 5_000;
        AtomicLong ok = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        AtomicLong checkpointed = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(threads);
        IllegalStateException boom = new IllegalStateException("boom");
        for (int t = 0; t < threads; t++) {
            int seed = t;
            pool.execute(() -> {
                try {
                    start.await();
                    for (int i = 0; i < perThread; i++) {
                        int kind = (i + seed) % 3;
                        try {
                            Object r = timeout.execute(() -> {
                                if (kind == 1) {
                                    throw boom;
                                }
                                if (kind == 2) {
                                    // checkpoint with time left: must not throw
                                    Timeout.checkpoint();
                                    checkpointed.incrementAndGet();
                                }
                                return "ok";
                            });
                            if ("ok".equals(r)) {
                                ok.incrementAndGet();
                            }
                        } catch (IllegalStateException e) {
                            if (e == boom) {
                                failed.incrementAndGet();
                            }
                        } catch (DeadlineExceededException e) {
                            throw new AssertionError("no call should time out", e);
                        }
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    done.countDown();
                }
            });
        }
        start.countDown();
        assertThat(done.await(60, SECONDS)).isTrue();
        pool.shutdown();
        long total = (long) threads * perThread;
        assertThat(ok.get() + failed.get()).isEqualTo(total);
        assertThat(timeout.successCount()).isEqualTo(ok.get());
        assertThat(timeout.failureCount()).isEqualTo(failed.get());
        assertThat(timeout.timeoutCount()).isZero();
        assertThat(timeout.rejectedCount()).isZero();
        long expectedFailures = 0;
        long expectedCheckpoints = 0;
        for (int t = 0; t < threads; t++) {
            for (int i = 0; i < perThread; i++) {
                expectedFailures += (i + t) % 3 == 1 ? 1 : 0;
                expectedCheckpoints += (i + t) % 3 == 2 ? 1 : 0;
            }
        }
        assertThat(failed.get()).isEqualTo(expectedFailures);
        assertThat(checkpointed.get()).isEqualTo(expectedCheckpoints);
    }
}

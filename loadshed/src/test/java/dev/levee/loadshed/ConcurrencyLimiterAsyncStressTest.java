package dev.levee.loadshed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.Gate;
import dev.levee.loadshed.limit.FixedLimit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Sixteen threads, four waiting in {@code acquire} and twelve through {@code acquireAsync}, share a
 * limit of 4 with a long maximum wait: nobody is ever refused, never more than 4 hold a slot, and at
 * the end every permit is back and nobody waits. Checked exactly.
 */
class ConcurrencyLimiterAsyncStressTest {
    private static final int THREADS = 16;
    private static final int OPS = 1_000;
    private static final int LIMIT = 4;

    @Test
    void threadsAndAsynchronousCallersShareTheLimitExactly() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            ConcurrencyLimiter l = ConcurrencyLimiter.of("async-stress", ConcurrencyLimiterConfig.builder()
                    .algorithm(() -> FixedLimit.of(LIMIT)).maxWait(Duration.ofMinutes(5)).maxWaiters(THREADS)
                    .waitOrder(ConcurrencyLimiterConfig.WaitOrder.FIFO).asyncExecutor(pool).build());
            AtomicInteger inside = new AtomicInteger();
            AtomicLong violations = new AtomicLong();
            AtomicLong completed = new AtomicLong();
            AtomicLong failures = new AtomicLong();
            AtomicLong waitedAsync = new AtomicLong();
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                boolean blocking = t < 4;
                Thread thread = new Thread(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                    for (int i = 0; i < OPS; i++) {
                        Runnable work = () -> {
                            if (inside.incrementAndGet() > LIMIT) {
                                violations.incrementAndGet();
                            }
                            Thread.yield();
                            inside.decrementAndGet();
                            completed.incrementAndGet();
                            l.onSuccess(1);
                        };
                        try {
                            if (blocking) {
                                l.acquire(l.ticker().read());
                                work.run();
                            } else {
                                CompletionStage<Void> permit = l.acquireAsync(l.ticker().read());
                                if (permit != Gate.granted()) {
                                    waitedAsync.incrementAndGet();
                                }
                                permit.thenRun(work).toCompletableFuture().get(1, TimeUnit.MINUTES);
                            }
                        } catch (Exception | AssertionError e) {
                            failures.incrementAndGet();
                        }
                    }
                });
                threads.add(thread);
                thread.start();
            }
            // Hold every slot until each of the 16 threads waits with its first request (4 in acquire, 12
            // queued through acquireAsync): the asynchronous queue is used in every run, not only in runs
            // whose threads happened to collide.
            for (int i = 0; i < LIMIT; i++) {
                assertThat(l.tryAcquire(l.ticker().read())).isTrue();
            }
            start.countDown();
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(60))
                    .until(() -> l.waiting() == THREADS);
            for (int i = 0; i < LIMIT; i++) {
                l.onSuccess(1);
            }
            for (Thread t : threads) {
                t.join();
            }
            assertThat(failures.get()).as("refusals or failed stages").isZero();
            assertThat(violations.get()).as("holders above the limit").isZero();
            assertThat(completed.get()).isEqualTo((long) THREADS * OPS);
            assertThat(l.inflight()).isZero();
            assertThat(l.waiting()).isZero();
            assertThat(l.metrics().rejected()).isZero();
            assertThat(waitedAsync.get()).as("asynchronous callers that waited").isGreaterThanOrEqualTo(THREADS - 4);
        } finally {
            pool.shutdownNow();
        }
    }
}

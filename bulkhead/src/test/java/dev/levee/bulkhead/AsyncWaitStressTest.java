package dev.levee.bulkhead;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * 16 threads of asynchronous callers through a bulkhead of 4 with a wait: the bound holds exactly, no
 * grant is lost (every call ends), every slot comes back, and nothing blocks a caller.
 */
class AsyncWaitStressTest {
    private static final int THREADS = 16;
    private static final int CALLS_PER_THREAD = 2_000;
    private static final int LIMIT = 4;

    @Test
    void theBoundHoldsAndEveryAsyncWaiterIsServed() throws Exception {
        ExecutorService completers = Executors.newFixedThreadPool(4);
        ExecutorService resumers = Executors.newFixedThreadPool(4);
        Bulkhead bulkhead = Bulkhead.of("stress", BulkheadConfig.builder().maxConcurrentCalls(LIMIT)
                .maxWait(Duration.ofMinutes(5)).asyncExecutor(resumers).build());
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger maxInside = new AtomicInteger();
        AtomicInteger succeeded = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        List<CompletableFuture<?>> all = java.util.Collections.synchronizedList(new ArrayList<>());
        try {
            for (int t = 0; t < THREADS; t++) {
                Thread thread = new Thread(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    for (int i = 0; i < CALLS_PER_THREAD; i++) {
                        CompletableFuture<Integer> stage = bulkhead.executeAsync(() -> {
                            int n = inside.incrementAndGet();
                            maxInside.accumulateAndGet(n, Math::max);
                            return CompletableFuture.supplyAsync(() -> {
                                inside.decrementAndGet();
                                return 1;
                            }, completers);
                        }).toCompletableFuture();
                        all.add(stage.whenComplete((v, f) -> {
                            if (f == null) {
                                succeeded.incrementAndGet();
                            } else {
                                failed.incrementAndGet();
                            }
                        }));
                    }
                });
                threads.add(thread);
                thread.start();
            }
            start.countDown();
            for (Thread thread : threads) {
                thread.join(SECONDS.toMillis(120));
            }
            CompletableFuture.allOf(all.toArray(new CompletableFuture<?>[0])).handle((v, f) -> null).get(120, SECONDS);

            assertThat(maxInside.get()).isLessThanOrEqualTo(LIMIT);
            assertThat(succeeded.get() + failed.get()).isEqualTo(THREADS * CALLS_PER_THREAD);
            assertThat(failed.get()).as("nobody waited 5 minutes").isZero();
            assertThat(bulkhead.activeCount()).isZero();
            assertThat(bulkhead.waitingCount()).isZero();
        } finally {
            completers.shutdownNow();
            resumers.shutdownNow();
        }
    }
}

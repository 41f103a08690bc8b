package dev.levee.bulkhead;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.BulkheadFullException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;

/** The invariants under contention, checked exactly. */
class BulkheadStressTest {
    private static final int THREADS = 16;

    /** Runs {@code body} on 16 threads released together and waits for all. */
    private static void hammer(Runnable body) throws InterruptedException {
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                    body.run();
                } catch (Throwable e) {
                    failures.add(e);
                }
            });
            threads.add(thread);
            thread.start();
        }
        start.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        assertThat(failures).isEmpty();
    }

    private static void enterCall(AtomicInteger inside, AtomicInteger maxSeen) {
        int now = inside.incrementAndGet();
        int seen;
        while (now > (seen = maxSeen.get()) && !maxSeen.compareAndSet(seen, now)) {
            // retry
        }
        inside.decrementAndGet();
    }

    @Test
    void sixteenThreadsTimesHundredThousandCallsNeverExceedFour() throws InterruptedException {
        int calls = 100_000;
        Bulkhead b = Bulkhead.of("stress", 4);
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger maxSeen = new AtomicInteger();
        LongAdder completions = new LongAdder();
        LongAdder rejections = new LongAdder();
        AtomicInteger threadIndex = new AtomicInteger();
        hammer(() -> {
            boolean viaProtocol = threadIndex.getAndIncrement() % 2 == 0;
            for (int i = 0; i < calls; i++) {
                if (viaProtocol) {
                    if (b.tryAcquire(0L)) {
                        try {
                            enterCall(inside, maxSeen);
                        } finally {
                            b.onSuccess(0L);
                        }
                        completions.increment();
                    } else {
                        rejections.increment();
                    }
                } else {
                    try {
                        b.execute(() -> {
                            enterCall(inside, maxSeen);
                            return null;
                        });
                        completions.increment();
                    } catch (BulkheadFullException e) {
                        rejections.increment();
                    }
                }
            }
        });
        assertThat(maxSeen.get()).isBetween(1, 4);
        assertThat(completions.sum() + rejections.sum()).isEqualTo((long) THREADS * calls);
        assertThat(b.rejectedCount()).isEqualTo(rejections.sum());
        assertThat(b.availablePermits()).isEqualTo(4);
        assertThat(b.activeCount()).isZero();
        assertThat(b.waitingCount()).isZero();
    }

    @Test
    void waitingCallersUnderContentionKeepTheBoundAndEveryPermit() throws InterruptedException {
        int calls = 5_000;
        Bulkhead b = Bulkhead.of("stress-wait", BulkheadConfig.builder().maxConcurrentCalls(4)
                .maxWait(Duration.ofSeconds(30)).build());
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger maxSeen = new AtomicInteger();
        LongAdder completions = new LongAdder();
        LongAdder rejections = new LongAdder();
        hammer(() -> {
            for (int i = 0; i < calls; i++) {
                try {
                    b.execute(() -> {
                        enterCall(inside, maxSeen);
                        Thread.yield();
                        return null;
                    });
                    completions.increment();
                } catch (BulkheadFullException e) {
                    rejections.increment();
                }
            }
        });
        assertThat(maxSeen.get()).isBetween(1, 4);
        assertThat(completions.sum() + rejections.sum()).isEqualTo((long) THREADS * calls);
        assertThat(b.rejectedCount()).isEqualTo(rejections.sum());
        assertThat(b.availablePermits()).isEqualTo(4);
        assertThat(b.waitingCount()).isZero();
    }

    @Test
    void fairWaitingUnderContentionKeepsTheBound() throws InterruptedException {
        int calls = 2_000;
        Bulkhead b = Bulkhead.of("stress-fair", BulkheadConfig.builder().maxConcurrentCalls(3).fair(true)
                .maxWait(Duration.ofSeconds(30)).build());
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger maxSeen = new AtomicInteger();
        AtomicLong done = new AtomicLong();
        hammer(() -> {
            for (int i = 0; i < calls; i++) {
                try {
                    b.execute(() -> {
                        enterCall(inside, maxSeen);
                        return null;
                    });
                } catch (BulkheadFullException ignored) {
                    // counted below through rejectedCount
                }
                done.incrementAndGet();
            }
        });
        assertThat(maxSeen.get()).isBetween(1, 3);
        assertThat(done.get()).isEqualTo((long) THREADS * calls);
        assertThat(b.availablePermits()).isEqualTo(3);
        assertThat(b.waitingCount()).isZero();
    }

    @Test
    void resizingWhileHammeredNeverExceedsTheLargestLimit() throws InterruptedException {
        int calls = 20_000;
        Bulkhead b = Bulkhead.of("stress-resize", BulkheadConfig.builder().maxConcurrentCalls(2)
                .maxWait(Duration.ofSeconds(30)).build());
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger maxSeen = new AtomicInteger();
        AtomicInteger threadIndex = new AtomicInteger();
        LongAdder finished = new LongAdder();
        hammer(() -> {
            boolean resizer = threadIndex.getAndIncrement() == 0;
            for (int i = 0; i < calls; i++) {
                if (resizer) {
                    b.resize(i % 2 == 0 ? 6 : 2);
                    continue;
                }
                try {
                    b.execute(() -> {
                        enterCall(inside, maxSeen);
                        return null;
                    });
                } catch (BulkheadFullException ignored) {
                    // rejections are fine here; the bound is what is checked
                }
                finished.increment();
            }
        });
        assertThat(maxSeen.get()).isBetween(1, 6);
        assertThat(finished.sum()).isEqualTo((long) (THREADS - 1) * calls);
        assertThat(b.activeCount()).isZero();
        assertThat(b.availablePermits()).isEqualTo(b.maxConcurrentCalls());
    }
}

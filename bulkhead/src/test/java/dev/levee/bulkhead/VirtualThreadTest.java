package dev.levee.bulkhead;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.levee.core.internal.VirtualThreads;
import dev.levee.core.BulkheadFullException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * On JDKs with virtual threads (21+; skipped on 17). The surefire configuration caps the virtual-thread
 * scheduler at 2 carriers and forbids it from adding carriers to compensate for pinned ones
 * ({@code jdk.virtualThreadScheduler.parallelism=2}, {@code maxPoolSize=2}), so a waiter that pinned its
 * carrier would starve everything else and these tests would time out.
 */
class VirtualThreadTest {
    private static final Duration BOUND = Duration.ofSeconds(30);

    @BeforeEach
    void requireVirtualThreads() {
        assumeTrue(VirtualThreads.supported(), "virtual threads need JDK 21+");
    }

    @Test
    void manyMoreWaitingVirtualThreadsThanCarriersAreAllAdmitted() throws Exception {
        int waiters = 500;
        Bulkhead b = Bulkhead.of("vt", BulkheadConfig.builder().maxConcurrentCalls(2).maxWait(Duration.ofMinutes(5))
                .build());
        assertThat(b.tryAcquire()).isTrue();
        assertThat(b.tryAcquire()).isTrue();
        ThreadFactory virtual = VirtualThreads.factory("vt-waiter-");
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger maxInside = new AtomicInteger();
        AtomicInteger admitted = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(waiters);
        for (int i = 0; i < waiters; i++) {
            virtual.newThread(() -> {
                try {
                    b.execute(() -> {
                        int n = inside.incrementAndGet();
                        maxInside.accumulateAndGet(n, Math::max);
                        inside.decrementAndGet();
                        return null;
                    });
                    admitted.incrementAndGet();
                } finally {
                    done.countDown();
                }
            }).start();
        }
        await().atMost(BOUND).until(() -> b.waitingCount() == waiters);
        // Every carrier would be pinned by now if waiting pinned; a fresh virtual thread must still run.
        CountDownLatch ran = new CountDownLatch(1);
        virtual.newThread(ran::countDown).start();
        assertThat(ran.await(BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();
        b.onSuccess(0);
        b.onSuccess(0);
        assertThat(done.await(BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(admitted.get()).isEqualTo(waiters);
        assertThat(maxInside.get()).isBetween(1, 2);
        assertThat(b.availablePermits()).isEqualTo(2);
        assertThat(b.waitingCount()).isZero();
    }

    @Test
    void threadPoolBulkheadOnVirtualThreadsBoundsConcurrencyAndQueue() throws Exception {
        ThreadPoolBulkhead b = ThreadPoolBulkhead.of("vpool", ThreadPoolBulkheadConfig.builder().virtualThreads(true)
                .maxThreads(3).queueCapacity(50).threadNamePrefix("vpool-").build());
        try {
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch threeInside = new CountDownLatch(3);
            AtomicInteger inside = new AtomicInteger();
            AtomicInteger maxInside = new AtomicInteger();
            List<CompletableFuture<Boolean>> accepted = new ArrayList<>();
            for (int i = 0; i < 53; i++) {
                accepted.add(b.submit(() -> {
                    maxInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
                    threeInside.countDown();
                    release.await();
                    inside.decrementAndGet();
                    return Thread.currentThread().getName().startsWith("vpool-");
                }));
            }
            await().atMost(BOUND).until(() -> b.activeCount() == 3);
            assertThat(b.queueDepth()).isEqualTo(50);
            assertThatThrownBy(() -> b.submit(() -> true).join()).cause().isInstanceOf(BulkheadFullException.class);
            assertThat(b.rejectedCount()).isEqualTo(1);
            // activeCount() counts a call from just before its body runs: release only once the three
            // bodies are really inside, or the first two may leave before the third enters and the
            // largest overlap seen is 2.
            assertThat(threeInside.await(BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();
            release.countDown();
            for (CompletableFuture<Boolean> f : accepted) {
                assertThat(f.get(BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();
            }
            assertThat(maxInside.get()).isEqualTo(3);
            await().atMost(BOUND).until(() -> b.threadCount() == 0);
        } finally {
            assertThat(b.close(Duration.ofSeconds(10))).isTrue();
        }
    }

    @Test
    void closingAVirtualPoolInterruptsWaitingAndRunningWork() throws Exception {
        ThreadPoolBulkhead b = ThreadPoolBulkhead.of("vclose", ThreadPoolBulkheadConfig.builder().virtualThreads(true)
                .maxThreads(1).queueCapacity(5).build());
        CountDownLatch started = new CountDownLatch(1);
        CompletableFuture<String> running = b.submit(() -> {
            started.countDown();
            new CountDownLatch(1).await();
            return "never";
        });
        // Submit the second only once the first holds the slot: virtual threads may start in any order.
        assertThat(started.await(BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();
        CompletableFuture<String> waiting = b.submit(() -> "never");
        await().atMost(BOUND).until(() -> b.activeCount() == 1);
        assertThat(b.close(Duration.ZERO)).isFalse();
        assertThat(b.awaitTermination(BOUND)).isTrue();
        assertThat(running).isCompletedExceptionally();
        assertThat(waiting).isCompletedExceptionally();
        assertThat(b.threadCount()).isZero();
    }
}

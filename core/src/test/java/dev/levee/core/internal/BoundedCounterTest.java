package dev.levee.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class BoundedCounterTest {

    @Test
    void incrementsOnlyBelowTheLimit() {
        BoundedCounter c = new BoundedCounter();
        assertThat(c.tryIncrement(2)).isEqualTo(1);
        assertThat(c.tryIncrement(2)).isEqualTo(2);
        assertThat(c.tryIncrement(2)).isEqualTo(-1);
        assertThat(c.get()).isEqualTo(2);
        assertThat(c.tryIncrement(3)).isEqualTo(3);
        assertThat(c.tryIncrement(0)).isEqualTo(-1);
    }

    @Test
    void decrementNeverGoesBelowZeroAndLeavesTheValueOnMisuse() {
        BoundedCounter c = new BoundedCounter();
        assertThat(c.decrement()).isEqualTo(BoundedCounter.NOT_HELD);
        assertThat(c.get()).isZero();
        c.tryIncrement(5);
        assertThat(c.decrement()).isEqualTo(1);
        assertThat(c.decrement()).isEqualTo(BoundedCounter.NOT_HELD);
        assertThat(c.get()).isZero();
        // The refused decrement made no room: the limit still admits exactly `limit` holders.
        assertThat(c.tryIncrement(1)).isEqualTo(1);
        assertThat(c.tryIncrement(1)).isEqualTo(-1);
    }

    @Test
    void theRecheckGivesBackAPermitALoweredLimitNoLongerCovers() {
        BoundedCounter c = new BoundedCounter();
        c.tryIncrement(10);
        c.tryIncrement(10);
        // The limit reads 10 before the CAS and 2 after it (a concurrent resize in between).
        int[] reads = {10, 2};
        AtomicInteger read = new AtomicInteger();
        AtomicInteger gaveBack = new AtomicInteger();
        int result = c.tryIncrement(() -> reads[Math.min(read.getAndIncrement(), 1)], gaveBack::incrementAndGet);
        assertThat(result).isEqualTo(-1);
        assertThat(gaveBack.get()).isEqualTo(1);
        assertThat(c.get()).isEqualTo(2);
    }

    @Test
    void theRecheckAdmitsWhenTheLimitHolds() {
        BoundedCounter c = new BoundedCounter();
        AtomicInteger gaveBack = new AtomicInteger();
        assertThat(c.tryIncrement(() -> 1, gaveBack::incrementAndGet)).isEqualTo(1);
        assertThat(c.tryIncrement(() -> 1, gaveBack::incrementAndGet)).isEqualTo(-1);
        assertThat(gaveBack.get()).isZero();
    }

    @Test
    void retiresOnlyFromZeroAndThenRefusesEverything() {
        BoundedCounter c = new BoundedCounter();
        c.tryIncrement(1);
        assertThat(c.retire()).isFalse();
        c.decrement();
        assertThat(c.retire()).isTrue();
        assertThat(c.isRetired()).isTrue();
        assertThat(c.retire()).isFalse();
        assertThat(c.get()).isZero();
        assertThat(c.tryIncrement(Integer.MAX_VALUE / 4)).isEqualTo(-1);
        assertThat(c.decrement()).isEqualTo(BoundedCounter.NOT_HELD);
        assertThat(c.isRetired()).isTrue();
    }

    /**
     * Sixteen threads acquire and release against a limit another thread keeps moving, with the
     * re-check: no holder ever sees more holders than the limit read after its admission allows at
     * its largest, and the count ends at exactly zero.
     */
    @Test
    void sixteenThreadsNeverExceedTheLimitAndEndAtZero() throws InterruptedException {
        BoundedCounter c = new BoundedCounter();
        AtomicInteger limit = new AtomicInteger(4);
        AtomicInteger holders = new AtomicInteger();
        AtomicLong violations = new AtomicLong();
        AtomicLong admitted = new AtomicLong();
        AtomicLong misuse = new AtomicLong();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 16; t++) {
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                for (int i = 0; i < 20_000; i++) {
                    int v = c.tryIncrement(limit::get, () -> {});
                    if (v < 0) {
                        continue;
                    }
                    admitted.incrementAndGet();
                    // The largest limit ever set is 8: nobody fits above it.
                    if (holders.incrementAndGet() > 8) {
                        violations.incrementAndGet();
                    }
                    Thread.yield();
                    holders.decrementAndGet();
                    if (c.decrement() == BoundedCounter.NOT_HELD) {
                        misuse.incrementAndGet();
                    }
                }
            });
            threads.add(thread);
            thread.start();
        }
        Thread mover = new Thread(() -> {
            for (int i = 0; i < 20_000 && threads.stream().anyMatch(Thread::isAlive); i++) {
                limit.set(1 + i % 8);
                Thread.yield();
            }
        });
        start.countDown();
        mover.start();
        for (Thread t : threads) {
            t.join();
        }
        mover.join();
        assertThat(violations.get()).isZero();
        assertThat(misuse.get()).isZero();
        assertThat(admitted.get()).isPositive();
        assertThat(c.get()).isZero();
        assertThat(c.decrement()).isEqualTo(BoundedCounter.NOT_HELD);
    }

    @Test
    void theRecheckingFormAdmitsUpToTheLimitItReadsAndGivesBackAboveIt() {
        BoundedCounter c = new BoundedCounter();
        AtomicInteger gaveBack = new AtomicInteger();
        assertThat(c.isRetired()).isFalse();
        assertThat(c.tryIncrement(() -> 2, gaveBack::incrementAndGet)).isEqualTo(1);
        assertThat(c.tryIncrement(() -> 2, gaveBack::incrementAndGet)).isEqualTo(2);   // exactly at the limit
        assertThat(c.tryIncrement(() -> 2, gaveBack::incrementAndGet)).isEqualTo(-1);
        assertThat(gaveBack).hasValue(0);
        // The limit drops between the CAS and the re-check: the permit goes back, then the retry fails.
        AtomicInteger reads = new AtomicInteger();
        BoundedCounter d = new BoundedCounter();
        assertThat(d.tryIncrement(() -> reads.getAndIncrement() == 0 ? 5 : 0, gaveBack::incrementAndGet)).isEqualTo(-1);
        assertThat(gaveBack).hasValue(1);
        assertThat(d.get()).isZero();
    }

    @Test
    void aRetiredCounterRefusesDecrementsAndStaysRetired() {
        BoundedCounter c = new BoundedCounter();
        assertThat(c.retire()).isTrue();
        assertThat(c.isRetired()).isTrue();
        assertThat(c.decrement()).isEqualTo(BoundedCounter.NOT_HELD);
        assertThat(c.isRetired()).isTrue();
        assertThat(c.tryIncrement(10)).isEqualTo(-1);
    }
}

package dev.levee.loadshed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualTicker;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Sixteen threads hammer one limiter while its algorithm moves the limit on every sample. Checked
 * exactly: in flight never above the limit in force at admission, every permit returned once, the
 * algorithm never run by two threads at once, and every counter exact at the end.
 */
class ConcurrencyLimiterStressTest {
    private static final int THREADS = 16;
    private static final int OPS = 20_000;

    private record Result(long attempts, long admitted, long drops, long violations) {}

    private static Result hammer(ConcurrencyLimiter l, ScriptedAlgorithm algorithm, boolean limitOnlyFalls)
            throws InterruptedException {
        AtomicInteger inside = new AtomicInteger();
        AtomicLong attempts = new AtomicLong();
        AtomicLong admitted = new AtomicLong();
        AtomicLong drops = new AtomicLong();
        AtomicLong violations = new AtomicLong();
        CountDownLatch start = new CountDownLatch(1);
        // Every slot is taken before the threads start and given back by the first thread refused: every
        // run refuses at least once, instead of only the runs whose threads happened to overlap.
        int heldSlots = l.limit();
        for (int h = 0; h < heldSlots; h++) {
            assertThat(l.tryAcquire(0)).isTrue(); // no refusal here: the limiter counts every one
        }
        java.util.concurrent.atomic.AtomicBoolean givenBack = new java.util.concurrent.atomic.AtomicBoolean();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int id = t;
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < OPS; i++) {
                    int limitBefore = l.limit();
                    attempts.incrementAndGet();
                    if (!l.tryAcquire(0)) {
                        if (!givenBack.get() && givenBack.compareAndSet(false, true)) {
                            for (int h = 0; h < heldSlots; h++) {
                                l.onIgnored();
                            }
                        }
                        continue;
                    }
                    admitted.incrementAndGet();
                    int in = inside.incrementAndGet();
                    // The limiter's count includes ours and is at most the limit in force at our admission;
                    // when limits only fall, that limit is at most the one read before asking.
                    if (in > algorithm.maxLimit() || limitOnlyFalls && in > limitBefore) {
                        violations.incrementAndGet();
                    }
                    // Hold the permit across a yield, so that threads overlap even on a busy 2-core machine.
                    Thread.yield();
                    inside.decrementAndGet();
                    switch ((i + id) % 3) {
                        case 0 -> l.onSuccess(i % 7);
                        case 1 -> {
                            drops.incrementAndGet();
                            l.onFailure(i % 11, new IllegalStateException());
                        }
                        default -> l.onIgnored();
                    }
                }
            });
            threads.add(thread);
            thread.start();
        }
        start.countDown();
        for (Thread t : threads) {
            t.join();
        }
        return new Result(attempts.get(), admitted.get(), drops.get(), violations.get());
    }

    private static void check(ConcurrencyLimiter l, ScriptedAlgorithm algorithm, Result r) {
        assertThat(r.violations()).isZero();
        assertThat(algorithm.concurrentWriters).isFalse();
        assertThat(l.inflight()).isZero();
        ConcurrencyLimiterMetrics m = l.metrics();
        assertThat(m.rejected()).isEqualTo(r.attempts() - r.admitted());
        assertThat(m.drops()).isEqualTo(r.drops());
        assertThat(r.admitted()).isGreaterThan(0);
        assertThat(r.attempts() - r.admitted()).as("refusals (every run has some: see hammer)").isPositive();
    }

    @Test
    void limitMovingUpAndDownOnEverySample() throws InterruptedException {
        IntUnaryOperator sawtooth = n -> 1 + (n / 3) % 16;
        ScriptedAlgorithm a = new ScriptedAlgorithm(8, 1, 16, sawtooth, false);
        ConcurrencyLimiter l = ConcurrencyLimiter.of("stress", ConcurrencyLimiterConfig.builder().algorithm(() -> a)
                .ticker(new ManualTicker()).build());
        check(l, a, hammer(l, a, false));
    }

    @Test
    void limitOnlyFallingIsNeverExceeded() throws InterruptedException {
        IntUnaryOperator falling = n -> Math.max(1, 16 - n / 4000);
        ScriptedAlgorithm a = new ScriptedAlgorithm(16, 1, 16, falling, false);
        ConcurrencyLimiter l = ConcurrencyLimiter.of("stress", ConcurrencyLimiterConfig.builder().algorithm(() -> a)
                .ticker(new ManualTicker()).build());
        check(l, a, hammer(l, a, true));
    }
}

package dev.levee.loadshed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualTicker;
import dev.levee.loadshed.internal.SampleCell;
import dev.levee.loadshed.limit.LimitAlgorithm;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Once completions contend for the algorithm's writer, samples are folded into per-thread cells and
 * applied in batches: none is lost, a drop reaches the algorithm as a drop at once, the slowest latency
 * of a batch is its latency, and a batch waits at most {@link ConcurrencyLimiter#BATCH_MAX_AGE_NANOS}.
 */
class ConcurrencyLimiterContendedTest {
    private final ManualTicker ticker = new ManualTicker(1_000_000_000L);

    /**
     * Puts completions into contended mode without depending on two threads happening to collide: one
     * completion is held inside the algorithm (so it holds the writer flag) while
     * {@link ConcurrencyLimiter#STRIPE_AFTER_COLLISIONS} others complete and find the writer busy. Then
     * 16 threads hammer the limiter in contended mode (the cells' single-writer check).
     */
    private static void makeContended(ConcurrencyLimiter l, HeldAlgorithm held) throws InterruptedException {
        CountDownLatch writerInside = held.holdNextUpdate();
        Thread writer = new Thread(() -> {
            if (l.tryAcquire(0)) {
                l.onSuccess(1);
            }
        }, "held-writer");
        writer.start();
        assertThat(writerInside.await(60, TimeUnit.SECONDS)).as("the writer is inside the algorithm").isTrue();
        for (int i = 0; i < ConcurrencyLimiter.STRIPE_AFTER_COLLISIONS; i++) {
            assertThat(l.tryAcquire(0)).isTrue();
            l.onSuccess(1); // finds the writer busy: one collision
        }
        held.release();
        writer.join(60_000);
        assertThat(writer.isAlive()).isFalse();
        assertThat(l.contended()).as("completions collided").isTrue();

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
                for (int i = 0; i < 5_000; i++) {
                    if (l.tryAcquire(0)) {
                        Thread.yield();
                        l.onSuccess(1);
                    }
                }
            });
            threads.add(thread);
            thread.start();
        }
        start.countDown();
        for (Thread t : threads) {
            t.join(60_000);
            assertThat(t.isAlive()).isFalse();
        }
    }

    /** The scripted algorithm, with a way to hold the next update (and so the writer flag) until released. */
    private static final class HeldAlgorithm implements LimitAlgorithm {
        private final ScriptedAlgorithm delegate;
        private final CountDownLatch release = new CountDownLatch(1);
        private volatile CountDownLatch entered;

        HeldAlgorithm(ScriptedAlgorithm delegate) {
            this.delegate = delegate;
        }

        CountDownLatch holdNextUpdate() {
            CountDownLatch latch = new CountDownLatch(1);
            entered = latch;
            return latch;
        }

        void release() {
            release.countDown();
        }

        @Override
        public int initialLimit() {
            return delegate.initialLimit();
        }

        @Override
        public int minLimit() {
            return delegate.minLimit();
        }

        @Override
        public int maxLimit() {
            return delegate.maxLimit();
        }

        @Override
        public int update(long nowNanos, long rttNanos, int inflight, boolean drop) {
            CountDownLatch latch = entered;
            if (latch != null) {
                entered = null;
                latch.countDown();
                boolean interrupted = false;
                while (true) {
                    try {
                        release.await();
                        break;
                    } catch (InterruptedException e) {
                        interrupted = true;
                    }
                }
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
            return delegate.update(nowNanos, rttNanos, inflight, drop);
        }
    }

    @Test
    void aSingleThreadFeedsTheAlgorithmSampleBySample() {
        ScriptedAlgorithm a = ScriptedAlgorithm.fixed(100);
        ConcurrencyLimiter l = ConcurrencyLimiter.of("c", ConcurrencyLimiterConfig.builder().algorithm(() -> a)
                .ticker(ticker).build());
        for (int i = 0; i < 1_000; i++) {
            l.tryAcquire(ticker.read());
            l.onSuccess(i);
        }
        assertThat(l.contended()).isFalse();
        assertThat(a.samples).hasSize(1_000);
    }

    @Test
    void contendedSamplesAreBatchedAndNoneIsLost() throws InterruptedException {
        ScriptedAlgorithm a = ScriptedAlgorithm.fixed(1_000);
        HeldAlgorithm held = new HeldAlgorithm(a);
        ConcurrencyLimiter l = ConcurrencyLimiter.of("c", ConcurrencyLimiterConfig.builder().algorithm(() -> held)
                .ticker(ticker).build());
        makeContended(l, held);
        // Whatever the storm left in the cells goes with the next completion after the age bound.
        ticker.advance(ConcurrencyLimiter.BATCH_MAX_AGE_NANOS);
        l.tryAcquire(ticker.read());
        l.onSuccess(0);
        long applied = l.metrics().samples();
        int recorded = a.samples.size();

        // From one thread: a batch of fast samples is held until the cell is full...
        long start = ticker.read();
        for (int i = 1; i < ConcurrencyLimiter.BATCH; i++) {
            l.tryAcquire(start);
            l.onSuccess(i * 10L);
        }
        assertThat(a.samples).hasSize(recorded);
        // ...and applied as one sample with the slowest latency when it is.
        l.tryAcquire(start);
        l.onSuccess(5);
        assertThat(a.samples).hasSize(recorded + 1);
        ScriptedAlgorithm.Sample batch = a.samples.get(recorded);
        assertThat(batch.rtt()).isEqualTo((ConcurrencyLimiter.BATCH - 1) * 10L);
        assertThat(batch.drop()).isFalse();
        assertThat(l.metrics().samples()).isEqualTo(applied + 1);

        // A drop is applied at once, with the samples folded before it, as a drop.
        l.tryAcquire(start);
        l.onSuccess(3);
        l.tryAcquire(start);
        l.onFailure(2, new IllegalStateException("overloaded"));
        assertThat(a.samples).hasSize(recorded + 2);
        assertThat(a.samples.get(recorded + 1)).isEqualTo(new ScriptedAlgorithm.Sample(start, 3, 0, true));

        // A lone sample waits at most the age bound.
        l.tryAcquire(start);
        l.onSuccess(4);
        assertThat(a.samples).hasSize(recorded + 2);
        ticker.advance(ConcurrencyLimiter.BATCH_MAX_AGE_NANOS);
        l.tryAcquire(ticker.read());
        l.onSuccess(1);
        assertThat(a.samples).hasSize(recorded + 3);
        assertThat(a.samples.get(recorded + 2).rtt()).isEqualTo(4);
        assertThat(l.inflight()).isZero();
        assertThat(a.concurrentWriters).isFalse();
    }

    @Test
    void aCellKeepsTheLargestLatencyAnyDropAndTheCount() {
        SampleCell c = new SampleCell();
        assertThat(c.take()).isZero();
        assertThat(c.add(5, false)).isEqualTo(1);
        assertThat(c.add(9, true)).isEqualTo(2);
        assertThat(c.add(7, false)).isEqualTo(3);
        long word = c.take();
        assertThat(SampleCell.rtt(word)).isEqualTo(9);
        assertThat(SampleCell.drop(word)).isTrue();
        assertThat(c.take()).isZero();
        for (int i = 0; i < 300; i++) {
            c.add(Long.MAX_VALUE, false);
        }
        word = c.take();
        assertThat(word & 0xFF).as("count saturates").isEqualTo(255);
        assertThat(SampleCell.rtt(word)).isEqualTo(SampleCell.MAX_RTT_NANOS);
        assertThat(SampleCell.drop(word)).isFalse();
    }
}

package dev.levee.timeout;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.DeadlineExceededException;
import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import dev.levee.testing.Concurrently;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Sixteen callers in INTERRUPT mode while another thread drives time: calls that block until
 * interrupted all end with the timeout, calls that return at once end either way (the timer may fire
 * as they return), every call is counted once, and no caller's interrupt flag is ever left set.
 */
class InterruptTimeoutStressTest {
    private static final long MS = 1_000_000L;

    @Test
    void everyBlockedCallIsInterruptedAndNoInterruptLeaks() throws Exception {
        ManualTicker ticker = new ManualTicker();
        ManualScheduler scheduler = new ManualScheduler(ticker);
        Timeout timeout = Timeout.of("stress", TimeoutConfig.builder().timeout(Duration.ofMillis(3))
                .mode(TimeoutMode.INTERRUPT).ticker(ticker).scheduler(scheduler).build());
        int perThread = 300;
        AtomicLong blockedTimedOut = new AtomicLong();
        AtomicLong blocked = new AtomicLong();
        AtomicLong leaks = new AtomicLong();
        AtomicLong wrong = new AtomicLong();
        AtomicBoolean done = new AtomicBoolean();
        Thread clock = new Thread(() -> {
            while (!done.get()) {
                scheduler.advance(MS / 2);
                Thread.onSpinWait();
            }
        }, "clock");
        clock.start();
        try {
            Concurrently.run(Concurrently.THREADS, thread -> {
                SplittableRandom random = new SplittableRandom(thread);
                for (int i = 0; i < perThread; i++) {
                    boolean blocks = random.nextInt(4) == 0;
                    try {
                        Object value = timeout.execute(() -> {
                            if (blocks) {
                                new CountDownLatch(1).await(); // until the timer interrupts it
                            }
                            return "fast";
                        });
                        if (blocks || !"fast".equals(value)) {
                            wrong.incrementAndGet();
                        }
                    } catch (DeadlineExceededException e) {
                        if (blocks) {
                            blockedTimedOut.incrementAndGet();
                        }
                    }
                    if (blocks) {
                        blocked.incrementAndGet();
                    }
                    if (Thread.currentThread().isInterrupted()) {
                        leaks.incrementAndGet();
                        Thread.interrupted();
                    }
                }
            });
        } finally {
            done.set(true);
            clock.join();
        }
        long total = (long) Concurrently.THREADS * perThread;
        assertThat(wrong.get()).as("a blocked call returned, or a value changed").isZero();
        assertThat(leaks.get()).as("interrupt flags left set after a call").isZero();
        assertThat(blockedTimedOut.get()).isEqualTo(blocked.get()).isPositive();
        assertThat(timeout.successCount() + timeout.timeoutCount()).isEqualTo(total);
        assertThat(timeout.timeoutCount()).isGreaterThanOrEqualTo(blocked.get());
    }
}

package dev.levee.retry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualTicker;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Sixteen threads share one Retry and one budget; every invariant is checked exactly. */
class RetryConcurrencyTest {

    @Test
    void sixteenThreadsSharingARetryKeepEveryCountExact() throws Exception {
        ManualTicker ticker = new ManualTicker();
        RetryBudget budget = RetryBudget.of("shared", RetryBudgetConfig.builder().ticker(ticker)
                .retryRatio(0.1).minRetriesPerSecond(0).build());
        Retry retry = Retry.of("shared", RetryConfig.builder().ticker(ticker).sleeper(nanos -> { })
                .backoff(Backoff.constant(Duration.ofMillis(1))).jitter(Jitter.none()).maxAttempts(3).budget(budget).build());
        int threads = 16;
        int callsPerThread = 2_000;
        AtomicLong attempts = new AtomicLong();
        AtomicLong succeeded = new AtomicLong();
        AtomicLong failedWithOwnException = new AtomicLong();
        AtomicLong wrongException = new AtomicLong();
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            Thread worker = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < callsPerThread; i++) {
                    // Every 4th call fails on every attempt with an exception unique to the attempt.
                    boolean failing = (i + id) % 4 == 0;
                    IOException[] last = new IOException[1];
                    try {
                        retry.execute(() -> {
                            attempts.incrementAndGet();
                            if (failing) {
                                last[0] = new IOException("attempt");
                                throw last[0];
                            }
                            return "ok";
                        });
                        succeeded.incrementAndGet();
                    } catch (IOException e) {
                        if (e == last[0]) {
                            failedWithOwnException.incrementAndGet();
                        } else {
                            wrongException.incrementAndGet();
                        }
                    }
                }
            });
            worker.start();
            workers.add(worker);
        }
        go.countDown();
        for (Thread worker : workers) {
            worker.join();
        }
        long calls = (long) threads * callsPerThread;
        long failingCalls = calls / 4;
        RetryMetrics m = retry.metrics();
        assertThat(wrongException).hasValue(0);
        assertThat(succeeded.get()).isEqualTo(calls - failingCalls);
        assertThat(failedWithOwnException.get()).isEqualTo(failingCalls);
        assertThat(m.calls()).isEqualTo(calls);
        assertThat(m.successfulWithoutRetry()).isEqualTo(calls - failingCalls);
        assertThat(m.failedWithRetry() + m.failedWithoutRetry()).isEqualTo(failingCalls);
        assertThat(attempts.get()).isEqualTo(calls + m.retries());
        // Time never moved: one bucket, so the budget bound is exact: retries <= floor(0.1 · deposits).
        assertThat(m.retries()).isEqualTo(budget.withdrawals()).isLessThanOrEqualTo((long) (0.1 * calls));
        assertThat(budget.deposits()).isEqualTo(calls);
        assertThat(m.retries() + m.rejected()).as("every failed attempt before the last asked the budget")
                .isEqualTo(budget.withdrawals() + budget.refusals());
    }
}

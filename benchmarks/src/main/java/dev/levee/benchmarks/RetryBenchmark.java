package dev.levee.benchmarks;

import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeExecutor;
import dev.failsafe.RetryPolicy;
import dev.levee.core.CheckedSupplier;
import dev.levee.retry.Backoff;
import dev.levee.retry.Jitter;
import dev.levee.retry.Retry;
import dev.levee.retry.RetryBudget;
import dev.levee.retry.RetryBudgetConfig;
import dev.levee.retry.RetryConfig;
import io.github.resilience4j.core.IntervalFunction;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * A call that succeeds at the first attempt, through a retry: the cost every healthy call pays for
 * being retryable.
 *
 * <p><b>Fairness.</b> Every retry is configured to the same limits, though none of them retries here:
 * 3 attempts, exponential backoff from 100 ms doubling, randomized by ±50%.
 * <ul>
 *   <li>Levee: {@code maxAttempts(3)}, {@code Backoff.exponential(100 ms, 2, 10 s)},
 *       {@code Jitter.factor(0.5)}, no budget, like the peers ({@code leveeRetry}); {@code leveeRetryWithBudget}
 *       adds the default retry budget, a feature the peers lack (each call deposits into it: one
 *       thread-local read, one ticker read, one CAS);</li>
 *   <li>resilience4j 2.2.0: {@code maxAttempts(3)},
 *       {@code IntervalFunction.ofExponentialRandomBackoff(100 ms, 2, 0.5)};</li>
 *   <li>Failsafe 3.3.2: {@code withMaxAttempts(3)}, {@code withBackoff(100 ms, 10 s, 2)},
 *       {@code withJitter(0.5)}, run through a {@code FailsafeExecutor} built once.</li>
 * </ul>
 * The call returns a preallocated object, so any allocation measured is the retry's own.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RetryBenchmark {
    private final Object payload = new Object();
    private Retry levee;
    private Retry leveeWithBudget;
    private RetryBudget budget;
    private CheckedSupplier<Object, RuntimeException> leveeCall;
    private io.github.resilience4j.retry.Retry resilience4j;
    private Supplier<Object> resilience4jCall;
    private FailsafeExecutor<Object> failsafe;
    private dev.failsafe.function.CheckedSupplier<Object> failsafeCall;

    @Setup
    public void setUp() {
        RetryConfig.Builder config = RetryConfig.builder().maxAttempts(3)
                .backoff(Backoff.exponential(Duration.ofMillis(100), 2, Duration.ofSeconds(10))).jitter(Jitter.factor(0.5));
        levee = Retry.of("bench", config.build());
        leveeWithBudget = Retry.of("bench", config.defaultBudget().build());
        leveeCall = () -> payload;
        // Ratio 2: every request earns two retries, so the withdrawal below is (nearly) always granted.
        budget = RetryBudget.of("bench", RetryBudgetConfig.builder().retryRatio(2.0).build());

        resilience4j = io.github.resilience4j.retry.Retry.of("bench", io.github.resilience4j.retry.RetryConfig.custom()
                .maxAttempts(3)
                .intervalFunction(IntervalFunction.ofExponentialRandomBackoff(Duration.ofMillis(100), 2, 0.5))
                .build());
        resilience4jCall = () -> payload;

        failsafe = Failsafe.with(RetryPolicy.builder().withMaxAttempts(3)
                .withBackoff(Duration.ofMillis(100), Duration.ofSeconds(10), 2).withJitter(0.5).build());
        failsafeCall = () -> payload;
    }

    @Benchmark
    public Object leveeRetry() {
        return levee.execute(leveeCall);
    }

    @Benchmark
    public Object leveeRetryWithBudget() {
        return leveeWithBudget.execute(leveeCall);
    }

    /**
     * The budget's retry path: one deposit and one withdrawal (the allowance check reads the 20-40
     * buckets of each counter). Only failed calls pay it; no peer has a budget to compare with.
     *
     * @return whether the retry was granted
     */
    @Benchmark
    public boolean leveeBudgetDepositAndWithdraw() {
        budget.onRequestStart();
        return budget.tryRetry();
    }

    @Benchmark
    public Object resilience4jRetry() {
        return resilience4j.executeSupplier(resilience4jCall);
    }

    @Benchmark
    public Object failsafeRetryPolicy() {
        return failsafe.get(failsafeCall);
    }
}

package dev.levee.benchmarks;

import dev.levee.core.CheckedSupplier;
import dev.levee.retry.Backoff;
import dev.levee.retry.Jitter;
import dev.levee.retry.Retry;
import dev.levee.retry.RetryBudget;
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
 * A call that succeeds at the first attempt through a retry that has a retry budget (issue 13, item
 * 6): what the budget adds to every healthy call now that it is on by default.
 *
 * <p>Every retry: 3 attempts, exponential backoff from 100 ms doubling (cap 10 s), ±50% jitter.
 * <ul>
 *   <li>{@link #leveeRetrySharedBudget()} — Levee with one {@link RetryBudget} shared by name
 *       ({@code RetryBudget.ofDefaults}: 20%, 10/s, 10 s), as the docs recommend per downstream: each
 *       call deposits into it (one thread-local read for the nesting rule, one CAS on a striped
 *       counter, no clock read);</li>
 *   <li>{@link #leveeRetryDefault()} — Levee's default: a budget of the retry's own (same cost);</li>
 *   <li>{@link #leveeRetryWithoutBudget()} — Levee with {@code withoutBudget()}, for reference;</li>
 *   <li>{@link #resilience4jRetry()} — resilience4j {@code Retry} (which has no budget),
 *       {@code maxAttempts(3)}, {@code IntervalFunction.ofExponentialRandomBackoff(100 ms, 2, 0.5)}:
 *       the target's peer (shared budget &le; 1.5× this).</li>
 * </ul>
 * The call returns a preallocated object, so any allocation measured is the retry's own.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RetryBudgetBenchmark {
    private final Object payload = new Object();
    private Retry shared;
    private Retry ownBudget;
    private Retry withoutBudget;
    private CheckedSupplier<Object, RuntimeException> leveeCall;
    private io.github.resilience4j.retry.Retry resilience4j;
    private Supplier<Object> resilience4jCall;

    /** Builds the retries. */
    @Setup
    public void setUp() {
        RetryConfig.Builder config = RetryConfig.builder().maxAttempts(3)
                .backoff(Backoff.exponential(Duration.ofMillis(100), 2, Duration.ofSeconds(10))).jitter(Jitter.factor(0.5));
        shared = Retry.of("bench", config.budget(RetryBudget.ofDefaults("downstream")).build());
        ownBudget = Retry.of("bench", config.defaultBudget().build());
        withoutBudget = Retry.of("bench", config.withoutBudget().build());
        leveeCall = () -> payload;
        resilience4j = io.github.resilience4j.retry.Retry.of("bench", io.github.resilience4j.retry.RetryConfig.custom()
                .maxAttempts(3)
                .intervalFunction(IntervalFunction.ofExponentialRandomBackoff(Duration.ofMillis(100), 2, 0.5))
                .build());
        resilience4jCall = () -> payload;
    }

    /** @return the result through a Levee retry drawing on a shared budget */
    @Benchmark
    public Object leveeRetrySharedBudget() {
        return shared.execute(leveeCall);
    }

    /** @return the result through a Levee retry with its default (own) budget */
    @Benchmark
    public Object leveeRetryDefault() {
        return ownBudget.execute(leveeCall);
    }

    /** @return the result through a Levee retry without a budget */
    @Benchmark
    public Object leveeRetryWithoutBudget() {
        return withoutBudget.execute(leveeCall);
    }

    /** @return the result through resilience4j's retry */
    @Benchmark
    public Object resilience4jRetry() {
        return resilience4j.executeSupplier(resilience4jCall);
    }
}

package dev.levee.benchmarks;

import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeExecutor;
import dev.failsafe.RetryPolicy;
import dev.levee.bulkhead.Bulkhead;
import dev.levee.bulkhead.BulkheadConfig;
import dev.levee.circuitbreaker.CircuitBreaker;
import dev.levee.circuitbreaker.CircuitBreakerConfig;
import dev.levee.core.CheckedSupplier;
import dev.levee.core.Pipeline;
import dev.levee.core.Ticker;
import dev.levee.ratelimiter.RateLimitAlgorithm;
import dev.levee.ratelimiter.RateLimiter;
import dev.levee.ratelimiter.RateLimiterConfig;
import dev.levee.retry.Backoff;
import dev.levee.retry.Jitter;
import dev.levee.retry.Retry;
import dev.levee.retry.RetryConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig.SlidingWindowType;
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
 * The recommended composition, retry → circuit breaker → rate limiter → bulkhead around a trivial
 * call that succeeds, in Levee and in the two libraries that compose all four (issue 8's target: Levee
 * at most 0.45× resilience4j, and 0 B/op).
 *
 * <ul>
 *   <li>{@link #leveePipelineOfFour()} — {@code Pipeline.of(retry, breaker, limiter, bulkhead)}, built
 *       once; {@code pipeline.execute(call)}. The three gates share {@code Ticker.system()}, so the
 *       pipeline fuses them; the breaker keeps its default slow-call rule (it needs the latency) and
 *       the limiter needs "now", so the run reads the clock twice per call.</li>
 *   <li>{@link #leveeCoarseTickerPipelineOfFour(Coarse)} — the same four policies, every one configured with
 *       the opt-in {@code Ticker.coarse()} (1 ms): the two readings become volatile loads.</li>
 *   <li>{@link #resilience4jNestedDecorators()} — resilience4j 2.4.0, decorated once by hand the way
 *       its {@code Decorators} builder nests them:
 *       {@code Retry.decorateSupplier(retry, CircuitBreaker.decorateSupplier(breaker,
 *       RateLimiter.decorateSupplier(limiter, Bulkhead.decorateSupplier(bulkhead, call))))};
 *       {@code decorated.get()} per call.</li>
 *   <li>{@link #failsafeWith()} — Failsafe 3.3.2,
 *       {@code Failsafe.with(retryPolicy, circuitBreaker, rateLimiter, bulkhead)} (first = outermost,
 *       as in Levee), built once; {@code executor.get(call)}.</li>
 * </ul>
 *
 * <p><b>Same limits everywhere (fairness).</b>
 * <ul>
 *   <li>Retry: 3 attempts, exponential backoff from 100 ms, factor 2, jitter 0.5 (never used: the call
 *       succeeds first time). Levee's retry keeps its default retry budget, as a user gets it.</li>
 *   <li>Circuit breaker: count window of 100 calls, failure-rate threshold 50%, minimum 20 calls, 60 s
 *       open; CLOSED throughout (Failsafe: {@code withFailureThreshold(50, 100)}, 60 s delay).</li>
 *   <li>Rate limiter: 1,000,000,000 permits per second, no waiting — a permit is always available, so
 *       the benchmark measures the admitting path (Levee GCRA; resilience4j {@code AtomicRateLimiter}
 *       with {@code limitForPeriod 1e9}, {@code limitRefreshPeriod 1 s}, {@code timeoutDuration 0};
 *       Failsafe smooth limiter, 1e9 per second, no max wait).</li>
 *   <li>Bulkhead: 1000 concurrent calls, fail fast (resilience4j semaphore bulkhead,
 *       {@code maxWaitDuration 0}; Failsafe {@code Bulkhead.of(1000)}).</li>
 * </ul>
 * Every policy is built with defaults otherwise and has no listener. {@link #setUp()} runs each stack
 * once and checks the result, so a misconfigured peer fails the benchmark instead of measuring a
 * rejection.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class PipelineOfFourBenchmark {
    private static final Object RESULT = new Object();
    private static final int CONCURRENT_CALLS = 1000;
    private static final int PERMITS_PER_SECOND = 1_000_000_000;

    private final CheckedSupplier<Object, RuntimeException> leveeCall = () -> RESULT;
    private Pipeline levee;
    private Supplier<Object> resilience4j;
    private FailsafeExecutor<Object> failsafe;
    private final dev.failsafe.function.CheckedSupplier<Object> failsafeCall = () -> RESULT;

    /** Builds the three stacks with the same limits and checks that each lets the call through. */
    @Setup
    public void setUp() {
        levee = leveePipeline(Ticker.system());

        io.github.resilience4j.retry.Retry r4jRetry = io.github.resilience4j.retry.Retry.of("retry",
                io.github.resilience4j.retry.RetryConfig.custom()
                        .maxAttempts(3)
                        .intervalFunction(IntervalFunction.ofExponentialRandomBackoff(Duration.ofMillis(100), 2, 0.5))
                        .build());
        io.github.resilience4j.circuitbreaker.CircuitBreaker r4jBreaker =
                io.github.resilience4j.circuitbreaker.CircuitBreaker.of("breaker",
                        io.github.resilience4j.circuitbreaker.CircuitBreakerConfig.custom()
                                .slidingWindow(100, 20, SlidingWindowType.COUNT_BASED)
                                .failureRateThreshold(50)
                                .waitDurationInOpenState(Duration.ofSeconds(60))
                                .build());
        io.github.resilience4j.ratelimiter.RateLimiter r4jLimiter =
                io.github.resilience4j.ratelimiter.RateLimiter.of("limiter",
                        io.github.resilience4j.ratelimiter.RateLimiterConfig.custom()
                                .limitForPeriod(PERMITS_PER_SECOND)
                                .limitRefreshPeriod(Duration.ofSeconds(1))
                                .timeoutDuration(Duration.ZERO)
                                .build());
        io.github.resilience4j.bulkhead.Bulkhead r4jBulkhead = io.github.resilience4j.bulkhead.Bulkhead.of("bulkhead",
                io.github.resilience4j.bulkhead.BulkheadConfig.custom()
                        .maxConcurrentCalls(CONCURRENT_CALLS)
                        .maxWaitDuration(Duration.ZERO)
                        .build());
        Supplier<Object> call = () -> RESULT;
        resilience4j = io.github.resilience4j.retry.Retry.decorateSupplier(r4jRetry,
                io.github.resilience4j.circuitbreaker.CircuitBreaker.decorateSupplier(r4jBreaker,
                        io.github.resilience4j.ratelimiter.RateLimiter.decorateSupplier(r4jLimiter,
                                io.github.resilience4j.bulkhead.Bulkhead.decorateSupplier(r4jBulkhead, call))));

        failsafe = Failsafe.with(
                RetryPolicy.builder().withMaxAttempts(3)
                        .withBackoff(Duration.ofMillis(100), Duration.ofSeconds(10), 2).withJitter(0.5)
                        .build(),
                dev.failsafe.CircuitBreaker.builder()
                        .withFailureThreshold(50, 100)
                        .withDelay(Duration.ofSeconds(60))
                        .build(),
                dev.failsafe.RateLimiter.smoothBuilder(PERMITS_PER_SECOND, Duration.ofSeconds(1)).build(),
                dev.failsafe.Bulkhead.of(CONCURRENT_CALLS));

        for (int i = 0; i < 1000; i++) {
            check("Levee", leveePipelineOfFour());
            check("resilience4j", resilience4jNestedDecorators());
            check("Failsafe", failsafeWith());
        }
    }

    /**
     * The pipeline on the coarse ticker, in its own state so that only the forks measuring it start the
     * coarse ticker's updater thread (a wake-up every millisecond would otherwise run beside every row).
     */
    @State(Scope.Benchmark)
    public static class Coarse {
        Pipeline pipeline;

        /** Builds the pipeline on {@code Ticker.coarse()} and checks that it lets the call through. */
        @Setup
        public void setUp() {
            pipeline = leveePipeline(Ticker.coarse());
            for (int i = 0; i < 1000; i++) {
                check("Levee (coarse ticker)", pipeline.execute(() -> RESULT));
            }
        }
    }

    /** The four Levee policies, every one on {@code ticker} (one instance, so the three gates fuse). */
    private static Pipeline leveePipeline(Ticker ticker) {
        return Pipeline.of(
                Retry.of("retry", RetryConfig.builder().maxAttempts(3)
                        .backoff(Backoff.exponential(Duration.ofMillis(100), 2, Duration.ofSeconds(10)))
                        .jitter(Jitter.factor(0.5))
                        .ticker(ticker)
                        .build()),
                CircuitBreaker.of("breaker", CircuitBreakerConfig.builder()
                        .countWindow(100)
                        .failureRateThreshold(0.5)
                        .minimumNumberOfCalls(20)
                        .waitDurationInOpen(Duration.ofSeconds(60))
                        .ticker(ticker)
                        .build()),
                RateLimiter.of("limiter", RateLimiterConfig.builder()
                        .algorithm(RateLimitAlgorithm.GCRA)
                        .rate(PERMITS_PER_SECOND, Duration.ofSeconds(1))
                        .ticker(ticker)
                        .build()),
                Bulkhead.of("bulkhead", BulkheadConfig.builder().maxConcurrentCalls(CONCURRENT_CALLS).ticker(ticker).build()));
    }

    private static void check(String library, Object result) {
        if (result != RESULT) {
            throw new IllegalStateException(library + " pipeline did not return the call's result: " + result);
        }
    }

    /**
     * Levee: {@code Pipeline.of(retry, breaker, limiter, bulkhead).execute(call)}.
     *
     * @return the call's result
     */
    @Benchmark
    public Object leveePipelineOfFour() {
        return levee.execute(leveeCall);
    }

    /**
     * Levee: the same pipeline with every policy on the opt-in {@code Ticker.coarse()}.
     *
     * @param coarse the state holding the coarse-ticker pipeline
     * @return the call's result
     */
    @Benchmark
    public Object leveeCoarseTickerPipelineOfFour(Coarse coarse) {
        return coarse.pipeline.execute(leveeCall);
    }

    /**
     * resilience4j: the four decorators nested by hand, built once.
     *
     * @return the call's result
     */
    @Benchmark
    public Object resilience4jNestedDecorators() {
        return resilience4j.get();
    }

    /**
     * Failsafe: {@code Failsafe.with(retryPolicy, circuitBreaker, rateLimiter, bulkhead).get(call)}.
     *
     * @return the call's result
     */
    @Benchmark
    public Object failsafeWith() {
        return failsafe.get(failsafeCall);
    }
}

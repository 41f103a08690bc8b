package dev.levee.benchmarks;

import dev.levee.circuitbreaker.CircuitBreaker;
import dev.levee.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig.SlidingWindowType;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * A CLOSED breaker recording a realistic mix: every 50th call fails (2%, far below the 50% threshold,
 * so no breaker ever opens). Unlike {@link CircuitBreakerClosedBenchmark}, whose all-success traffic
 * lets Levee's count window skip writing entirely, here the count window always holds a failure, so
 * every success claims a slot: this is the cost of the general path.
 *
 * <p><b>Same limits for everyone</b>, as in {@link CircuitBreakerClosedBenchmark}: 50% failure rate,
 * minimum 20 calls, 60 s slow-call threshold and wait; count windows of 100 calls (Levee
 * {@code countWindow(100)}, resilience4j {@code COUNT_BASED} 100, Failsafe {@code withFailureThreshold(50, 100)})
 * and time windows of 10 s (Levee {@code timeWindow(10, 10)}, resilience4j {@code TIME_BASED} 10).
 *
 * <p><b>One operation</b>: acquire a permit, then record a success, or a failure with a preallocated
 * exception every 50th call of each benchmark thread: Levee {@code tryAcquire(now)} +
 * {@code onSuccess}/{@code onFailure}; resilience4j {@code tryAcquirePermission()} +
 * {@code onSuccess}/{@code onError}; Failsafe {@code tryAcquirePermit()} +
 * {@code recordSuccess}/{@code recordFailure}. Latencies are constants; time windows read their own clock.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CircuitBreakerMixedOutcomesBenchmark {
    private static final long LATENCY_NANOS = 1_000_000L;
    private static final long NOW = 42L;
    private static final int FAILURE_EVERY = 50;
    private static final IOException FAILURE = new IOException("every 50th call fails");

    private CircuitBreaker leveeCount;
    private CircuitBreaker leveeTime;
    private io.github.resilience4j.circuitbreaker.CircuitBreaker r4jCount;
    private io.github.resilience4j.circuitbreaker.CircuitBreaker r4jTime;
    private dev.failsafe.CircuitBreaker<Object> failsafe;

    /** Each benchmark thread's own call counter, so failures are every 50th call of each thread. */
    @State(Scope.Thread)
    public static class Calls {
        int n;

        boolean nextFails() {
            return ++n % FAILURE_EVERY == 0;
        }
    }

    @Setup
    public void setUp() {
        CircuitBreakerConfig base = CircuitBreakerConfig.builder()
                .failureRateThreshold(0.5)
                .minimumNumberOfCalls(20)
                .slowCallDurationThreshold(Duration.ofSeconds(60))
                .waitDurationInOpen(Duration.ofSeconds(60))
                .build();
        leveeCount = CircuitBreaker.of("count", base.toBuilder().countWindow(100).build());
        leveeTime = CircuitBreaker.of("time", base.toBuilder().timeWindow(10, 10).build());
        io.github.resilience4j.circuitbreaker.CircuitBreakerConfig r4jBase =
                io.github.resilience4j.circuitbreaker.CircuitBreakerConfig.custom()
                        .failureRateThreshold(50)
                        .minimumNumberOfCalls(20)
                        .slowCallDurationThreshold(Duration.ofSeconds(60))
                        .waitDurationInOpenState(Duration.ofSeconds(60))
                        .slidingWindow(100, 20, SlidingWindowType.COUNT_BASED)
                        .build();
        r4jCount = io.github.resilience4j.circuitbreaker.CircuitBreaker.of("count", r4jBase);
        r4jTime = io.github.resilience4j.circuitbreaker.CircuitBreaker.of("time",
                io.github.resilience4j.circuitbreaker.CircuitBreakerConfig.from(r4jBase)
                        .slidingWindow(10, 20, SlidingWindowType.TIME_BASED)
                        .build());
        failsafe = dev.failsafe.CircuitBreaker.builder()
                .withFailureThreshold(50, 100)
                .withDelay(Duration.ofSeconds(60))
                .build();
    }

    private static boolean levee(CircuitBreaker breaker, Calls calls) {
        boolean permitted = breaker.tryAcquire(NOW);
        if (calls.nextFails()) {
            breaker.onFailure(LATENCY_NANOS, FAILURE);
        } else {
            breaker.onSuccess(LATENCY_NANOS);
        }
        return permitted;
    }

    private static boolean resilience4j(io.github.resilience4j.circuitbreaker.CircuitBreaker breaker, Calls calls) {
        boolean permitted = breaker.tryAcquirePermission();
        if (calls.nextFails()) {
            breaker.onError(LATENCY_NANOS, TimeUnit.NANOSECONDS, FAILURE);
        } else {
            breaker.onSuccess(LATENCY_NANOS, TimeUnit.NANOSECONDS);
        }
        return permitted;
    }

    @Benchmark
    public boolean leveeCountBased(Calls calls) {
        return levee(leveeCount, calls);
    }

    @Benchmark
    public boolean leveeTimeBased(Calls calls) {
        return levee(leveeTime, calls);
    }

    @Benchmark
    public boolean resilience4jCountBased(Calls calls) {
        return resilience4j(r4jCount, calls);
    }

    @Benchmark
    public boolean resilience4jTimeBased(Calls calls) {
        return resilience4j(r4jTime, calls);
    }

    @Benchmark
    public boolean failsafeCountBased(Calls calls) {
        boolean permitted = failsafe.tryAcquirePermit();
        if (calls.nextFails()) {
            failsafe.recordFailure();
        } else {
            failsafe.recordSuccess();
        }
        return permitted;
    }
}

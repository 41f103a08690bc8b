package dev.levee.benchmarks;

import dev.levee.circuitbreaker.CircuitBreaker;
import dev.levee.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig.SlidingWindowType;
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
 * The hot path of every protected call: a CLOSED breaker grants a permit and records a fast success.
 *
 * <p><b>Same limits for everyone.</b> Every breaker trips at a 50% failure rate, counts a call slower
 * than 60 s as slow (so none is), stays open 60 s and is never tripped here:
 * <ul>
 *   <li>count windows of the last 100 calls with a minimum of 20: Levee
 *       {@code countWindow(100).minimumNumberOfCalls(20)} ({@link #leveeCountBased}), resilience4j
 *       {@code COUNT_BASED}, size 100, {@code minimumNumberOfCalls(20)}
 *       ({@link #resilience4jCountBased}); Failsafe {@code withFailureThreshold(50, 100)}, its count
 *       ring of the last 100 executions ({@link #failsafeCountBased});</li>
 *   <li>time windows of the last 10 s: Levee {@code timeWindow(10, 10)} (ten 1 s buckets),
 *       resilience4j {@code TIME_BASED}, size 10 (its 1 s buckets) ({@link #leveeTimeBased},
 *       {@link #resilience4jTimeBased}).</li>
 * </ul>
 *
 * <p><b>What one operation is.</b> Acquire a permit, then record a success of a given latency, through
 * each library's permit API without lambdas: Levee {@code tryAcquire(now)} + {@code onSuccess(latency)},
 * resilience4j {@code tryAcquirePermission()} + {@code onSuccess(latency, NANOSECONDS)}, Failsafe
 * {@code tryAcquirePermit()} + {@code recordSuccess()}. Nobody reads the clock to measure the call
 * (the latency is a constant, as a caller that already measured it would pass). resilience4j's time
 * window reads its own clock to find the bucket, as its API leaves it no other way. Levee's protocol
 * lets the caller that measured the latency pass the end reading too ({@code onResultAt}), which is
 * what a Levee {@code Pipeline} and {@code execute} do, so {@link #leveeTimeBased} reads no clock;
 * {@link #leveeTimeBasedOwnClock} is the plain {@code onSuccess(latency)} by hand, which makes the
 * window read the clock once, like resilience4j. Both are reported. No listener, no metrics binder:
 * the default production set-up of each library.
 *
 * <p><b>Caveat for the reader.</b> All-success traffic keeps Levee's count window full of fast successes,
 * which Levee recognises and does not write to at all (nothing would change); that is the steady state
 * of a healthy dependency, and the reason this row scales with threads. The general path, a window that
 * holds some failures, is measured by {@link CircuitBreakerMixedOutcomesBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CircuitBreakerClosedBenchmark {
    private static final long LATENCY_NANOS = 1_000_000L;
    private static final long NOW = 42L;

    private CircuitBreaker leveeCount;
    private CircuitBreaker leveeTime;
    private io.github.resilience4j.circuitbreaker.CircuitBreaker r4jCount;
    private io.github.resilience4j.circuitbreaker.CircuitBreaker r4jTime;
    private dev.failsafe.CircuitBreaker<Object> failsafe;

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

    @Benchmark
    public boolean leveeCountBased() {
        boolean permitted = leveeCount.tryAcquire(NOW);
        leveeCount.onSuccess(LATENCY_NANOS);
        return permitted;
    }

    /** As a pipeline runs it: the caller that measured the latency also passes the end reading. */
    @Benchmark
    public boolean leveeTimeBased() {
        boolean permitted = leveeTime.tryAcquire(NOW);
        leveeTime.onResultAt(NOW + LATENCY_NANOS, LATENCY_NANOS, null);
        return permitted;
    }

    /** The plain protocol by hand: {@code onSuccess(latency)} makes the window read its own clock. */
    @Benchmark
    public boolean leveeTimeBasedOwnClock() {
        boolean permitted = leveeTime.tryAcquire(NOW);
        leveeTime.onSuccess(LATENCY_NANOS);
        return permitted;
    }

    @Benchmark
    public boolean resilience4jCountBased() {
        boolean permitted = r4jCount.tryAcquirePermission();
        r4jCount.onSuccess(LATENCY_NANOS, TimeUnit.NANOSECONDS);
        return permitted;
    }

    @Benchmark
    public boolean resilience4jTimeBased() {
        boolean permitted = r4jTime.tryAcquirePermission();
        r4jTime.onSuccess(LATENCY_NANOS, TimeUnit.NANOSECONDS);
        return permitted;
    }

    @Benchmark
    public boolean failsafeCountBased() {
        boolean permitted = failsafe.tryAcquirePermit();
        failsafe.recordSuccess();
        return permitted;
    }
}

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
 * A CLOSED breaker granting a permit and recording a fast success, all traffic successful.
 *
 * <p><b>Same limits for everyone.</b> Every breaker trips at a 50% failure rate, counts a call slower
 * than 60 s as slow (so none is), stays open 60 s and is never tripped here: count windows of the last
 * 100 calls with a minimum of 20 (Levee {@code countWindow(100).minimumNumberOfCalls(20)}, resilience4j
 * {@code COUNT_BASED} 100, Failsafe {@code withFailureThreshold(50, 100)}); time windows of the last
 * 10 s (Levee {@code timeWindow(10, 10)}, resilience4j {@code TIME_BASED} 10).
 *
 * <p><b>The user's path</b>: the permit protocol with the breaker reading its own clock. Levee
 * {@code s = readStart(); tryAcquire(s); onSuccess(latencySince(s))} (the time window:
 * {@code onResultAt(end, end − s, null)} with the end reading taken for the latency); resilience4j
 * {@code tryAcquirePermission()} + {@code onSuccess(d, NANOSECONDS)} with {@code d} measured by two
 * {@code System.nanoTime()} readings, as its API requires; Failsafe {@code tryAcquirePermit()} +
 * {@code recordSuccess()} (its count window needs no time).
 *
 * <p><b>Labelled extras</b> (names ending in {@code Extra}; shown for context, never checked against a
 * target): every Levee count-window row here, because all-success traffic keeps the window full of fast
 * successes, which Levee recognises and does not write to at all — a fast path only healthy traffic
 * takes (the general path, 2% failures, is {@link CircuitBreakerMixedOutcomesBenchmark}); and the rows
 * that hand the breaker a constant reading and latency ({@code GivenReadings}) or resilience4j a
 * constant latency ({@code GivenLatency}), which is not what a user's call does.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CircuitBreakerClosedBenchmark {
    private static final long LATENCY_NANOS = 1_000_000L;
    private static final long NOW = 42L;

    private CircuitBreaker leveeCount;
    private CircuitBreaker leveeCountNoSlow;
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
        leveeCountNoSlow = CircuitBreaker.of("count-no-slow", base.toBuilder().countWindow(100).noSlowCallRule().build());
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
    public boolean leveeCountBasedAllSuccessExtra() {
        long start = leveeCount.readStart();
        boolean permitted = leveeCount.tryAcquire(start);
        leveeCount.onSuccess(leveeCount.latencySince(start));
        return permitted;
    }

    @Benchmark
    public boolean leveeCountBasedNoSlowCallRuleAllSuccessExtra() {
        long start = leveeCountNoSlow.readStart();
        boolean permitted = leveeCountNoSlow.tryAcquire(start);
        leveeCountNoSlow.onSuccess(leveeCountNoSlow.latencySince(start));
        return permitted;
    }

    @Benchmark
    public boolean leveeCountBasedGivenReadingsExtra() {
        boolean permitted = leveeCount.tryAcquire(NOW);
        leveeCount.onSuccess(LATENCY_NANOS);
        return permitted;
    }

    /** The time window, passing the end reading it took for the latency (no third clock reading). */
    @Benchmark
    public boolean leveeTimeBased() {
        long start = leveeTime.readStart();
        boolean permitted = leveeTime.tryAcquire(start);
        long end = leveeTime.ticker().read();
        leveeTime.onResultAt(end, end - start, null);
        return permitted;
    }

    /** The plain hand protocol: {@code onSuccess(latencySince(s))} makes the window read a third time. */
    @Benchmark
    public boolean leveeTimeBasedOnSuccess() {
        long start = leveeTime.readStart();
        boolean permitted = leveeTime.tryAcquire(start);
        leveeTime.onSuccess(leveeTime.latencySince(start));
        return permitted;
    }

    @Benchmark
    public boolean leveeTimeBasedGivenReadingsExtra() {
        boolean permitted = leveeTime.tryAcquire(NOW);
        leveeTime.onResultAt(NOW + LATENCY_NANOS, LATENCY_NANOS, null);
        return permitted;
    }

    @Benchmark
    public boolean resilience4jCountBased() {
        long start = System.nanoTime();
        boolean permitted = r4jCount.tryAcquirePermission();
        r4jCount.onSuccess(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        return permitted;
    }

    @Benchmark
    public boolean resilience4jCountBasedGivenLatencyExtra() {
        boolean permitted = r4jCount.tryAcquirePermission();
        r4jCount.onSuccess(LATENCY_NANOS, TimeUnit.NANOSECONDS);
        return permitted;
    }

    @Benchmark
    public boolean resilience4jTimeBased() {
        long start = System.nanoTime();
        boolean permitted = r4jTime.tryAcquirePermission();
        r4jTime.onSuccess(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        return permitted;
    }

    @Benchmark
    public boolean resilience4jTimeBasedGivenLatencyExtra() {
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

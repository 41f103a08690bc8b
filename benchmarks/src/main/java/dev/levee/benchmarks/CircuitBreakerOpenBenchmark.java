package dev.levee.benchmarks;

import dev.levee.circuitbreaker.CircuitBreaker;
import dev.levee.circuitbreaker.CircuitBreakerConfig;
import dev.levee.core.RejectedException;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
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
 * The rejection path: what a call costs when the breaker is OPEN, which is what a sick dependency's
 * callers pay, in floods.
 *
 * <p><b>Same limits for everyone.</b> Each breaker is opened once in setup with a one-hour wait, so it
 * stays OPEN for the whole run: Levee {@code transitionToOpen()} with {@code waitDurationInOpen(1 h)} on
 * the system ticker; resilience4j {@code transitionToOpenState()} with {@code waitDurationInOpenState(1 h)};
 * Failsafe {@code open()} with {@code withDelay(1 h)}. No listener, no metrics binder.
 *
 * <p><b>Operations</b>, each reading its own clock as a user's call does (an OPEN breaker needs "now" to
 * know when to half-open):
 * <ul>
 *   <li>refusing a permit: Levee {@code tryAcquire()} ({@link #leveeTryAcquire}), resilience4j
 *       {@code tryAcquirePermission()} ({@link #resilience4jTryAcquirePermission}), Failsafe
 *       {@code tryAcquirePermit()} ({@link #failsafeTryAcquirePermit}); each also counts the refusal;</li>
 *   <li>refusing and building the exception a caller throws: Levee {@code s = readStart();
 *       tryAcquire(s)} + {@code rejection(s)} (a stackless {@code CircuitOpenException} with
 *       {@code retryAfter}) ({@link #leveeRejection}); resilience4j {@code tryAcquirePermission} +
 *       {@code CallNotPermittedException.createCallNotPermittedException}, with its default
 *       configuration, which fills in a stack trace ({@link #resilience4jRejection}), and with
 *       {@code writableStackTraceEnabled(false)}, its setting for rejection floods
 *       ({@link #resilience4jRejectionStackless}).</li>
 * </ul>
 * Labelled extras: the same Levee operations on a constant ticker ({@code GivenReading}), the figures
 * published before the rows read a real clock.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CircuitBreakerOpenBenchmark {
    private static final long NOW = 42L;

    private CircuitBreaker levee;
    private CircuitBreaker leveeConstantTicker;
    private io.github.resilience4j.circuitbreaker.CircuitBreaker r4j;
    private io.github.resilience4j.circuitbreaker.CircuitBreaker r4jStackless;
    private dev.failsafe.CircuitBreaker<Object> failsafe;

    @Setup
    public void setUp() {
        levee = CircuitBreaker.of("open", CircuitBreakerConfig.builder()
                .waitDurationInOpen(Duration.ofHours(1)).build());
        levee.transitionToOpen();
        leveeConstantTicker = CircuitBreaker.of("open-constant", CircuitBreakerConfig.builder()
                .waitDurationInOpen(Duration.ofHours(1)).ticker(() -> NOW).build());
        leveeConstantTicker.transitionToOpen();
        r4j = io.github.resilience4j.circuitbreaker.CircuitBreaker.of("open",
                io.github.resilience4j.circuitbreaker.CircuitBreakerConfig.custom()
                        .waitDurationInOpenState(Duration.ofHours(1)).build());
        r4j.transitionToOpenState();
        r4jStackless = io.github.resilience4j.circuitbreaker.CircuitBreaker.of("open-stackless",
                io.github.resilience4j.circuitbreaker.CircuitBreakerConfig.custom()
                        .waitDurationInOpenState(Duration.ofHours(1))
                        .writableStackTraceEnabled(false).build());
        r4jStackless.transitionToOpenState();
        failsafe = dev.failsafe.CircuitBreaker.builder().withDelay(Duration.ofHours(1)).build();
        failsafe.open();
    }

    @Benchmark
    public boolean leveeTryAcquire() {
        return levee.tryAcquire();
    }

    @Benchmark
    public RejectedException leveeRejection() {
        long start = levee.readStart();
        return levee.tryAcquire(start) ? null : levee.rejection(start);
    }

    @Benchmark
    public boolean leveeTryAcquireGivenReadingExtra() {
        return leveeConstantTicker.tryAcquire(NOW);
    }

    @Benchmark
    public RejectedException leveeRejectionGivenReadingExtra() {
        return leveeConstantTicker.tryAcquire(NOW) ? null : leveeConstantTicker.rejection(NOW);
    }

    @Benchmark
    public boolean resilience4jTryAcquirePermission() {
        return r4j.tryAcquirePermission();
    }

    @Benchmark
    public CallNotPermittedException resilience4jRejection() {
        return r4j.tryAcquirePermission() ? null : CallNotPermittedException.createCallNotPermittedException(r4j);
    }

    @Benchmark
    public CallNotPermittedException resilience4jRejectionStackless() {
        return r4jStackless.tryAcquirePermission()
                ? null : CallNotPermittedException.createCallNotPermittedException(r4jStackless);
    }

    @Benchmark
    public boolean failsafeTryAcquirePermit() {
        return failsafe.tryAcquirePermit();
    }
}

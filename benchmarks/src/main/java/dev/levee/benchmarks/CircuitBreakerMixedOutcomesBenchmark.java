package dev.levee.benchmarks;

import dev.levee.circuitbreaker.CircuitBreaker;
import dev.levee.circuitbreaker.CircuitBreakerConfig;
import dev.levee.core.CheckedSupplier;
import dev.levee.core.Ticker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig.SlidingWindowType;
import java.io.IOException;
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
 * The general path of a CLOSED breaker: 2% of calls fail. A healthy dependency's all-success traffic
 * lets Levee's count window skip writing entirely ({@link CircuitBreakerClosedBenchmark}, kept as labelled
 * extras); here the count window always holds a failure, so every success claims a slot. This class
 * holds the breaker rows the issue-13 targets check.
 *
 * <p><b>Same limits for everyone</b>: 50% failure rate, minimum 20 calls, 60 s slow-call threshold and
 * wait; count windows of 100 calls (Levee {@code countWindow(100)}, resilience4j {@code COUNT_BASED}
 * 100, Failsafe {@code withFailureThreshold(50, 100)}) and time windows of 10 s (Levee
 * {@code timeWindow(10, 10)}, resilience4j {@code TIME_BASED} 10). Levee's breakers keep the default
 * slow-call rule (60 s here) except {@code leveeCountBasedNoSlowCallRule}, which uses
 * {@code noSlowCallRule()} — the configuration that needs no clock reading while CLOSED. No listener, no
 * metrics binder.
 *
 * <p><b>The permit protocol, as a user writes it</b> (one operation: acquire, then a success, or a
 * failure with a preallocated exception every 50th call of each benchmark thread):
 * <ul>
 *   <li>Levee: {@code s = readStart(); tryAcquire(s)}, then {@code onSuccess(latencySince(s))} or
 *       {@code onFailure(latencySince(s), e)}; the breaker reads the clock only if it needs it (twice
 *       with a slow-call rule, never without one). The time window passes the end reading it took for
 *       the latency ({@code onResultAt}/{@code onFailureAt}), as {@code docs/core.md} documents, so its
 *       bucket costs no third reading.</li>
 *   <li>resilience4j: the caller must hand {@code onSuccess}/{@code onError} a duration, so it reads
 *       {@code System.nanoTime()} before and after, as resilience4j's own decorators do:
 *       {@code tryAcquirePermission()} then {@code onSuccess(d, NANOSECONDS)} / {@code onError(...)}.</li>
 *   <li>Failsafe: {@code tryAcquirePermit()} then {@code recordSuccess()} / {@code recordFailure()}: its
 *       count window needs no time.</li>
 * </ul>
 *
 * <p><b>{@code execute} around a call</b> that returns a preallocated object, or throws a preallocated
 * stackless exception every 50th call of each thread (the benchmark catches it): Levee
 * {@code breaker.execute(call)}; resilience4j {@code CircuitBreaker.decorateSupplier(breaker, call)},
 * decorated once per thread; both with the default slow-call rule on.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CircuitBreakerMixedOutcomesBenchmark {
    private static final int FAILURE_EVERY = 50;
    private static final IOException FAILURE = new IOException("every 50th call fails");
    private static final RuntimeException CALL_FAILURE = new StacklessFailure();
    private static final Object RESULT = new Object();

    private CircuitBreaker leveeCount;
    private CircuitBreaker leveeCountNoSlowCallRule;
    private CircuitBreaker leveeTime;
    private io.github.resilience4j.circuitbreaker.CircuitBreaker r4jCount;
    private io.github.resilience4j.circuitbreaker.CircuitBreaker r4jTime;
    private dev.failsafe.CircuitBreaker<Object> failsafe;

    /** The exception a failing call throws: preallocated and stackless, so neither library pays for a trace. */
    static final class StacklessFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        StacklessFailure() {
            super("every 50th call fails", null, false, false);
        }
    }

    /** Each benchmark thread's own call counter and calls, so failures are every 50th call of each thread. */
    @State(Scope.Thread)
    public static class Calls {
        int n;
        final CheckedSupplier<Object, RuntimeException> leveeCall = this::call;
        Supplier<Object> r4jCountCall;
        Supplier<Object> r4jTimeCall;

        boolean nextFails() {
            return ++n % FAILURE_EVERY == 0;
        }

        Object call() {
            if (nextFails()) {
                throw CALL_FAILURE;
            }
            return RESULT;
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
        leveeCountNoSlowCallRule = CircuitBreaker.of("count-no-slow", base.toBuilder().countWindow(100)
                .noSlowCallRule().build());
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
        long start = breaker.readStart();
        boolean permitted = breaker.tryAcquire(start);
        if (calls.nextFails()) {
            breaker.onFailure(breaker.latencySince(start), FAILURE);
        } else {
            breaker.onSuccess(breaker.latencySince(start));
        }
        return permitted;
    }

    private static boolean resilience4j(io.github.resilience4j.circuitbreaker.CircuitBreaker breaker, Calls calls) {
        long start = System.nanoTime();
        boolean permitted = breaker.tryAcquirePermission();
        if (calls.nextFails()) {
            breaker.onError(System.nanoTime() - start, TimeUnit.NANOSECONDS, FAILURE);
        } else {
            breaker.onSuccess(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        }
        return permitted;
    }

    @Benchmark
    public boolean leveeCountBased(Calls calls) {
        return levee(leveeCount, calls);
    }

    @Benchmark
    public boolean leveeCountBasedNoSlowCallRule(Calls calls) {
        return levee(leveeCountNoSlowCallRule, calls);
    }

    /** The time window, passing the end reading it took for the latency (no third clock reading). */
    @Benchmark
    public boolean leveeTimeBased(Calls calls) {
        Ticker ticker = leveeTime.ticker();
        long start = leveeTime.readStart();
        boolean permitted = leveeTime.tryAcquire(start);
        long end = ticker.read();
        if (calls.nextFails()) {
            leveeTime.onFailureAt(end, end - start, FAILURE);
        } else {
            leveeTime.onResultAt(end, end - start, null);
        }
        return permitted;
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

    @Benchmark
    public Object leveeCountExecute(Calls calls) {
        try {
            return leveeCount.execute(calls.leveeCall);
        } catch (StacklessFailure e) {
            return e;
        }
    }

    @Benchmark
    public Object leveeTimeExecute(Calls calls) {
        try {
            return leveeTime.execute(calls.leveeCall);
        } catch (StacklessFailure e) {
            return e;
        }
    }

    @Benchmark
    public Object resilience4jCountExecute(Calls calls) {
        Supplier<Object> decorated = calls.r4jCountCall;
        if (decorated == null) {
            decorated = io.github.resilience4j.circuitbreaker.CircuitBreaker.decorateSupplier(r4jCount, calls::call);
            calls.r4jCountCall = decorated;
        }
        try {
            return decorated.get();
        } catch (StacklessFailure e) {
            return e;
        }
    }

    @Benchmark
    public Object resilience4jTimeExecute(Calls calls) {
        Supplier<Object> decorated = calls.r4jTimeCall;
        if (decorated == null) {
            decorated = io.github.resilience4j.circuitbreaker.CircuitBreaker.decorateSupplier(r4jTime, calls::call);
            calls.r4jTimeCall = decorated;
        }
        try {
            return decorated.get();
        } catch (StacklessFailure e) {
            return e;
        }
    }
}

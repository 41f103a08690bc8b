package dev.levee.benchmarks;

import com.netflix.concurrency.limits.Limiter;
import com.netflix.concurrency.limits.limit.FixedLimit;
import com.netflix.concurrency.limits.limiter.SimpleLimiter;
import dev.levee.bulkhead.Bulkhead;
import dev.levee.core.CheckedSupplier;
import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeExecutor;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * A semaphore bulkhead's enter and leave, the operation every protected call pays (issue 7).
 *
 * <p><b>Fairness.</b> Every library gets the same bound, {@value #LIMIT} concurrent calls, which the
 * suite's 1, 2 and 4 threads never reach, so every operation is an admit and a release; nobody waits
 * and nobody is rejected. No library reads a clock it does not need:
 * <ul>
 *   <li>{@link #leveeTryAcquireRelease()} — Levee's permit protocol as a user writes it, the gate
 *       reading its own clock: {@code s = readStart(); tryAcquire(s)} then
 *       {@code onSuccess(latencySince(s))}. A semaphore bulkhead needs no time ({@code timeNeed()} is
 *       {@code NONE}), so neither reads the clock: one bounded CAS and one atomic decrement;
 *       {@link #leveeTryAcquireReleaseGivenReadingExtra()} passes a constant reading by hand (a labelled
 *       extra, never checked against a target);</li>
 *   <li>{@link #resilience4jTryAcquireRelease()} — resilience4j 2.4.0 {@code SemaphoreBulkhead} with
 *       {@code maxConcurrentCalls = 1000}, {@code maxWaitDuration = 0}: {@code tryAcquirePermission()}
 *       then {@code onComplete()};</li>
 *   <li>{@link #netflixAcquireRelease()} — concurrency-limits 0.5.4 {@code SimpleLimiter} with
 *       {@code FixedLimit.of(1000)}: {@code acquire(null)} then {@code onSuccess()} on the returned
 *       listener. It reads {@code System.nanoTime()} on acquire by design (it measures round trips for
 *       its adaptive limits) and allocates the listener;</li>
 *   <li>{@link #failsafeTryAcquireRelease()} — Failsafe 3.3.2 {@code Bulkhead.of(1000)}:
 *       {@code tryAcquirePermit()} then {@code releasePermit()};</li>
 *   <li>{@link #leveeExecute()}, {@link #resilience4jExecute()}, {@link #failsafeExecute()} — the same
 *       around a trivial call, the way users write it: Levee's {@code bulkhead.execute(call)} (no clock
 *       reading: a semaphore bulkhead needs no latency), resilience4j's supplier decorated once with
 *       {@code Bulkhead.decorateSupplier}, Failsafe's {@code Failsafe.with(bulkhead).get(call)} with the
 *       executor built once.</li>
 * </ul>
 * The call returns a preallocated object, so any allocation measured is the library's own.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class BulkheadBenchmark {
    /** The bound for every library: never reached at 1, 2 or 4 threads. */
    static final int LIMIT = 1000;
    private static final Object RESULT = new Object();

    private final Bulkhead levee = Bulkhead.of("bench", LIMIT);
    private final CheckedSupplier<Object, RuntimeException> leveeCall = () -> RESULT;

    private final io.github.resilience4j.bulkhead.Bulkhead r4j = io.github.resilience4j.bulkhead.Bulkhead.of("bench",
            BulkheadConfig.custom().maxConcurrentCalls(LIMIT).maxWaitDuration(Duration.ZERO).build());
    private final Supplier<Object> r4jCall =
            io.github.resilience4j.bulkhead.Bulkhead.decorateSupplier(r4j, () -> RESULT);

    private final SimpleLimiter<Void> netflix = SimpleLimiter.newBuilder().limit(FixedLimit.of(LIMIT)).build();

    private final dev.failsafe.Bulkhead<Object> failsafe = dev.failsafe.Bulkhead.of(LIMIT);
    private final FailsafeExecutor<Object> failsafeExecutor = Failsafe.with(failsafe);
    private final dev.failsafe.function.CheckedSupplier<Object> failsafeCall = () -> RESULT;

    /**
     * Levee: permit protocol.
     *
     * @return whether the permit was granted
     */
    @Benchmark
    public boolean leveeTryAcquireRelease() {
        long start = levee.readStart();
        if (levee.tryAcquire(start)) {
            levee.onSuccess(levee.latencySince(start));
            return true;
        }
        return false;
    }

    /**
     * Levee: permit protocol with a constant reading passed by hand (an extra: not the user's path).
     *
     * @return whether the permit was granted
     */
    @Benchmark
    public boolean leveeTryAcquireReleaseGivenReadingExtra() {
        if (levee.tryAcquire(0L)) {
            levee.onSuccess(0L);
            return true;
        }
        return false;
    }

    /**
     * resilience4j: permit protocol.
     *
     * @return whether the permit was granted
     */
    @Benchmark
    public boolean resilience4jTryAcquireRelease() {
        if (r4j.tryAcquirePermission()) {
            r4j.onComplete();
            return true;
        }
        return false;
    }

    /**
     * Netflix concurrency-limits: acquire and report success.
     *
     * @return whether the permit was granted
     */
    @Benchmark
    public boolean netflixAcquireRelease() {
        Optional<Limiter.Listener> listener = netflix.acquire(null);
        if (listener.isPresent()) {
            listener.get().onSuccess();
            return true;
        }
        return false;
    }

    /**
     * Failsafe: permit protocol.
     *
     * @return whether the permit was granted
     */
    @Benchmark
    public boolean failsafeTryAcquireRelease() {
        if (failsafe.tryAcquirePermit()) {
            failsafe.releasePermit();
            return true;
        }
        return false;
    }

    /**
     * Levee: a trivial call through the bulkhead.
     *
     * @return the call's result
     */
    @Benchmark
    public Object leveeExecute() {
        return levee.execute(leveeCall);
    }

    /**
     * resilience4j: a trivial call through a supplier decorated once.
     *
     * @return the call's result
     */
    @Benchmark
    public Object resilience4jExecute() {
        return r4jCall.get();
    }

    /**
     * Failsafe: a trivial call through an executor built once.
     *
     * @return the call's result
     */
    @Benchmark
    public Object failsafeExecute() {
        return failsafeExecutor.get(failsafeCall);
    }
}

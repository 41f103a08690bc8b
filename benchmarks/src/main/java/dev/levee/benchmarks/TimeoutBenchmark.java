package dev.levee.benchmarks;

import dev.levee.core.CheckedSupplier;
import dev.levee.timeout.Timeout;
import dev.levee.timeout.TimeoutConfig;
import dev.levee.timeout.TimeoutExecutors;
import dev.levee.timeout.TimeoutMode;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * The overhead of a timeout around a call that returns at once (issue 6): what every call pays for
 * being bounded, when the bound never fires. Every policy is configured with a 5 s timeout and
 * interruption/cancellation on timeout.
 *
 * <ul>
 *   <li>{@link #leveeCooperative()} — Levee COOPERATIVE mode: the call runs on the caller's thread
 *       under an attached deadline; no thread, no timer. Compare with {@link #failsafeTimeout()},
 *       Failsafe's synchronous timeout, which also runs on the caller's thread but schedules an
 *       interrupting timer per call ({@code withInterrupt()}).</li>
 *   <li>{@link #leveeThread()} — Levee THREAD mode with its default executor (a 256-thread daemon pool
 *       on JDK 17, virtual threads on 21+): a task, a thread hop and a timer per call. This is what
 *       bounding a call that never checks the clock costs.</li>
 *   <li>{@link #leveeAsync()} — Levee around an already-completed {@code CompletionStage}: a timer is
 *       scheduled on the core scheduler and cancelled.</li>
 * </ul>
 * resilience4j's {@code TimeLimiter} (the peer of the last two) is not on the benchmarks classpath
 * ({@code resilience4j-timelimiter} is not a dependency of this module), so it is left out.
 * COOPERATIVE mode allocates the attached deadline and its scope (core offers no allocation-free way
 * to attach one); the thread and async variants allocate by nature (tasks, futures, timers).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class TimeoutBenchmark {
    private static final Object RESULT = new Object();
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final CheckedSupplier<Object, RuntimeException> call = () -> RESULT;
    private final Supplier<CompletionStage<Object>> asyncCall = () -> CompletableFuture.completedFuture(RESULT);

    private final Timeout cooperative = Timeout.of("cooperative", TimeoutConfig.builder().timeout(TIMEOUT)
            .mode(TimeoutMode.COOPERATIVE).build());
    private final Timeout thread = Timeout.of("thread", TimeoutConfig.builder().timeout(TIMEOUT)
            .executor(TimeoutExecutors.defaultExecutor()).build());
    private final Timeout async = Timeout.of("async", TIMEOUT);

    private final dev.failsafe.FailsafeExecutor<Object> failsafe = dev.failsafe.Failsafe.with(
            dev.failsafe.Timeout.<Object>builder(TIMEOUT).withInterrupt().build());

    /** @return the result through Levee's cooperative timeout */
    @Benchmark
    public Object leveeCooperative() {
        return cooperative.execute(call);
    }

    /** @return the result through Levee's thread-mode timeout */
    @Benchmark
    public Object leveeThread() {
        return thread.execute(call);
    }

    /** @return the result through Levee's asynchronous timeout */
    @Benchmark
    public Object leveeAsync() {
        return async.executeAsync(asyncCall).toCompletableFuture().join();
    }

    /** @return the result through Failsafe's synchronous (interrupting) timeout */
    @Benchmark
    public Object failsafeTimeout() {
        return failsafe.get(() -> RESULT);
    }

}

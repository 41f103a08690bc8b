package dev.levee.benchmarks;

import dev.levee.core.CheckedSupplier;
import dev.levee.core.ContextScope;
import dev.levee.core.Deadline;
import dev.levee.timeout.Timeout;
import dev.levee.timeout.TimeoutConfig;
import dev.levee.timeout.TimeoutExecutors;
import dev.levee.timeout.TimeoutMode;
import io.github.resilience4j.timelimiter.TimeLimiter;
import io.github.resilience4j.timelimiter.TimeLimiterConfig;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The overhead of a timeout around a call that returns at once (issue 6): what every call pays for
 * being bounded, when the bound never fires. Every policy is configured with a 5 s timeout and
 * interruption/cancellation on timeout.
 *
 * <ul>
 *   <li>{@link #leveeCooperativePeerless()} — Levee COOPERATIVE mode: the call runs on the caller's thread
 *       under an attached deadline; no thread, no timer, and nothing interrupts a call that overruns
 *       (the call must check the deadline). <b>No peer:</b> no other library offers this guarantee, so
 *       the row is never compared with one; {@link #failsafeTimeout()} (an interrupting timer per call,
 *       {@code withInterrupt()}) is the peer of the caller-thread INTERRUPT mode, measured in
 *       {@code CallerThreadTimeoutBenchmark}.</li>
 *   <li>{@link #leveeThread()} — Levee THREAD mode with its default executor (a 256-thread daemon pool
 *       on JDK 17, virtual threads on 21+): a task, a thread hop and a timer per call. This is what
 *       bounding a call that never checks the clock costs.</li>
 *   <li>{@link #leveeAsync()} — Levee around an already-completed {@code CompletionStage}: a timer is
 *       scheduled on the core scheduler and cancelled. Its peer is
 *       {@link #resilience4jTimeLimiterAsync()}: resilience4j 2.4.0 {@code TimeLimiter} (5 s,
 *       {@code cancelRunningFuture(true)}) with {@code executeCompletionStage(scheduler, call)} on a
 *       {@code ScheduledExecutorService} of one thread, which is how its documentation has users configure
 *       it; it schedules a timeout task per call and cancels it when the stage completes. The executor
 *       has {@code setRemoveOnCancelPolicy(true)} (the peer's best case): with the JDK's default a
 *       cancelled task stays queued until its 5 s delay ends, so at millions of calls per second the
 *       queue, and the heap, would grow for the whole iteration.</li>
 * </ul>
 * <p>{@link #leveeCooperativeUnderRequestDeadlinePeerless} is COOPERATIVE mode when a request deadline
 * (30 min away, tighter than the policy's 1 h) is already attached on the benchmark thread, as in a
 * server handling a request that carried a deadline: the current deadline is reused, so it must be
 * 0 B/op. Without a current deadline, COOPERATIVE mode allocates the deadline it attaches (core offers
 * no allocation-free way to attach one); the thread and async variants allocate by nature (tasks,
 * futures, timers).
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

    private final ScheduledThreadPoolExecutor r4jScheduler = r4jScheduler();
    private final TimeLimiter r4jTimeLimiter = TimeLimiter.of("async", TimeLimiterConfig.custom()
            .timeoutDuration(TIMEOUT).cancelRunningFuture(true).build());

    private final Timeout cooperativeLong = Timeout.of("cooperative-long", TimeoutConfig.builder()
            .timeout(Duration.ofHours(1)).mode(TimeoutMode.COOPERATIVE).build());

    private static ScheduledThreadPoolExecutor r4jScheduler() {
        ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "r4j-time-limiter");
            t.setDaemon(true);
            return t;
        });
        scheduler.setRemoveOnCancelPolicy(true);
        return scheduler;
    }

    /** Stops resilience4j's scheduler thread. */
    @TearDown
    public void stopScheduler() {
        r4jScheduler.shutdownNow();
    }

    /** A request deadline attached on each benchmark thread for the whole trial. */
    @State(Scope.Thread)
    public static class RequestDeadline {
        private ContextScope scope;

        /** Attaches a deadline 30 minutes away. */
        @Setup
        public void attach() {
            scope = Deadline.after(Duration.ofMinutes(30)).attach();
        }

        /** Detaches it. */
        @TearDown
        public void detach() {
            scope.close();
        }
    }

    /**
     * @param request the attached request deadline
     * @return the result through Levee's cooperative timeout under a binding request deadline
     */
    @Benchmark
    public Object leveeCooperativeUnderRequestDeadlinePeerless(RequestDeadline request) {
        return cooperativeLong.execute(call);
    }

    /** @return the result through Levee's cooperative timeout */
    @Benchmark
    public Object leveeCooperativePeerless() {
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

    /** @return the result through resilience4j's {@code TimeLimiter} around an asynchronous call */
    @Benchmark
    public Object resilience4jTimeLimiterAsync() {
        return r4jTimeLimiter.executeCompletionStage(r4jScheduler, asyncCall).toCompletableFuture().join();
    }

    /** @return the result through Failsafe's synchronous (interrupting) timeout */
    @Benchmark
    public Object failsafeTimeout() {
        return failsafe.get(() -> RESULT);
    }

}

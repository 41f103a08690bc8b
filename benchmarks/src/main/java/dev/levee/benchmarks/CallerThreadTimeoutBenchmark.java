package dev.levee.benchmarks;

import dev.levee.core.CheckedSupplier;
import dev.levee.core.Scheduler;
import dev.levee.core.Ticker;
import dev.levee.timeout.Timeout;
import dev.levee.timeout.TimeoutConfig;
import dev.levee.timeout.TimeoutMode;
import dev.levee.timeout.internal.SharedTimerWheel;
import dev.levee.timeout.internal.TimerWheel;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * A synchronous timeout that interrupts the caller's thread, around a call that returns at once
 * (issue 13, item 5): the like-for-like comparison with Failsafe's synchronous {@code Timeout}.
 *
 * <ul>
 *   <li>{@link #leveeInterrupt()} — Levee {@code TimeoutMode.INTERRUPT}, 5 s: the call runs on the
 *       caller's thread; a timer is armed on the shared timer wheel and disarmed when the call returns
 *       (the timeout reads the system ticker once, as a user's call does).</li>
 *   <li>{@link #failsafeTimeout()} — Failsafe 3.3.2 {@code Timeout.builder(5 s).withInterrupt()},
 *       through a {@code FailsafeExecutor} built once: also on the caller's thread, with an
 *       interrupting timer per call.</li>
 * </ul>
 *
 * <p>{@code pending} keeps that many other timers armed (1 hour away) on the same shared wheel during
 * the run, to show that arming and disarming do not slow down with a million pending timeouts.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CallerThreadTimeoutBenchmark {
    private static final Object RESULT = new Object();
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    /** Other timers kept pending on the shared wheel. */
    @Param({"0", "1000000"})
    public int pending;

    private final CheckedSupplier<Object, RuntimeException> call = () -> RESULT;
    private final dev.failsafe.function.CheckedSupplier<Object> failsafeCall = () -> RESULT;
    private final Timeout levee = Timeout.of("interrupt", TimeoutConfig.builder().timeout(TIMEOUT)
            .mode(TimeoutMode.INTERRUPT).build());
    private final dev.failsafe.FailsafeExecutor<Object> failsafe = dev.failsafe.Failsafe.with(
            dev.failsafe.Timeout.<Object>builder(TIMEOUT).withInterrupt().build());
    private Idle[] background = new Idle[0];

    /** A timer that does nothing (it is cancelled before it would fire). */
    private static final class Idle extends TimerWheel.Timer {
        @Override
        protected void expire() {
            // never reached: cancelled in tearDown, an hour before its deadline
        }
    }

    /** Arms the background timers on the wheel Levee's timeout uses (the shared one). */
    @Setup(Level.Trial)
    public void armBackground() {
        TimerWheel wheel = SharedTimerWheel.forClock(Ticker.system(), Scheduler.system());
        long deadline = Ticker.system().read() + TimeUnit.HOURS.toNanos(1);
        background = new Idle[pending];
        for (int i = 0; i < pending; i++) {
            background[i] = new Idle();
            wheel.schedule(background[i], deadline + i);
        }
    }

    /** Cancels them. */
    @TearDown(Level.Trial)
    public void cancelBackground() {
        TimerWheel wheel = SharedTimerWheel.forClock(Ticker.system(), Scheduler.system());
        for (Idle idle : background) {
            wheel.cancel(idle);
        }
    }

    /** @return the result through Levee's caller-thread (INTERRUPT) timeout */
    @Benchmark
    public Object leveeInterrupt() {
        return levee.execute(call);
    }

    /** @return the result through Failsafe's synchronous interrupting timeout */
    @Benchmark
    public Object failsafeTimeout() {
        return failsafe.get(failsafeCall);
    }
}

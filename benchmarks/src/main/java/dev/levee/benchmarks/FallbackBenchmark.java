package dev.levee.benchmarks;

import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeExecutor;
import dev.levee.core.CheckedSupplier;
import dev.levee.core.Pipeline;
import dev.levee.degrade.Fallback;
import dev.levee.degrade.FallbackConfig;
import dev.levee.degrade.FallbackTier;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * A call that succeeds, through a fallback: what every healthy call pays for having one. The budget
 * (issue 17) is at most 2 ns and 0 B/op over {@link #bareCall()}.
 *
 * <ul>
 *   <li>{@link #bareCall()} — the call through the same {@link CheckedSupplier} field, no policy;</li>
 *   <li>{@link #leveeFallback()} — {@code fallback.get(call)}: one {@code try} around the call;</li>
 *   <li>{@link #leveeFallbackInPipeline()} — {@code Pipeline.of(fallback).execute(call)}: the same
 *       through a pipeline's chain link, as users compose it;</li>
 *   <li>{@link #failsafeFallback()} — Failsafe 3.3.2's {@code Fallback.of(value)} through a
 *       {@code FailsafeExecutor} built once.</li>
 * </ul>
 * The call returns a preallocated object, so any allocation measured is the policy's own.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class FallbackBenchmark {
    private static final Object RESULT = new Object();
    private static final Object FALLBACK = new Object();

    private final CheckedSupplier<Object, RuntimeException> call = () -> RESULT;
    private final Fallback<Object> fallback = Fallback.of("bench", FallbackConfig.defaults(),
            FallbackTier.ofValue("static", FALLBACK));
    private final Pipeline pipeline = Pipeline.of(fallback);
    private final FailsafeExecutor<Object> failsafe = Failsafe.with(dev.failsafe.Fallback.of(FALLBACK));
    private final dev.failsafe.function.CheckedSupplier<Object> failsafeCall = () -> RESULT;

    @Benchmark
    public Object bareCall() {
        return call.get();
    }

    @Benchmark
    public Object leveeFallback() {
        return fallback.get(call);
    }

    @Benchmark
    public Object leveeFallbackInPipeline() {
        return pipeline.execute(call);
    }

    @Benchmark
    public Object failsafeFallback() {
        return failsafe.get(failsafeCall);
    }
}

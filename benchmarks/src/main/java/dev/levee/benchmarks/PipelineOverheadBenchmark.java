package dev.levee.benchmarks;

import dev.levee.core.Chain;
import dev.levee.core.CheckedSupplier;
import dev.levee.core.Gate;
import dev.levee.core.Pipeline;
import dev.levee.core.Policy;
import dev.levee.core.RejectedException;
import dev.levee.core.Ticker;
import dev.levee.core.TimeNeed;
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
 * What {@link Pipeline} itself costs, with policies that do nothing (issue 2): the price of
 * composition, separate from the price of any pattern.
 *
 * <ul>
 *   <li>{@link #baselineDirectCall()} — the trivial call itself, through the same
 *       {@link CheckedSupplier} field, without Levee: the zero of this table;</li>
 *   <li>{@link #leveeOneNoOpGate()} — {@code Pipeline.of(gate)}: one clock reading before and one
 *       after the call (the gate protocol measures latency), acquire, record;</li>
 *   <li>{@link #leveeTwoNoOpGates()} — {@code Pipeline.of(gateA, gateB)}: two gates sharing
 *       {@link Ticker#system()} are fused into one stage, so this should cost the same two clock
 *       readings as one gate plus two virtual calls. Must be 0 B/op;</li>
 *   <li>{@link #leveeTwoTimelessGates()} — the same two gates declaring {@code TimeNeed.NONE} (as a
 *       semaphore bulkhead and a CLOSED count-window breaker without a slow-call rule do): the run asks
 *       each gate what it needs, before and after the call, and reads no clock (issue 13);</li>
 *   <li>{@link #leveeOneNoOpWrapper()} — {@code Pipeline.of(wrapper)}, a policy that only calls
 *       {@code next.proceed(call)}: the cost of the chain links, no clock reading.</li>
 * </ul>
 *
 * <p>The two gates are of two different classes, as in a real pipeline (a breaker and a limiter), so
 * the JIT sees a bimorphic call site rather than one class it can trivially inline. There is no peer
 * here: resilience4j and Failsafe have no no-op policy to compare with; the pipeline of real policies
 * against theirs is {@link PipelineOfFourBenchmark}. The report therefore shows only the ratio to the
 * floor ({@link FloorBenchmark#nanoTimeAndCas}): a gate pipeline reads the clock twice, so its natural
 * bound is about 2× {@link FloorBenchmark#nanoTime}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class PipelineOverheadBenchmark {

    /** The call's result: a preallocated object, so the call allocates nothing. */
    private static final Object RESULT = new Object();

    /** The trivial operation every method runs. Non-capturing, built once. */
    private final CheckedSupplier<Object, RuntimeException> call = () -> RESULT;

    private final Pipeline oneGate = Pipeline.of(new NoOpGateA("a"));
    private final Pipeline twoGates = Pipeline.of(new NoOpGateA("a"), new NoOpGateB("b"));
    private final Pipeline oneWrapper = Pipeline.of(new NoOpWrapper());
    private final Pipeline twoTimelessGates = Pipeline.of(new TimelessGateA("c"), new TimelessGateB("d"));

    /**
     * The call through two fused no-op gates that need no clock reading.
     *
     * @return the call's result
     */
    @Benchmark
    public Object leveeTwoTimelessGates() {
        return twoTimelessGates.execute(call);
    }

    /**
     * The call, without Levee.
     *
     * @return the call's result
     */
    @Benchmark
    public Object baselineDirectCall() {
        return call.get();
    }

    /**
     * The call through a pipeline of one no-op gate.
     *
     * @return the call's result
     */
    @Benchmark
    public Object leveeOneNoOpGate() {
        return oneGate.execute(call);
    }

    /**
     * The call through a pipeline of two no-op gates sharing a ticker (fused into one stage).
     *
     * @return the call's result
     */
    @Benchmark
    public Object leveeTwoNoOpGates() {
        return twoGates.execute(call);
    }

    /**
     * The call through a pipeline of one no-op wrapper.
     *
     * @return the call's result
     */
    @Benchmark
    public Object leveeOneNoOpWrapper() {
        return oneWrapper.execute(call);
    }

    /** A gate that always permits and records nothing. */
    abstract static class NoOpGate implements Gate {
        private final String name;

        NoOpGate(String name) {
            this.name = name;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public Ticker ticker() {
            return Ticker.system();
        }

        @Override
        public boolean tryAcquire(long nowNanos) {
            return true;
        }

        @Override
        public RejectedException rejection(long nowNanos) {
            throw new IllegalStateException("a no-op gate never rejects");
        }

        @Override
        public void onSuccess(long latencyNanos) {}

        @Override
        public void onFailure(long latencyNanos, Throwable error) {}

        @Override
        public void onIgnored() {}
    }

    /**
     * Two concrete classes, as in a real pipeline whose gates are of different kinds, so the pipeline's
     * call sites see two receiver types (bimorphic), not one.
     */
    static final class NoOpGateA extends NoOpGate {
        NoOpGateA(String name) {
            super(name);
        }
    }

    /** The second no-op gate class; see {@link NoOpGateA}. */
    static final class NoOpGateB extends NoOpGate {
        NoOpGateB(String name) {
            super(name);
        }
    }

    /** A no-op gate that needs no clock reading ({@code TimeNeed.NONE}). */
    static class TimelessGate extends NoOpGate {
        TimelessGate(String name) {
            super(name);
        }

        @Override
        public TimeNeed timeNeed() {
            return TimeNeed.NONE;
        }
    }

    /** The first timeless gate class (two classes: a bimorphic call site, as above). */
    static final class TimelessGateA extends TimelessGate {
        TimelessGateA(String name) {
            super(name);
        }
    }

    /** The second timeless gate class. */
    static final class TimelessGateB extends TimelessGate {
        TimelessGateB(String name) {
            super(name);
        }
    }

    /** A wrapper that only continues the chain. */
    static final class NoOpWrapper implements Policy {
        @Override
        public String name() {
            return "noop-wrapper";
        }

        @Override
        public <T, E extends Throwable> T execute(Chain next, CheckedSupplier<T, E> call) throws E {
            return next.proceed(call);
        }

        @Override
        public <T> CompletionStage<T> executeAsync(Chain next, Supplier<? extends CompletionStage<T>> call) {
            return next.proceedAsync(call);
        }
    }
}

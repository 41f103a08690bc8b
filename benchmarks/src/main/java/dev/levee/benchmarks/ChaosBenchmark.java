package dev.levee.benchmarks;

import dev.levee.chaos.Chaos;
import dev.levee.chaos.ChaosConfig;
import dev.levee.core.CheckedSupplier;
import dev.levee.core.RandomSource;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * What a chaos policy costs on the path users run, {@code chaos.execute(call)} (issue 19). The target:
 * switched off, at most 2 ns over the direct call and 0 B/op, so a chaos policy can stay in a production
 * pipeline behind its switch.
 *
 * <ul>
 *   <li>{@link #baselineDirectCall()} — the trivial call itself, without Levee;</li>
 *   <li>{@link #chaosDisabled()} — a fault policy switched off: one volatile read, then the call;</li>
 *   <li>{@link #chaosEnabledNotSelected()} — switched on with a rate of 0 (every call draws and
 *       misses): the price of the random draw (a seeded SplitMix64 CAS);</li>
 *   <li>{@link #chaosEnabledNotSelectedThreadLocalRandom()} — the same with the default source
 *       ({@code ThreadLocalRandom}).</li>
 * </ul>
 *
 * <p>There is no Java peer: resilience4j, Failsafe and bucket4j ship no fault injection (Polly's Simmy
 * strategies are .NET).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ChaosBenchmark {

    /** The call's result: a preallocated object, so the call allocates nothing. */
    private static final Object RESULT = new Object();

    /** The trivial operation every method runs. Non-capturing, built once. */
    private final CheckedSupplier<Object, RuntimeException> call = () -> RESULT;

    private final Chaos disabled = Chaos.of("off", ChaosConfig.builder()
            .fault(() -> new IllegalStateException("chaos"))
            .injectionRate(0.5)
            .enabled(false)
            .build());
    private final Chaos enabledSeeded = Chaos.of("on-seeded", ChaosConfig.builder()
            .latency(Duration.ofMillis(1))
            .injectionRate(0.0)
            .randomSource(RandomSource.seeded(1))
            .build());
    private final Chaos enabledThreadLocal = Chaos.of("on", ChaosConfig.builder()
            .latency(Duration.ofMillis(1))
            .injectionRate(0.0)
            .build());

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
     * The call through a chaos policy that is switched off.
     *
     * @return the call's result
     */
    @Benchmark
    public Object chaosDisabled() {
        return disabled.execute(call);
    }

    /**
     * The call through a switched-on chaos policy that never injects (rate 0), seeded source.
     *
     * @return the call's result
     */
    @Benchmark
    public Object chaosEnabledNotSelected() {
        return enabledSeeded.execute(call);
    }

    /**
     * The call through a switched-on chaos policy that never injects (rate 0), thread-local source.
     *
     * @return the call's result
     */
    @Benchmark
    public Object chaosEnabledNotSelectedThreadLocalRandom() {
        return enabledThreadLocal.execute(call);
    }
}

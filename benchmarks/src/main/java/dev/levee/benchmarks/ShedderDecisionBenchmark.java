package dev.levee.benchmarks;

import dev.levee.core.LoadSignal;
import dev.levee.core.RandomSource;
import dev.levee.core.Scheduler;
import dev.levee.loadshed.AdaptiveLoadShedder;
import dev.levee.loadshed.AdaptiveLoadShedderConfig;
import dev.levee.loadshed.PidShedder;
import dev.levee.loadshed.PidShedderConfig;
import dev.levee.loadshed.PriorityShedder;
import dev.levee.loadshed.PriorityShedderConfig;
import dev.levee.loadshed.ShedDecision;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * A load shedder's per-request decision (issue 15): must allocate nothing. Each shedder reads its
 * signals the way it does in production (volatile fields behind {@code LoadSignal}s; the PID's
 * probability as a volatile set by its scheduler task, which never runs here), and reads its own
 * ticker for every decision, as a request handler does (the system ticker: one {@code System.nanoTime()}
 * per decision, two for the permit protocol).
 * <ul>
 *   <li>{@link #adaptiveDecide()} — {@code AdaptiveLoadShedder.decide}: limit supplier, in-flight,
 *       CPU and memory reads, the priority rule;</li>
 *   <li>{@link #adaptivePermit()} — the Gate's permit protocol reading its own clock: a reading,
 *       {@code tryAcquire(start)} (a bounded CAS), a second reading and {@code onSuccess(latency)};</li>
 *   <li>{@link #priorityDecide()} — {@code PriorityShedder.decide} at a load in its second stage;</li>
 *   <li>{@link #pidDecideShedding()} — {@code PidShedder.decide} with a 30 % rejection probability:
 *       one {@code ThreadLocalRandom} draw.</li>
 * </ul>
 * There is no peer library with these shedders (resilience4j, Failsafe and bucket4j have none;
 * Netflix's limiters are Part I's benchmark), so the floor to compare with is {@code FloorBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ShedderDecisionBenchmark {
    private static final Scheduler NEVER = (task, delay) -> () -> false;

    private final AdaptiveLoadShedder adaptive = AdaptiveLoadShedder.of("bench", AdaptiveLoadShedderConfig.builder()
            .maxConcurrent(1_000).cpu(LoadSignal.constant(0.4)).memory(LoadSignal.constant(0.5)).build());
    private final PriorityShedder priority = PriorityShedder.of("bench", PriorityShedderConfig.builder()
            .load(LoadSignal.constant(0.87)).build());
    private final PidShedder pid = PidShedder.of("bench", PidShedderConfig.builder().scheduler(NEVER)
            .measurement(() -> 500.0).kp(1).ki(0).kd(0).random(RandomSource.threadLocal()).build());
    private int level;

    /** Sets the PID probability once: error 300 ms, kp 1, /1000. */
    public ShedderDecisionBenchmark() {
        pid.update(pid.ticker().read() + 100_000_000L);
    }

    /**
     * @return the decision
     */
    @Benchmark
    public ShedDecision adaptiveDecide() {
        return adaptive.decide(5, adaptive.ticker().read());
    }

    /**
     * @return whether admitted
     */
    @Benchmark
    public boolean adaptivePermit() {
        long start = adaptive.ticker().read();
        if (adaptive.tryAcquire(start)) {
            adaptive.onSuccess(adaptive.ticker().read() - start);
            return true;
        }
        return false;
    }

    /**
     * @return the decision
     */
    @Benchmark
    public ShedDecision priorityDecide() {
        level = level == 10 ? 1 : level + 1;
        return priority.decide(level, priority.ticker().read());
    }

    /**
     * @return the decision
     */
    @Benchmark
    public ShedDecision pidDecideShedding() {
        return pid.decide(5, pid.ticker().read());
    }
}

package dev.levee.benchmarks;

import dev.levee.retry.ReplicaSet;
import dev.levee.retry.ReplicaSetConfig;
import dev.levee.retry.SelectionRule;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * A replica set's pick plus its completion over {@value #REPLICAS} replicas (issue 24), the cost every
 * call (or every attempt of a replica-aware hedge or retry) pays: {@code int r = set.pick()} (one read
 * of the system ticker, the rule's choice, two atomic increments on the chosen replica) and
 * {@code set.onSuccess(r, latency)} (the count's release, the success counters and, for Peak-EWMA, a
 * second ticker read and the estimate's CAS). Each rule is its own set, with the default ejection,
 * panic and thread-local randomness; the latency is a constant, so nothing else is measured. No peer
 * library offers client-side replica selection, so round robin is the baseline in the same run.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ReplicaSelectionBenchmark {
    /** Replicas in each set. */
    static final int REPLICAS = 10;
    private static final long LATENCY = 1_000_000L;

    private final ReplicaSet<Integer> peakEwma = set(SelectionRule.PEAK_EWMA);
    private final ReplicaSet<Integer> leastOutstanding = set(SelectionRule.LEAST_OUTSTANDING);
    private final ReplicaSet<Integer> roundRobin = set(SelectionRule.ROUND_ROBIN);

    private static ReplicaSet<Integer> set(SelectionRule rule) {
        List<Integer> replicas = IntStream.range(0, REPLICAS).boxed().collect(Collectors.toList());
        return ReplicaSet.of("bench", ReplicaSetConfig.builder().selectionRule(rule).build(), replicas);
    }

    /** @return the replica, so the pick cannot be eliminated */
    @Benchmark
    public int p2cPeakEwmaPickAndComplete() {
        int r = peakEwma.pick();
        peakEwma.onSuccess(r, LATENCY);
        return r;
    }

    /** @return the replica */
    @Benchmark
    public int p2cLeastOutstandingPickAndComplete() {
        int r = leastOutstanding.pick();
        leastOutstanding.onSuccess(r, LATENCY);
        return r;
    }

    /** @return the replica */
    @Benchmark
    public int roundRobinPickAndComplete() {
        int r = roundRobin.pick();
        roundRobin.onSuccess(r, LATENCY);
        return r;
    }
}

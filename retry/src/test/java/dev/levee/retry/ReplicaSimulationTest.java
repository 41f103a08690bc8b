package dev.levee.retry;

import static dev.levee.retry.ReplicaSim.MS;
import static dev.levee.retry.ReplicaSim.S;
import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualTicker;
import dev.levee.core.RandomSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Ten replicas: r0 answers ten times slower, r1 fails half its calls until it heals at 45 s. With P2C
 * over Peak-EWMA the slow replica gets at most 1% of the calls after warm-up, the failing one is
 * ejected and readmitted at the end of its ejection, and the client's p99 stays within 1.5× the
 * healthy replicas' p99; round robin misses both marks. Manual time, seeded randomness: the figures
 * are the same on every run.
 */
class ReplicaSimulationTest {
    private static final int SLOW = 0;
    private static final int FAILING = 1;
    private static final long HEALED_AT = 45 * S;
    private static final long DURATION = 120 * S;
    private static final long WARMUP = 10 * S;

    private static final ReplicaSim.Model MODEL = new ReplicaSim.Model() {
        @Override
        public long latency(int replica, long now, Random random) {
            long latency = ReplicaSim.healthyLatency(random);
            return replica == SLOW ? 10 * latency : latency;
        }

        @Override
        public boolean fails(int replica, long now, Random random) {
            return replica == FAILING && now < HEALED_AT && random.nextBoolean();
        }
    };

    private static boolean[] healthy() {
        boolean[] healthy = new boolean[10];
        for (int i = 2; i < 10; i++) {
            healthy[i] = true;
        }
        return healthy;
    }

    private static ReplicaSet<Integer> set(ManualTicker ticker, SelectionRule rule) {
        return ReplicaSet.of("sim", ReplicaSetConfig.builder().selectionRule(rule).ticker(ticker)
                .random(RandomSource.seeded(7)).build(), IntStream.range(0, 10).boxed().collect(Collectors.toList()));
    }

    @Test
    void p2cOverPeakEwmaAvoidsTheSlowReplicaEjectsTheFailingOneAndKeepsTheTail() {
        ManualTicker ticker = new ManualTicker();
        ReplicaSet<Integer> set = set(ticker, SelectionRule.PEAK_EWMA);
        List<ReplicaSetEvent> events = new ArrayList<>();
        set.onEvent(events::add);
        ReplicaSim.Result r = ReplicaSim.run(set, ticker, MODEL, MS, DURATION, WARMUP, healthy(), 11);

        long clientP99 = ReplicaSim.Result.percentile(r.client, 0.99);
        long healthyP99 = ReplicaSim.Result.percentile(r.healthy, 0.99);
        System.out.printf("P2C+Peak-EWMA: slow share %.4f%%, failing share %.2f%%, client p99 %.1f ms, healthy p99 %.1f ms%n",
                100 * r.share(SLOW), 100 * r.share(FAILING), clientP99 / 1e6, healthyP99 / 1e6);
        assertThat(r.share(SLOW)).isLessThanOrEqualTo(0.01);
        assertThat((double) clientP99).isLessThanOrEqualTo(1.5 * healthyP99);

        List<ReplicaSetEvent.Ejected> ejections = events.stream().filter(e -> e instanceof ReplicaSetEvent.Ejected)
                .map(e -> (ReplicaSetEvent.Ejected) e).collect(Collectors.toList());
        List<ReplicaSetEvent.Readmitted> readmissions = events.stream()
                .filter(e -> e instanceof ReplicaSetEvent.Readmitted).map(e -> (ReplicaSetEvent.Readmitted) e)
                .collect(Collectors.toList());
        assertThat(ejections).isNotEmpty().allSatisfy(e -> assertThat(e.index()).isEqualTo(FAILING));
        assertThat(readmissions).hasSameSizeAs(ejections);
        for (int i = 0; i < ejections.size(); i++) {
            ReplicaSetEvent.Ejected e = ejections.get(i);
            assertThat(e.ejectionNanos()).isEqualTo(Math.min(30 * S * e.ejections(), 300 * S));
            long due = e.tickerNanos() + e.ejectionNanos();
            // readmitted by the first pick at or after the end of the ejection (calls arrive every 1 ms)
            assertThat(readmissions.get(i).tickerNanos()).isBetween(due, due + MS);
        }
        ReplicaSetEvent.Readmitted last = readmissions.get(readmissions.size() - 1);
        assertThat(last.tickerNanos()).isGreaterThan(HEALED_AT);
        assertThat(set.isEjected(FAILING)).isFalse();
        // back in service once healthy: it takes its share of the calls after the last readmission
        ReplicaSim.Result after = ReplicaSim.run(set, ticker, MODEL, MS, 20 * S, 0, healthy(), 12);
        assertThat(after.share(FAILING)).isGreaterThan(0.05);
    }

    @Test
    void roundRobinMissesTheMarks() {
        ManualTicker ticker = new ManualTicker();
        ReplicaSet<Integer> set = set(ticker, SelectionRule.ROUND_ROBIN);
        ReplicaSim.Result r = ReplicaSim.run(set, ticker, MODEL, MS, DURATION, WARMUP, healthy(), 11);
        long clientP99 = ReplicaSim.Result.percentile(r.client, 0.99);
        long healthyP99 = ReplicaSim.Result.percentile(r.healthy, 0.99);
        System.out.printf("Round robin: slow share %.2f%%, client p99 %.1f ms, healthy p99 %.1f ms%n",
                100 * r.share(SLOW), clientP99 / 1e6, healthyP99 / 1e6);
        assertThat(r.share(SLOW)).isGreaterThan(0.05);
        assertThat((double) clientP99).isGreaterThan(1.5 * healthyP99);
    }
}

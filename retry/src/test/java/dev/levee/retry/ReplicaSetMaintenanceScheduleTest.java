package dev.levee.retry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualTicker;
import dev.levee.core.RandomSource;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The replica set's maintenance schedule, one task at a time with the others far away: a readmission
 * at its ejection's end, the success-rate pass at its interval, the health signal's read at its
 * interval. Each runs on the first pick at its due time, not a nanosecond later, and not a nanosecond
 * before. Also the success-rate pass at its bounds (minimum calls and replicas exactly met, the second
 * interval's own counts), the ejection cap's event and count, and the failure streak after a readmission.
 */
class ReplicaSetMaintenanceScheduleTest {
    private static final long MS = 1_000_000L;
    private static final long S = 1_000 * MS;
    private static final long T0 = 7 * MS;
    private final ManualTicker ticker = new ManualTicker(T0);
    private final IOException boom = new IOException("boom");
    private final List<ReplicaSetEvent> events = new ArrayList<>();

    private ReplicaSet<String> set(ReplicaSetConfig.Builder builder, int replicas) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < replicas; i++) {
            names.add("r" + i);
        }
        ReplicaSet<String> set = ReplicaSet.of("s", builder.ticker(ticker).random(RandomSource.seeded(3)).build(),
                names);
        set.onEvent(events::add);
        return set;
    }

    /** A pick whose call says nothing about the replica: it only runs the maintenance that is due. */
    private static void probe(ReplicaSet<String> set) {
        set.onIgnored(set.pick());
    }

    private static void fail(ReplicaSet<String> set, int replica, int times, IOException failure) {
        for (int i = 0; i < times; i++) {
            int r = set.pick(new int[] {replica});
            assertThat(r).isEqualTo(replica);
            set.onFailure(r, MS, failure);
        }
    }

    private static void succeed(ReplicaSet<String> set, int replica, int times) {
        for (int i = 0; i < times; i++) {
            int r = set.pick(new int[] {replica});
            assertThat(r).isEqualTo(replica);
            set.onSuccess(r, MS);
        }
    }

    private void at(long nanos) {
        ticker.advance(nanos - ticker.read());
    }

    @Test
    void eachEjectionEndsExactlyAtItsOwnEndWithTheOtherTasksAnHourAway() {
        ReplicaSet<String> set = set(ReplicaSetConfig.builder().selectionRule(SelectionRule.ROUND_ROBIN)
                .consecutiveFailures(2).baseEjectionTime(Duration.ofSeconds(30)).maxEjectedShare(0.5)
                .failureRateInterval(Duration.ofHours(1)), 4);

        // r0: three calls in flight; two fail (ejected for 30 s), the third fails while it is ejected.
        int[] calls = {set.pick(new int[] {0}), set.pick(new int[] {0}), set.pick(new int[] {0})};
        set.onFailure(calls[0], MS, boom);
        set.onFailure(calls[1], MS, boom);
        assertThat(set.isEjected(0)).isTrue();
        set.onFailure(calls[2], MS, boom);
        at(T0 + 10 * S);
        fail(set, 1, 2, boom); // r1 ejected until T0 + 40 s, after r0's end
        assertThat(set.isEjected(1)).isTrue();

        at(T0 + 30 * S - 1);
        probe(set);
        assertThat(set.isEjected(0)).as("not a nanosecond early").isTrue();
        at(T0 + 30 * S);
        probe(set);
        assertThat(set.isEjected(0)).as("readmitted exactly at the end").isFalse();
        assertThat(events).contains(new ReplicaSetEvent.Readmitted("s", T0 + 30 * S, 0, "r0"));
        assertThat(set.isEjected(1)).isTrue();

        at(T0 + 40 * S - 1);
        probe(set);
        assertThat(set.isEjected(1)).as("the second ejection's end is rescheduled, not early").isTrue();
        at(T0 + 40 * S);
        probe(set);
        assertThat(set.isEjected(1)).isFalse();
        assertThat(events).contains(new ReplicaSetEvent.Readmitted("s", T0 + 40 * S, 1, "r1"));
        assertThat(set.metrics().ejected()).isZero();

        // The readmission cleared r0's streak (the failure it took while ejected counts no more): one
        // failure after it does not eject, the configured two do.
        fail(set, 0, 1, boom);
        assertThat(set.isEjected(0)).isFalse();
        fail(set, 0, 1, boom);
        assertThat(set.isEjected(0)).isTrue();
    }

    @Test
    void anEjectionWithoutTheSuccessRatePassEndsExactlyAtItsEnd() {
        ReplicaSet<String> set = set(ReplicaSetConfig.builder().consecutiveFailures(1)
                .baseEjectionTime(Duration.ofSeconds(30)).failureRateEjection(false), 4);
        fail(set, 2, 1, boom);
        at(T0 + 30 * S - 1);
        probe(set);
        assertThat(set.isEjected(2)).isTrue();
        at(T0 + 30 * S);
        probe(set);
        assertThat(set.isEjected(2)).isFalse();
        assertThat(events).contains(new ReplicaSetEvent.Readmitted("s", T0 + 30 * S, 2, "r2"));
    }

    /**
     * Rates 1, 1, 1, 0.75 (4 calls each, exactly the minimum) and 0.5 (8 calls): mean 0.85, standard
     * deviation 0.2, threshold 0.65 with a factor of 1. Only r4 is ejected: r3 is below the mean but
     * within one deviation of it. The pass runs exactly one interval after the set was created, even
     * though the first call came 3 s later.
     */
    @Test
    void theSuccessRatePassRunsExactlyAtItsIntervalAndEjectsOnlyBelowTheThreshold() {
        ReplicaSet<String> set = set(ReplicaSetConfig.builder().consecutiveFailures(1000)
                .baseEjectionTime(Duration.ofHours(1)).maxEjectionTime(Duration.ofHours(2)).maxEjectedShare(0.4)
                .failureRateInterval(Duration.ofSeconds(10)).failureRateMinimumCalls(4).failureRateMinimumReplicas(3)
                .failureRateStdevFactor(1.0), 5);
        at(T0 + 3 * S);
        for (int i = 0; i < 3; i++) {
            succeed(set, i, 4);
        }
        succeed(set, 3, 3);
        fail(set, 3, 1, boom);
        succeed(set, 4, 4);
        fail(set, 4, 4, boom);

        at(T0 + 10 * S - 1);
        probe(set);
        assertThat(set.isEjected(4)).as("the pass is not early").isFalse();
        at(T0 + 10 * S);
        probe(set);
        assertThat(events).containsExactly(new ReplicaSetEvent.Ejected("s", T0 + 10 * S, 4, "r4",
                ReplicaSetEvent.FAILURE_RATE, 3_600 * S, 1));

        // Second interval: r0..r2 succeed 4 times (3 replicas compared, exactly the minimum, all at 1);
        // r3 succeeds 3 times, fewer calls than it needs: it is not compared, and neither its failure of
        // the first interval nor its rate then (0.75, below this interval's mean) counts now.
        for (int i = 0; i < 3; i++) {
            succeed(set, i, 4);
        }
        succeed(set, 3, 3);
        at(T0 + 20 * S);
        probe(set);
        assertThat(set.isEjected(3)).isFalse();
        assertThat(events).hasSize(1);
    }

    /**
     * Rates 1, 1, 1 and 0.75 with a factor of 1.7320507983312736 put the threshold (mean − factor ×
     * stdev − 1e-9) at exactly 0.75 in double arithmetic: a rate equal to the threshold stays in. Three
     * ulps less of factor put it at 0.7500000000000001, and the same rate is ejected.
     */
    @Test
    void aRateExactlyAtTheThresholdIsNotEjected() {
        for (double factor : new double[] {1.7320507983312736, 1.732050798331273}) {
            events.clear();
            ReplicaSet<String> set = set(ReplicaSetConfig.builder().consecutiveFailures(1000)
                    .failureRateInterval(Duration.ofSeconds(10)).failureRateMinimumCalls(4)
                    .failureRateMinimumReplicas(4).failureRateStdevFactor(factor).maxEjectedShare(0.25), 4);
            for (int i = 0; i < 3; i++) {
                succeed(set, i, 4);
            }
            succeed(set, 3, 3);
            fail(set, 3, 1, boom);
            ticker.advance(10 * S);
            probe(set);
            assertThat(set.isEjected(3)).as("factor %s", factor).isEqualTo(factor < 1.7320507983312736);
        }
    }

    @Test
    void eachPassComparesOnlyItsOwnIntervalsCallsAndTheNextPassFollowsAtTheInterval() {
        ReplicaSet<String> set = set(ReplicaSetConfig.builder().consecutiveFailures(1000)
                .baseEjectionTime(Duration.ofHours(1)).maxEjectionTime(Duration.ofHours(2)).maxEjectedShare(0.4).failureRateInterval(Duration.ofSeconds(10))
                .failureRateMinimumCalls(4).failureRateMinimumReplicas(4).failureRateStdevFactor(1.0), 5);
        // First interval: r0..r3 succeed 4 times each, r4 fails 4 times: r4 ejected at 10 s (z = 2).
        for (int i = 0; i < 4; i++) {
            succeed(set, i, 4);
        }
        fail(set, 4, 4, boom);
        at(T0 + 10 * S);
        probe(set);
        assertThat(set.isEjected(4)).isTrue();

        // Second interval: r0 fails twice, fewer than the 4 calls it needs in this interval (its 4
        // successes belong to the first); r1..r3 succeed 4 times. Only 3 replicas compared: no ejection.
        fail(set, 0, 2, boom);
        for (int i = 1; i < 4; i++) {
            succeed(set, i, 4);
        }
        at(T0 + 20 * S);
        probe(set);
        assertThat(set.isEjected(0)).as("the first interval's successes are not counted again").isFalse();

        // Third interval: r0 fails 4 times; rates 0, 1, 1, 1 (z = 1.73 > 1): ejected exactly at 30 s.
        fail(set, 0, 4, boom);
        for (int i = 1; i < 4; i++) {
            succeed(set, i, 4);
        }
        at(T0 + 30 * S - 1);
        probe(set);
        assertThat(set.isEjected(0)).isFalse();
        at(T0 + 30 * S);
        probe(set);
        assertThat(set.isEjected(0)).isTrue();
        assertThat(events).containsExactly(
                new ReplicaSetEvent.Ejected("s", T0 + 10 * S, 4, "r4", ReplicaSetEvent.FAILURE_RATE, 3_600 * S, 1),
                new ReplicaSetEvent.Ejected("s", T0 + 30 * S, 0, "r0", ReplicaSetEvent.FAILURE_RATE, 3_600 * S, 1));
    }

    @Test
    void theHealthSignalIsReadExactlyAtItsIntervalWithTheOtherTasksFarAway() {
        ReplicaSet<String> set = set(ReplicaSetConfig.builder().failureRateInterval(Duration.ofHours(1))
                .healthCheckInterval(Duration.ofSeconds(1)), 3);
        AtomicInteger reads = new AtomicInteger();
        set.healthSignal(r -> {
            reads.incrementAndGet();
            return !r.equals("r1") || reads.get() <= 3; // r1 turns unhealthy from the second read on
        });
        probe(set);
        assertThat(reads).hasValue(3);
        at(T0 + S - 1);
        probe(set);
        assertThat(reads).as("not early").hasValue(3);
        assertThat(set.isUp(1)).isTrue();
        at(T0 + S);
        probe(set);
        assertThat(reads).hasValue(6);
        assertThat(set.isUp(1)).isFalse();
        assertThat(events).containsExactly(new ReplicaSetEvent.HealthChanged("s", T0 + S, 1, "r1", false));
        at(T0 + 2 * S);
        probe(set);
        assertThat(reads).hasValue(9);
    }

    @Test
    void theHealthSignalIsReadAtItsIntervalWithoutTheSuccessRatePass() {
        ReplicaSet<String> set = set(ReplicaSetConfig.builder().failureRateEjection(false)
                .healthCheckInterval(Duration.ofSeconds(1)), 2);
        AtomicInteger reads = new AtomicInteger();
        set.healthSignal(r -> {
            reads.incrementAndGet();
            return true;
        });
        probe(set);
        at(T0 + S - 1);
        probe(set);
        assertThat(reads).hasValue(2);
        at(T0 + S);
        probe(set);
        assertThat(reads).hasValue(4);
    }

    /**
     * All three tasks on one set, each on its own time: health reads every 4 s, the success-rate pass
     * every 10 s, r3's readmission 5 s after the pass ejects it. A task that runs does not run the
     * others before they are due (the pass does not run at a health read, nor the read at the pass).
     */
    @Test
    void eachTaskKeepsItsOwnTimeWhenAnotherOneRuns() {
        ReplicaSet<String> set = set(ReplicaSetConfig.builder().consecutiveFailures(1000)
                .baseEjectionTime(Duration.ofSeconds(5)).maxEjectedShare(0.25).failureRateInterval(Duration.ofSeconds(10))
                .failureRateMinimumCalls(4).failureRateMinimumReplicas(3).failureRateStdevFactor(1.0)
                .healthCheckInterval(Duration.ofSeconds(4)), 4);
        AtomicInteger reads = new AtomicInteger();
        set.healthSignal(r -> {
            reads.incrementAndGet();
            return true;
        });
        for (int i = 0; i < 3; i++) {
            succeed(set, i, 4);
        }
        fail(set, 3, 4, boom);
        assertThat(reads).hasValue(4);

        at(T0 + 4 * S);
        probe(set);
        assertThat(reads).hasValue(8);
        assertThat(set.isEjected(3)).as("no pass at a health read").isFalse();
        at(T0 + 8 * S);
        probe(set);
        assertThat(reads).hasValue(12);
        at(T0 + 10 * S);
        probe(set);
        assertThat(set.isEjected(3)).isTrue();
        assertThat(reads).as("no read at the pass").hasValue(12);
        at(T0 + 12 * S);
        probe(set);
        assertThat(reads).hasValue(16);
        at(T0 + 15 * S);
        probe(set);
        assertThat(set.isEjected(3)).isFalse();
        assertThat(reads).as("no read at the readmission").hasValue(16);
        at(T0 + 16 * S);
        probe(set);
        assertThat(reads).hasValue(20);
        assertThat(events).containsExactly(
                new ReplicaSetEvent.Ejected("s", T0 + 10 * S, 3, "r3", ReplicaSetEvent.FAILURE_RATE, 5 * S, 1),
                new ReplicaSetEvent.Readmitted("s", T0 + 15 * S, 3, "r3"));
    }

    @Test
    void anEjectionBeyondTheCapIsCountedAndPublishedAndTheReplicaStaysIn() {
        ReplicaSet<String> set = set(ReplicaSetConfig.builder().consecutiveFailures(2).failureRateEjection(false), 4);
        assertThat(set.config().maxEjected(4)).isEqualTo(1);
        fail(set, 0, 2, boom);
        assertThat(set.isEjected(0)).isTrue();
        fail(set, 1, 2, boom);
        assertThat(set.isEjected(1)).isFalse();
        assertThat(set.metrics().ejectionsCapped()).isEqualTo(1);
        assertThat(set.metrics().ejections()).isEqualTo(1);
        assertThat(events).containsExactly(
                new ReplicaSetEvent.Ejected("s", T0, 0, "r0", ReplicaSetEvent.CONSECUTIVE_FAILURES, 30 * S, 1),
                new ReplicaSetEvent.EjectionCapped("s", T0, 1, "r1", ReplicaSetEvent.CONSECUTIVE_FAILURES, 1));
    }
}

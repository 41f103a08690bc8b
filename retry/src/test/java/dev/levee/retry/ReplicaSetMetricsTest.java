package dev.levee.retry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualTicker;
import dev.levee.core.RandomSource;
import dev.levee.core.Subscription;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A replica set's metrics, to the unit, after a scripted run on the manual ticker: the test counts every
 * pick and completion itself and compares the set's totals and each replica's snapshot with its own
 * tally (one replica ejected, one reported unhealthy, one call still in flight).
 */
class ReplicaSetMetricsTest {
    private static final long MS = 1_000_000L;
    private final ManualTicker ticker = new ManualTicker(7 * MS);
    private final IOException boom = new IOException("boom");

    @Test
    void theTotalsAndEachReplicasSnapshotMatchAnIndependentTally() {
        ReplicaSet<String> set = ReplicaSet.of("m", ReplicaSetConfig.builder().ticker(ticker)
                .random(RandomSource.seeded(1)).selectionRule(SelectionRule.ROUND_ROBIN).failureRateEjection(false)
                .build(), List.of("r0", "r1", "r2", "r3"));
        List<ReplicaSetEvent> events = new ArrayList<>();
        Subscription subscription = set.onEvent(events::add);
        long[] picks = new long[4];
        long[] successes = new long[4];
        long[] failures = new long[4];

        // Replica 2 fails five times in a row (ejected); the others succeed; 40 picks in all.
        for (int i = 0; i < 40; i++) {
            int r = set.pick();
            picks[r]++;
            if (r == 2) {
                set.onFailure(r, MS, boom);
                failures[r]++;
            } else {
                set.onSuccess(r, MS);
                successes[r]++;
            }
        }
        assertThat(failures[2]).isEqualTo(5);
        set.reportHealth(1, false);
        assertThat(events).contains(new ReplicaSetEvent.HealthChanged("m", 7 * MS, 1, "r1", false));
        int inFlight = set.pick();
        picks[inFlight]++;

        assertThat(set.metrics()).isEqualTo(new ReplicaSetMetrics(4, sum(picks), sum(successes), sum(failures), 1,
                1, 1, false, 0, 1, 0));
        for (int i = 0; i < 4; i++) {
            assertThat(set.metrics(i)).isEqualTo(new ReplicaSetMetrics.Replica(i, "r" + i, picks[i], successes[i],
                    failures[i], i == inFlight ? 1 : 0, i == 2, i != 1, i == 2 ? 1 : 0, Double.NaN));
        }

        subscription.close();
        set.reportHealth(1, true);
        assertThat(events).as("no event after the subscription is closed")
                .doesNotContain(new ReplicaSetEvent.HealthChanged("m", 7 * MS, 1, "r1", true));
        assertThat(set.metrics().unhealthy()).isZero();
    }

    /** {@code execute} measures each call on the set's ticker and feeds it to Peak-EWMA, failures included. */
    @Test
    void executeFeedsEachCallsMeasuredLatencyToTheEstimate() throws Exception {
        ReplicaSet<String> set = ReplicaSet.of("e", ReplicaSetConfig.builder().ticker(ticker)
                .random(RandomSource.seeded(1)).failureRateEjection(false).build(), List.of("only"));
        String answer = set.execute(r -> {
            ticker.advance(5 * MS);
            return r;
        });
        assertThat(answer).isEqualTo("only");
        assertThat(set.metrics(0).latencyEstimateNanos()).isEqualTo(5.0 * MS);

        IOException slow = new IOException("slow failure");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> set.execute(r -> {
            ticker.advance(20 * MS);
            throw slow;
        })).isSameAs(slow);
        assertThat(set.metrics(0).latencyEstimateNanos()).as("a slow failure raises the estimate at once")
                .isEqualTo(20.0 * MS);
        assertThat(set.metrics(0).outstanding()).isZero();
        assertThat(set.metrics(0).failures()).isEqualTo(1);
    }

    @Test
    void aPickWithinAShardCountsTheCallInFlight() {
        ReplicaSet<String> set = ReplicaSet.of("s", ReplicaSetConfig.builder().ticker(ticker)
                .random(RandomSource.seeded(1)).build(), List.of("r0", "r1", "r2"));
        assertThat(set.pick(new int[] {1})).isEqualTo(1);
        assertThat(set.outstanding(1)).isEqualTo(1);
        assertThat(set.metrics().picks()).isEqualTo(1);
        set.onSuccess(1, MS);
        assertThat(set.outstanding(1)).isZero();
    }

    /**
     * The replicas counted down (the panic state's input) move once per change of a replica's state: a
     * health report that changes nothing moves nothing, and an ejected replica reported unhealthy too
     * is still one replica down.
     */
    @Test
    void aReplicaIsCountedDownOnceWhateverTheReportsSay() {
        ReplicaSet<String> set = ReplicaSet.of("d", ReplicaSetConfig.builder().ticker(ticker)
                .random(RandomSource.seeded(1)).selectionRule(SelectionRule.ROUND_ROBIN).failureRateEjection(false)
                .build(), List.of("r0", "r1", "r2", "r3"));
        assertThat(set.isUp(0)).isTrue();
        set.reportHealth(0, true); // already healthy
        set.reportHealth(0, true);
        assertThat(set.downCount()).isZero();
        set.reportHealth(0, false);
        assertThat(set.isUp(0)).isFalse();
        set.reportHealth(0, false); // already unhealthy
        assertThat(set.downCount()).isEqualTo(1);
        set.reportHealth(0, true);
        assertThat(set.downCount()).isZero();

        for (int i = 0; i < 5; i++) {
            int r;
            do {
                r = set.pick();
                if (r != 2) {
                    set.onSuccess(r, MS);
                }
            } while (r != 2);
            set.onFailure(2, MS, boom);
        }
        assertThat(set.isEjected(2)).isTrue();
        assertThat(set.isUp(2)).isFalse();
        assertThat(set.isUp(0)).isTrue();
        assertThat(set.downCount()).isEqualTo(1);
        set.reportHealth(2, false);
        assertThat(set.downCount()).as("ejected and unhealthy: still one replica down").isEqualTo(1);
        set.reportHealth(2, true);
        assertThat(set.downCount()).as("healthy again but still ejected").isEqualTo(1);
        assertThat(set.panicking()).isFalse();
    }

    /** The estimate read later is the stored one decayed by exp(-elapsed / decay time). */
    @Test
    void theEstimateReadLaterIsDecayed() {
        ReplicaSet<String> set = ReplicaSet.of("decay", ReplicaSetConfig.builder().ticker(ticker)
                .random(RandomSource.seeded(1)).decayTime(java.time.Duration.ofSeconds(10)).failureRateEjection(false)
                .build(), List.of("only"));
        set.onSuccess(set.pick(), 10 * MS);
        ticker.advance(java.time.Duration.ofSeconds(10));
        long tenSeconds = 10_000 * MS;
        // time is kept in 65.5 us units: the elapsed time read is rounded down to one
        double w = Math.exp(-(double) ((ticker.read() >>> 16) - ((ticker.read() - tenSeconds) >>> 16) << 16)
                / tenSeconds);
        assertThat(set.metrics(0).latencyEstimateNanos()).isCloseTo(10.0 * MS * w,
                org.assertj.core.data.Offset.offset(0.01 * MS));
        assertThat(w).isLessThan(0.4);
    }

    private static long sum(long[] values) {
        long s = 0;
        for (long v : values) {
            s += v;
        }
        return s;
    }
}

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

    private static long sum(long[] values) {
        long s = 0;
        for (long v : values) {
            s += v;
        }
        return s;
    }
}

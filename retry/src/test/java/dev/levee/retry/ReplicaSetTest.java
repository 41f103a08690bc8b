package dev.levee.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.ManualTicker;
import dev.levee.core.RandomSource;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ReplicaSetTest {
    private static final long MS = 1_000_000L;
    private static final long S = 1_000 * MS;
    private final ManualTicker ticker = new ManualTicker();
    private final IOException boom = new IOException("boom");

    private ReplicaSetConfig.Builder config() {
        return ReplicaSetConfig.builder().ticker(ticker).random(RandomSource.seeded(42));
    }

    private static List<String> names(int n) {
        return IntStream.range(0, n).mapToObj(i -> "r" + i).collect(Collectors.toList());
    }

    /** Picks and completes at once {@code calls} times; answers how many picks each replica got. */
    private static int[] spread(ReplicaSet<?> set, int calls) {
        int[] counts = new int[set.size()];
        for (int i = 0; i < calls; i++) {
            int r = set.pick();
            counts[r]++;
            set.onSuccess(r, MS);
        }
        return counts;
    }

    @Test
    void aDuplicateCompletionCountsNothing() {
        // Default: 5 consecutive failures eject. One call reported failed five times must not eject.
        ReplicaSet<String> set = ReplicaSet.of("dup", config().selectionRule(SelectionRule.ROUND_ROBIN).build(), names(2));
        int failed = set.pick();
        for (int i = 0; i < 5; i++) {
            set.onFailure(failed, MS, boom);
        }
        int succeeded = set.pick();
        set.onSuccess(succeeded, MS);
        set.onSuccess(succeeded, MS);
        set.onCancelled(succeeded, MS);
        set.onIgnored(succeeded);
        assertThat(set.isEjected(failed)).isFalse();
        ReplicaSetMetrics m = set.metrics();
        assertThat(m.picks()).isEqualTo(2);
        assertThat(m.failures()).isEqualTo(1);
        assertThat(m.successes()).isEqualTo(1);
        assertThat(m.outstanding()).isZero();
    }

    @Test
    void roundRobinVisitsEveryReplicaInTurn() {
        ReplicaSet<String> set = ReplicaSet.of("rr", config().selectionRule(SelectionRule.ROUND_ROBIN).build(), names(4));
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            int r = set.pick();
            order.add(r);
            set.onSuccess(r, MS);
        }
        assertThat(order).containsExactly(0, 1, 2, 3, 0, 1, 2, 3);
    }

    @Test
    void roundRobinSkipsADownReplica() {
        ReplicaSet<String> set = ReplicaSet.of("rr", config().selectionRule(SelectionRule.ROUND_ROBIN).build(), names(4));
        set.reportHealth(1, false);
        assertThat(spread(set, 400)).containsExactly(100, 0, 200, 100); // r1's turn goes to r2
    }

    @Test
    void randomSpreadsEvenly() {
        ReplicaSet<String> set = ReplicaSet.of("random", config().selectionRule(SelectionRule.RANDOM).build(), names(5));
        for (int count : spread(set, 50_000)) {
            assertThat(count).isBetween(9_500, 10_500);
        }
    }

    @Test
    void leastOutstandingPrefersTheLessLoadedOfTwo() {
        ReplicaSet<String> set = ReplicaSet.of("lo", config().selectionRule(SelectionRule.LEAST_OUTSTANDING).build(),
                names(2));
        int busy = set.pick(); // now one call in flight on it
        for (int i = 0; i < 100; i++) {
            int r = set.pick();
            assertThat(r).isNotEqualTo(busy);
            set.onSuccess(r, MS);
        }
    }

    @Test
    void peakEwmaJumpsUpAtOnceAndDecaysTowardRecentLatencies() {
        ReplicaSet<String> set = ReplicaSet.of("ewma", config().build(), names(1));
        set.onSuccess(set.pick(), 10 * MS);
        assertThat(set.metrics(0).latencyEstimateNanos()).isEqualTo(10.0 * MS);
        set.onSuccess(set.pick(), 100 * MS); // a peak: up at once
        assertThat(set.metrics(0).latencyEstimateNanos()).isCloseTo(100.0 * MS, org.assertj.core.data.Offset.offset(1e-3 * MS));
        ticker.advance(Duration.ofSeconds(10)); // one time constant
        set.onSuccess(set.pick(), 10 * MS);
        // decayed = 100·e^-1 = 36.79 ms; estimate = decayed + 10·(1 − e^-1) = 43.1 ms (time in 65.5 us units)
        double w = Math.exp(-1.0 * (10 * S >>> 16 << 16) / (10.0 * S));
        assertThat(set.metrics(0).latencyEstimateNanos() / MS).isCloseTo(100 * w + 10 * (1 - w),
                org.assertj.core.data.Offset.offset(0.01));
    }

    /** Picks until {@code wanted} comes up, completing the others as ignored (rules without an unknown replica). */
    private static int pickExactly(ReplicaSet<?> set, int wanted) {
        for (int i = 0; i < 100_000; i++) {
            int r = set.pick();
            if (r == wanted) {
                return r;
            }
            set.onIgnored(r);
        }
        throw new AssertionError("replica " + wanted + " never picked");
    }

    @Test
    void peakEwmaAvoidsASlowReplicaAndProbesItAgainAfterItsEstimateDecays() {
        ReplicaSet<String> set = ReplicaSet.of("ewma", config().build(), names(2));
        // Teach it: r0 answers in 10 ms, r1 in 100 ms (an unknown replica is always tried first).
        for (int i = 0; i < 2; i++) {
            int r = set.pick();
            set.onSuccess(r, r == 0 ? 10 * MS : 100 * MS);
        }
        for (int i = 0; i < 50; i++) {
            int r = set.pick();
            assertThat(r).isZero();
            set.onSuccess(r, 10 * MS);
        }
        // Idle r1's estimate decays: 100·e^(−t/10 s) < 10 ms·(0 + 1) after t > 10·ln 10 = 23 s.
        // Both idle estimates decay alike, so r1 wins once r0 answers again and r1's sample is 23 s older.
        ticker.advance(Duration.ofSeconds(22));
        int r = set.pick();
        assertThat(r).isZero();
        set.onSuccess(r, 10 * MS);
        ticker.advance(Duration.ofSeconds(2));
        r = set.pick();
        assertThat(r).isZero();
        set.onSuccess(r, 10 * MS); // r0 fresh at 10 ms; r1 at 100·e^(−2.4) = 9.1 ms
        assertThat(set.pick()).isEqualTo(1);
    }

    @Test
    void aFailureOrACancellationCanRaiseTheEstimateButNeverLowerIt() {
        ReplicaSet<String> set = ReplicaSet.of("ewma", config().failureRateEjection(false).build(), names(1));
        set.onSuccess(set.pick(), 50 * MS);
        set.onFailure(set.pick(), MS, boom);
        assertThat(set.metrics(0).latencyEstimateNanos()).isEqualTo(50.0 * MS);
        set.onCancelled(set.pick(), 80 * MS);
        assertThat(set.metrics(0).latencyEstimateNanos()).isEqualTo(80.0 * MS);
        set.onCancelled(set.pick(), 10 * MS);
        assertThat(set.metrics(0).latencyEstimateNanos()).isEqualTo(80.0 * MS);
    }

    @Test
    void aReplicaWithoutASampleIsTriedOneCallAtATime() {
        ReplicaSet<String> set = ReplicaSet.of("ewma", config().build(), names(2));
        int known = set.pick();
        set.onSuccess(known, 10 * MS); // the other is unknown: cost 0 while idle
        int probe = set.pick();
        assertThat(probe).isEqualTo(1 - known);
        // the probe now costs initialLatency (100 ms) × 1 call in flight: the known one (10 ms) wins until it answers
        for (int i = 0; i < 20; i++) {
            int r = set.pick();
            assertThat(r).isEqualTo(known);
            set.onSuccess(r, 10 * MS);
        }
        set.onSuccess(probe, 5 * MS);
        assertThat(set.metrics(probe).latencyEstimateNanos()).isEqualTo(5.0 * MS);
    }

    @Test
    void fiveFailuresInARowEjectForTheBaseTimeThenTheReplicaIsReadmitted() {
        ReplicaSet<String> set = ReplicaSet.of("ej", config().selectionRule(SelectionRule.ROUND_ROBIN).build(), names(10));
        List<ReplicaSetEvent> events = new ArrayList<>();
        set.onEvent(events::add);
        for (int i = 0; i < 4; i++) {
            set.onFailure(pickExactly(set, 3), MS, boom);
        }
        set.onSuccess(pickExactly(set, 3), MS); // a success breaks the streak
        for (int i = 0; i < 4; i++) {
            set.onFailure(pickExactly(set, 3), MS, boom);
        }
        assertThat(set.isEjected(3)).isFalse();
        set.onFailure(pickExactly(set, 3), MS, boom);
        assertThat(set.isEjected(3)).isTrue();
        long ejectedAt = ticker.read();
        assertThat(events).containsExactly(new ReplicaSetEvent.Ejected("ej", ejectedAt, 3, "r3",
                ReplicaSetEvent.CONSECUTIVE_FAILURES, 30 * S, 1));
        assertThat(spread(set, 900)[3]).isZero();
        ticker.advance(30 * S - 1);
        assertThat(spread(set, 90)[3]).isZero();
        ticker.advance(1);
        assertThat(spread(set, 100)[3]).isEqualTo(10);
        assertThat(events.get(1)).isEqualTo(new ReplicaSetEvent.Readmitted("ej", ejectedAt + 30 * S, 3, "r3"));
    }

    @Test
    void theEjectionTimeIsBaseTimesEjectionsCappedAtTheMaximum() {
        ReplicaSet<String> set = ReplicaSet.of("ej", config().selectionRule(SelectionRule.ROUND_ROBIN)
                .maxEjectionTime(Duration.ofSeconds(100)).build(), names(10));
        List<Long> durations = new ArrayList<>();
        set.onEvent(e -> {
            if (e instanceof ReplicaSetEvent.Ejected) {
                durations.add(((ReplicaSetEvent.Ejected) e).ejectionNanos() / S);
            }
        });
        for (int round = 0; round < 5; round++) {
            for (int i = 0; i < 5; i++) {
                set.onFailure(pickExactly(set, 7), MS, boom);
            }
            ticker.advance(Duration.ofSeconds(100)); // every ejection has ended
        }
        assertThat(durations).containsExactly(30L, 60L, 90L, 100L, 100L);
    }

    @Test
    void theEjectionCountIsForgivenAfterMaxEjectionTimeBackInService() {
        ReplicaSet<String> set = ReplicaSet.of("ej", config().selectionRule(SelectionRule.ROUND_ROBIN).build(), names(10));
        List<Long> durations = new ArrayList<>();
        set.onEvent(e -> {
            if (e instanceof ReplicaSetEvent.Ejected) {
                durations.add(((ReplicaSetEvent.Ejected) e).ejectionNanos() / S);
            }
        });
        for (int i = 0; i < 5; i++) {
            set.onFailure(pickExactly(set, 2), MS, boom);
        }
        ticker.advance(Duration.ofSeconds(30));
        set.onSuccess(set.pick(), MS); // readmits
        ticker.advance(Duration.ofSeconds(300));
        for (int i = 0; i < 5; i++) {
            set.onFailure(pickExactly(set, 2), MS, boom);
        }
        assertThat(durations).containsExactly(30L, 30L);
    }

    @Test
    void theEjectionCapHoldsWhenEveryReplicaFails() {
        ReplicaSet<String> set = ReplicaSet.of("cap", config().selectionRule(SelectionRule.ROUND_ROBIN).build(), names(10));
        for (int i = 0; i < 1_000; i++) {
            set.onFailure(set.pick(), MS, boom);
            assertThat(set.metrics().ejected()).isLessThanOrEqualTo(1);
            if (i % 97 == 0) {
                ticker.advance(Duration.ofSeconds(7));
            }
        }
        assertThat(set.metrics().ejectionsCapped()).isPositive();
        assertThat(set.panicking()).isFalse();
        ReplicaSet<String> wider = ReplicaSet.of("cap", config().maxEjectedShare(0.3).build(), names(10));
        for (int i = 0; i < 1_000; i++) {
            wider.onFailure(wider.pick(), MS, boom);
            assertThat(wider.metrics().ejected()).isLessThanOrEqualTo(3);
        }
        assertThat(wider.metrics().ejected()).isEqualTo(3);
    }

    @Test
    void panicBoundaryIsExact() {
        ReplicaSet<String> set = ReplicaSet.of("panic", config().selectionRule(SelectionRule.RANDOM).build(), names(10));
        List<ReplicaSetEvent> events = new ArrayList<>();
        set.onEvent(events::add);
        for (int i = 0; i < 4; i++) {
            set.reportHealth(i, false);
        }
        int[] four = spread(set, 6_000);
        assertThat(set.panicking()).isFalse();
        assertThat(IntStream.range(0, 4).map(i -> four[i]).sum()).isZero();
        assertThat(IntStream.range(4, 10).map(i -> four[i]).min().getAsInt()).isGreaterThan(800);

        set.reportHealth(4, false); // 5 of 10 healthy: 0.5 is not below 0.5
        assertThat(set.panicking()).isFalse();
        int[] five = spread(set, 5_000);
        assertThat(IntStream.range(0, 5).map(i -> five[i]).sum()).isZero();

        set.reportHealth(5, false); // 4 of 10 healthy: panic, traffic over all 10
        assertThat(set.panicking()).isTrue();
        int[] six = spread(set, 10_000);
        for (int i = 0; i < 10; i++) {
            assertThat(six[i]).as("replica %d in panic", i).isGreaterThan(800);
        }
        set.reportHealth(5, true);
        assertThat(set.panicking()).isFalse();
        assertThat(events).filteredOn(e -> e instanceof ReplicaSetEvent.PanicEntered)
                .containsExactly(new ReplicaSetEvent.PanicEntered("panic", 0, 4, 10));
        assertThat(events).filteredOn(e -> e instanceof ReplicaSetEvent.PanicLeft)
                .containsExactly(new ReplicaSetEvent.PanicLeft("panic", 0, 5, 10));
        assertThat(set.metrics().panics()).isEqualTo(1);
    }

    @Test
    void aHealthSignalIsReadEveryIntervalAndAnUnhealthyReplicaIsSkipped() {
        ReplicaSet<String> set = ReplicaSet.of("health", config().selectionRule(SelectionRule.ROUND_ROBIN).build(),
                names(3));
        AtomicBoolean r1Healthy = new AtomicBoolean(false);
        int[] reads = new int[1];
        set.healthSignal(r -> {
            reads[0]++;
            return !r.equals("r1") || r1Healthy.get();
        });
        assertThat(spread(set, 30)[1]).isZero();
        assertThat(reads[0]).isEqualTo(3); // once per replica, not per pick
        r1Healthy.set(true);
        ticker.advance(Duration.ofMillis(999));
        assertThat(spread(set, 30)[1]).isZero();
        ticker.advance(Duration.ofMillis(1));
        assertThat(spread(set, 30)[1]).isEqualTo(10);
        assertThat(reads[0]).isEqualTo(6);
    }

    @Test
    void aSuccessRateThatStandsOutIsEjectedAtTheEndOfTheInterval() {
        ReplicaSet<String> set = ReplicaSet.of("rate", config().selectionRule(SelectionRule.ROUND_ROBIN)
                .consecutiveFailures(1_000).build(), names(10));
        List<ReplicaSetEvent> events = new ArrayList<>();
        set.onEvent(events::add);
        for (int i = 0; i < 2_000; i++) {
            int r = set.pick();
            if (r == 6 && i % 20 < 10) {
                set.onFailure(r, MS, boom); // r6 fails half its calls, never 1,000 in a row
            } else {
                set.onSuccess(r, MS);
            }
        }
        assertThat(set.isEjected(6)).isFalse();
        ticker.advance(Duration.ofSeconds(10));
        set.onSuccess(set.pick(), MS);
        assertThat(set.isEjected(6)).isTrue();
        assertThat(events).singleElement().isInstanceOfSatisfying(ReplicaSetEvent.Ejected.class,
                e -> assertThat(e.reason()).isEqualTo(ReplicaSetEvent.FAILURE_RATE));
    }

    @Test
    void equalSuccessRatesEjectNobody() {
        ReplicaSet<String> set = ReplicaSet.of("rate", config().selectionRule(SelectionRule.ROUND_ROBIN)
                .consecutiveFailures(1_000).build(), names(7));
        for (int i = 0; i < 7_000; i++) {
            int r = set.pick();
            if (i % 70 < 7) {
                set.onFailure(r, MS, boom); // every replica fails 10%
            } else {
                set.onSuccess(r, MS);
            }
        }
        ticker.advance(Duration.ofSeconds(10));
        set.onSuccess(set.pick(), MS);
        assertThat(set.metrics().ejections()).isZero();
    }

    @Test
    void aShardPicksWithinItselfAndPanicsOnItsOwnShare() {
        ReplicaSet<String> set = ReplicaSet.of("shard", config().selectionRule(SelectionRule.RANDOM).build(), names(10));
        int[] shard = {2, 5, 7, 9};
        int[] counts = new int[10];
        for (int i = 0; i < 4_000; i++) {
            int r = set.pick(shard);
            counts[r]++;
            set.onSuccess(r, MS);
        }
        assertThat(IntStream.of(shard).map(i -> counts[i]).sum()).isEqualTo(4_000);
        set.reportHealth(5, false);
        set.reportHealth(7, false); // the shard: 2 of 4 up, not below 0.5
        int[] half = new int[10];
        for (int i = 0; i < 1_000; i++) {
            int r = set.pick(shard);
            half[r]++;
            set.onSuccess(r, MS);
        }
        assertThat(half[5] + half[7]).isZero();
        set.reportHealth(9, false); // 1 of 4: the shard panics (the whole set does not: 7 of 10 up)
        assertThat(set.panicking()).isFalse();
        int[] panic = new int[10];
        for (int i = 0; i < 4_000; i++) {
            int r = set.pick(shard);
            panic[r]++;
            set.onSuccess(r, MS);
        }
        for (int r : shard) {
            assertThat(panic[r]).isGreaterThan(800);
        }
        assertThatThrownBy(() -> set.pick(new int[0])).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void executeRecordsTheOutcomeAndRethrowsUnchanged() throws Exception {
        ReplicaSet<String> set = ReplicaSet.of("exec", config().build(), names(3));
        String answer = set.execute(r -> r + "!");
        assertThat(answer).endsWith("!");
        assertThatThrownBy(() -> set.execute(r -> {
            throw boom;
        })).isSameAs(boom);
        Error error = new AssertionError("error");
        assertThatThrownBy(() -> set.execute(r -> {
            throw error;
        })).isSameAs(error);
        ReplicaSetMetrics m = set.metrics();
        assertThat(m.picks()).isEqualTo(3);
        assertThat(m.successes()).isEqualTo(1);
        assertThat(m.failures()).isEqualTo(1);
        assertThat(m.outstanding()).isZero();
    }

    @Test
    void aCompletionWithoutAPickNeverTakesTheCountBelowZero() {
        ReplicaSet<String> set = ReplicaSet.of("neg", config().build(), names(2));
        set.onSuccess(0, MS);
        set.onIgnored(1);
        assertThat(set.outstanding(0)).isZero();
        assertThat(set.outstanding(1)).isZero();
    }
}

package dev.levee.circuitbreaker;

import static dev.levee.circuitbreaker.Fixture.MS;
import static dev.levee.circuitbreaker.Fixture.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.circuitbreaker.CircuitBreakerEvent.Rule;
import dev.levee.circuitbreaker.CircuitBreakerEvent.StateTransitioned;
import dev.levee.circuitbreaker.CircuitBreakerEvent.ThresholdExceeded;
import dev.levee.circuitbreaker.internal.CountWindow;
import dev.levee.circuitbreaker.internal.SlidingWindow;
import dev.levee.circuitbreaker.internal.TimeWindow;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Edges of the windows and the counting rules that PIT showed unpinned (issue 19): a reused ring entry
 * starts from zero, the time window spans the current bucket plus the B before it, totals past the
 * 21-bit fields keep their rates, the "check the rules" hint of each window, and a slow success ending
 * a failure run.
 */
class WindowAndCounterEdgesTest {

    @Test
    void aReusedTimeWindowEntryStartsFromZero() {
        TimeWindow w = new TimeWindow(10 * SECOND, 10); // 1 s buckets in a ring of 16 entries
        for (int i = 0; i < 3; i++) {
            w.record(SlidingWindow.SLOW_FAILURE, SECOND / 2); // epoch 0, entry 0
        }
        long later = 16 * SECOND + SECOND / 2; // epoch 16: entry 0 again
        w.record(SlidingWindow.SUCCESS, later);
        long t = w.totals(later);
        assertThat(SlidingWindow.calls(t)).isEqualTo(1);
        assertThat(SlidingWindow.failures(t)).isZero();
        assertThat(SlidingWindow.slowCalls(t)).isZero();
        assertThat(w.exactCalls(later)).isEqualTo(1);
    }

    @Test
    void theTimeWindowHoldsTheCurrentBucketAndTheBBeforeIt() {
        TimeWindow w = new TimeWindow(10 * SECOND, 10);
        w.record(SlidingWindow.FAILURE, SECOND / 2); // epoch 0
        long lastIn = 10 * SECOND + SECOND / 2; // epoch 10: oldest counted epoch is 0
        assertThat(SlidingWindow.calls(w.totals(lastIn))).isEqualTo(1);
        assertThat(w.exactCalls(lastIn)).isEqualTo(1);
        long firstOut = 11 * SECOND; // epoch 11: epoch 0 has left
        assertThat(SlidingWindow.calls(w.totals(firstOut))).isZero();
        assertThat(w.exactCalls(firstOut)).isZero();
    }

    @Test
    void aCallAtTheFirstInstantOfABucketCountsInThatBucket() {
        TimeWindow w = new TimeWindow(10 * SECOND, 10);
        w.record(SlidingWindow.FAILURE, SECOND / 2); // epoch 0
        w.record(SlidingWindow.FAILURE, SECOND); // exactly the start of epoch 1
        long epoch1Oldest = 11 * SECOND; // epoch 11: epoch 0 has left, epoch 1 is the oldest counted
        assertThat(SlidingWindow.calls(w.totals(epoch1Oldest))).isEqualTo(1);
        assertThat(SlidingWindow.calls(w.totals(12 * SECOND))).isZero();
    }

    @Test
    void totalsPastThePackedFieldsKeepTheirRates() {
        TimeWindow w = new TimeWindow(10 * SECOND, 10);
        int quarter = 1 << 20; // 4 × 2^20 calls: twice what a 21-bit field holds
        for (int i = 0; i < quarter; i++) {
            w.record(SlidingWindow.SLOW_FAILURE, 0);
            w.record(SlidingWindow.SLOW_SUCCESS, 0);
            w.record(SlidingWindow.SLOW_SUCCESS, 0);
            w.record(SlidingWindow.SUCCESS, 0);
        }
        long t = w.totals(0);
        long calls = SlidingWindow.calls(t);
        assertThat(calls).isEqualTo((1L << 21) - 1);
        assertThat((double) SlidingWindow.failures(t) / calls).isCloseTo(0.25, org.assertj.core.data.Offset.offset(1e-5));
        assertThat((double) SlidingWindow.slowCalls(t) / calls).isCloseTo(0.75, org.assertj.core.data.Offset.offset(1e-5));
        assertThat(w.exactCalls(0)).isEqualTo(4L * quarter);
    }

    @Test
    void theTimeWindowAsksForACheckUnlessAFastSuccessLandsInTheBucketWhereTheMinimumWasSeen() {
        TimeWindow w = new TimeWindow(10 * SECOND, 10);
        assertThat(w.record(SlidingWindow.SUCCESS, SECOND / 2)).as("minimum never seen").isTrue();
        w.minimumSeen(SECOND / 2);
        assertThat(w.record(SlidingWindow.SUCCESS, SECOND / 2 + 1)).as("same bucket, fast success").isFalse();
        assertThat(w.record(SlidingWindow.FAILURE, SECOND / 2 + 2)).isTrue();
        assertThat(w.record(SlidingWindow.SLOW_SUCCESS, SECOND / 2 + 3)).isTrue();
        assertThat(w.record(SlidingWindow.SUCCESS, SECOND + 1)).as("next bucket: old buckets may expire").isTrue();
    }

    @Test
    void theCountWindowAsksForACheckOnlyWhenASuccessCanHaveMadeARuleTrue() {
        CountWindow w = new CountWindow(3, 3);
        assertThat(w.record(SlidingWindow.SUCCESS, 0)).as("1 call, minimum 3").isFalse(); // slot 0
        assertThat(w.record(SlidingWindow.FAILURE, 0)).isTrue(); // slot 1
        assertThat(w.record(SlidingWindow.SUCCESS, 0)).as("this success completes the minimum").isTrue(); // slot 2
        assertThat(w.record(SlidingWindow.SUCCESS, 0)).as("slot 0 already a success").isFalse();
        assertThat(w.record(SlidingWindow.FAILURE, 0)).as("slot 1 already a failure").isTrue();
        assertThat(w.record(SlidingWindow.SUCCESS, 0)).as("slot 2 already a success").isFalse();
        assertThat(w.record(SlidingWindow.FAILURE, 0)).isTrue(); // slot 0
        assertThat(w.record(SlidingWindow.SUCCESS, 0)).as("replaces a failure: rates only fall").isFalse(); // slot 1
        assertThat(SlidingWindow.calls(w.totals(0))).isEqualTo(3);
        assertThat(SlidingWindow.failures(w.totals(0))).isEqualTo(1);

        CountWindow clean = new CountWindow(3, 3);
        clean.record(SlidingWindow.SUCCESS, 0);
        clean.record(SlidingWindow.SUCCESS, 0);
        assertThat(clean.record(SlidingWindow.SUCCESS, 0)).isTrue();
        assertThat(clean.record(SlidingWindow.SUCCESS, 0)).as("a full window of successes: nothing to check").isFalse();
    }

    /** A config whose window rules never fire (minimum 100 calls), so only the counting rules act. */
    private static CircuitBreakerConfig.Builder countersOnly() {
        return Fixture.small().countWindow(100).minimumNumberOfCalls(100);
    }

    @Test
    void aSlowSuccessEndsARunOfFailures() {
        Fixture f = new Fixture(countersOnly().consecutiveFailureThreshold(3));
        f.fail(2);
        f.slow(1, 200 * MS, false);
        f.fail(2);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.CLOSED);
        f.fail(1);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void aSlowSuccessDecaysTheFailureLevel() {
        Fixture f = new Fixture(countersOnly().decayingFailureThreshold(3));
        f.fail(2);
        f.slow(1, 200 * MS, false); // level 2 → 1
        f.fail(1); // 2
        assertThat(f.breaker.state()).isEqualTo(CircuitState.CLOSED);
        f.fail(1); // 3
        assertThat(f.breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void metricsOnlyReportsACounterRuleAgainAfterASlowSuccessEndsTheRun() {
        Fixture f = new Fixture(countersOnly().consecutiveFailureThreshold(2).decayingFailureThreshold(2)
                .initialState(CircuitState.METRICS_ONLY));
        List<ThresholdExceeded> crossed = new ArrayList<>();
        f.breaker.onEvent(e -> {
            if (e instanceof ThresholdExceeded t) {
                crossed.add(t);
            }
        });
        f.fail(3);
        assertThat(crossed).extracting(ThresholdExceeded::rule)
                .containsExactlyInAnyOrder(Rule.CONSECUTIVE_FAILURES, Rule.DECAYING_FAILURES);
        // Level 3 → 2: still at the decaying threshold (not cleared); the run of failures has ended.
        f.slow(1, 200 * MS, false);
        f.fail(2);
        assertThat(crossed).extracting(ThresholdExceeded::rule).containsExactlyInAnyOrder(
                Rule.CONSECUTIVE_FAILURES, Rule.DECAYING_FAILURES, Rule.CONSECUTIVE_FAILURES);
        // Level 4 → 1: under the threshold, so the next crossing is reported again.
        f.slow(3, 200 * MS, false);
        f.fail(1);
        assertThat(crossed).hasSize(4).last().extracting(ThresholdExceeded::rule).isEqualTo(Rule.DECAYING_FAILURES);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.METRICS_ONLY);
    }

    @Test
    void aCountingRuleNamesItselfInTheTransitionReason() {
        Fixture decaying = new Fixture(countersOnly().decayingFailureThreshold(2));
        List<String> reasons = new ArrayList<>();
        decaying.breaker.onStateTransition(t -> reasons.add(t.reason()));
        decaying.fail(2);
        assertThat(reasons).singleElement().asString().startsWith("decaying failure count 2 >= 2");

        Fixture counted = new Fixture(countersOnly().failureCountThreshold(2).minimumNumberOfCalls(100));
        List<String> countReasons = new ArrayList<>();
        counted.breaker.onStateTransition(t -> countReasons.add(t.reason()));
        counted.fail(2);
        assertThat(countReasons).singleElement().asString().startsWith("2 failures in the window >= 2");
    }

    @Test
    void aProbeRoundThatFailsNamesTheThresholdAsAPercentage() {
        Fixture f = new Fixture(Fixture.small());
        List<StateTransitioned> seen = new ArrayList<>();
        f.breaker.onStateTransition(seen::add);
        f.fail(5);
        f.advance(10 * SECOND);
        f.fail(2); // 2 of 3 probes failed: 67% ≥ 50%
        assertThat(f.breaker.state()).isEqualTo(CircuitState.OPEN);
        assertThat(seen).last().extracting(StateTransitioned::reason).asString()
                .isEqualTo("2 of 3 probes failed (failure rate threshold 50.0%)");

        Fixture slow = new Fixture(Fixture.small().failureRateThreshold(1.0).slowCallRateThreshold(0.5));
        List<StateTransitioned> slowSeen = new ArrayList<>();
        slow.breaker.onStateTransition(slowSeen::add);
        slow.slow(5, 200 * MS, false);
        assertThat(slow.breaker.state()).isEqualTo(CircuitState.OPEN);
        slow.advance(10 * SECOND);
        slow.slow(2, 200 * MS, false);
        assertThat(slowSeen).last().extracting(StateTransitioned::reason).asString()
                .isEqualTo("2 of 3 probes were slow (slow-call rate threshold 50.0%)");
    }
}

package dev.levee.circuitbreaker;

import static dev.levee.circuitbreaker.Fixture.MS;
import static dev.levee.circuitbreaker.Fixture.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 12, bug 1: any recording that can make a rule true evaluates the rules, including a success
 * that completes the minimum number of calls. Issue 12, bug 2: METRICS_ONLY reports each rule once.
 */
class TripEvaluationTest {

    /** S S F F F F F F S S: the tenth call (a success) completes the minimum with 6 of 10 failed. */
    private static void ssFFFFFFss(Fixture f) {
        f.succeed(2);
        f.fail(6);
        f.succeed(1);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.CLOSED); // 9 calls: below the minimum
        f.succeed(1);
    }

    @Test
    void aSuccessCompletingTheMinimumOpensACountWindow() {
        Fixture f = new Fixture(Fixture.small().countWindow(10).minimumNumberOfCalls(10));
        ssFFFFFFss(f);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void aSuccessCompletingTheMinimumOpensATimeWindow() {
        Fixture f = new Fixture(Fixture.small().timeWindow(10, 10).minimumNumberOfCalls(10));
        ssFFFFFFss(f);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void aSuccessCompletingTheMinimumOpensOnTheSlowCallRule() {
        Fixture f = new Fixture(Fixture.small().countWindow(10).minimumNumberOfCalls(10)
                .failureRateThreshold(1).slowCallRateThreshold(0.5));
        f.succeed(2);
        f.slow(6, 150 * MS, false);
        f.succeed(1);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.CLOSED);
        f.succeed(1);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void aSuccessCompletingTheMinimumOpensATimeWindowOnTheSlowCallRule() {
        Fixture f = new Fixture(Fixture.small().timeWindow(10, 10).minimumNumberOfCalls(10)
                .failureRateThreshold(1).slowCallRateThreshold(0.5));
        f.succeed(2);
        f.slow(6, 150 * MS, true);
        f.succeed(1);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.CLOSED);
        f.succeed(1);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void aSuccessAfterOldSuccessesExpiredOpensATimeWindow() {
        // 6 successes in the first second, 4 failures at 5 s: 40%, closed. At 10.5 s the successes
        // have left the window; the next success makes it 4 failures of 5 calls (80%).
        Fixture f = new Fixture(Fixture.small().timeWindow(10, 10).minimumNumberOfCalls(5));
        long start = f.ticker.read();
        f.succeed(6);
        f.advance(start + 5 * SECOND - f.ticker.read());
        f.fail(4);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.CLOSED);
        f.advance(start + 11 * SECOND - f.ticker.read());
        f.succeed(1);
        assertThat(f.breaker.metrics().calls()).isEqualTo(5);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void successesAboveTheMinimumDoNotOpen() {
        Fixture f = new Fixture(Fixture.small().countWindow(10).minimumNumberOfCalls(5));
        f.succeed(3);
        f.fail(2);
        f.succeed(5);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.CLOSED);
    }

    @Test
    void metricsOnlyReportsEachRuleCrossingOnce() {
        Fixture f = new Fixture(Fixture.small().countWindow(10).minimumNumberOfCalls(5)
                .failureRateThreshold(0.5).slowCallRateThreshold(0.5));
        List<CircuitBreakerEvent.ThresholdExceeded> seen = new ArrayList<>();
        f.breaker.onEvent(e -> {
            if (e instanceof CircuitBreakerEvent.ThresholdExceeded t) {
                seen.add(t);
            }
        });
        f.breaker.transitionToMetricsOnly();
        f.slow(10, 150 * MS, true); // both rates at 100%
        assertThat(f.breaker.state()).isEqualTo(CircuitState.METRICS_ONLY);
        assertThat(seen).extracting(CircuitBreakerEvent.ThresholdExceeded::rule)
                .containsExactlyInAnyOrder(CircuitBreakerEvent.Rule.FAILURE_RATE, CircuitBreakerEvent.Rule.SLOW_CALL_RATE);
    }

    @Test
    void metricsOnlyReportsTheSlowRuleWhenItCrossesAfterTheFailureRule() {
        Fixture f = new Fixture(Fixture.small().countWindow(10).minimumNumberOfCalls(5)
                .failureRateThreshold(0.5).slowCallRateThreshold(0.5));
        List<CircuitBreakerEvent.Rule> seen = new ArrayList<>();
        f.breaker.onEvent(e -> {
            if (e instanceof CircuitBreakerEvent.ThresholdExceeded t) {
                seen.add(t.rule());
            }
        });
        f.breaker.transitionToMetricsOnly();
        f.fail(5);
        assertThat(seen).containsExactly(CircuitBreakerEvent.Rule.FAILURE_RATE);
        f.slow(5, 150 * MS, true);
        assertThat(seen).containsExactly(CircuitBreakerEvent.Rule.FAILURE_RATE, CircuitBreakerEvent.Rule.SLOW_CALL_RATE);
    }
}

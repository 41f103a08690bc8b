package dev.levee.circuitbreaker;

import static dev.levee.circuitbreaker.Fixture.MS;
import static dev.levee.circuitbreaker.Fixture.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.circuitbreaker.CircuitBreakerEvent.Rejected;
import dev.levee.circuitbreaker.CircuitBreakerEvent.Rule;
import dev.levee.circuitbreaker.CircuitBreakerEvent.StateTransitioned;
import dev.levee.circuitbreaker.CircuitBreakerEvent.ThresholdExceeded;
import dev.levee.core.Gate;
import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import dev.levee.core.Subscription;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Exact values PIT showed unpinned in the breaker's hot path (issue 19): how long it stays OPEN after
 * each kind of trip and of manual transition, the era boundary of a half-open round, the slow-call
 * boundary, the reason texts and event times users read, and the rescaled metrics of a very busy time
 * window. Everything on a manual ticker; each assertion is an exact value.
 */
class BreakerExactEdgesTest {
    private static final IOException BOOM = new IOException("boom");

    /** A config whose window rules never fire (minimum 100 calls), so only the counting rules act. */
    private static CircuitBreakerConfig.Builder countersOnly() {
        return Fixture.small().countWindow(100).minimumNumberOfCalls(100);
    }

    /** OPEN, refusing with exactly {@code wait} left, and still refusing 1 ns before it ends. */
    private static void assertOpenFor(Fixture f, long wait) {
        assertThat(f.breaker.state()).isEqualTo(CircuitState.OPEN);
        long now = f.ticker.read();
        assertThat(f.breaker.rejection(now).retryAfterNanos()).isEqualTo(wait);
        assertThat(f.breaker.tryAcquire(now + wait - 1)).isFalse();
        assertThat(f.breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    // ---------------------------------------------------------------- how long OPEN lasts

    @Test
    void aTripOnTheSuccessThatCompletesTheMinimumOpensForTheWholeWaitFromNow() {
        Fixture f = new Fixture(Fixture.small());
        f.fail(3);
        f.succeed(2); // the 5th call completes the minimum: 3 of 5 failed, 60% >= 50%
        assertOpenFor(f, 10 * SECOND);
    }

    @Test
    void aTripOnACountingRuleOpensForTheWholeWaitFromNow() {
        Fixture inARow = new Fixture(countersOnly().consecutiveFailureThreshold(2));
        inARow.fail(2);
        assertOpenFor(inARow, 10 * SECOND);

        Fixture decaying = new Fixture(countersOnly().decayingFailureThreshold(2));
        decaying.fail(2);
        assertOpenFor(decaying, 10 * SECOND);
    }

    @Test
    void automaticHalfOpenIsScheduledForExactlyTheWaitInOpen() {
        ManualTicker ticker = new ManualTicker(1_000 * SECOND);
        ManualScheduler scheduler = new ManualScheduler(ticker);
        CircuitBreaker tripped = CircuitBreaker.of("dep", Fixture.small().automaticTransitionToHalfOpen(true)
                .scheduler(scheduler).ticker(ticker).build());
        for (int i = 0; i < 5; i++) {
            assertThat(tripped.tryAcquire(ticker.read())).isTrue();
            tripped.onFailure(MS, BOOM);
        }
        assertThat(tripped.state()).isEqualTo(CircuitState.OPEN);
        scheduler.advance(10 * SECOND - 1);
        assertThat(tripped.state()).isEqualTo(CircuitState.OPEN);
        scheduler.advance(1);
        assertThat(tripped.state()).isEqualTo(CircuitState.HALF_OPEN);

        CircuitBreaker startsOpen = CircuitBreaker.of("dep", Fixture.small().initialState(CircuitState.OPEN)
                .automaticTransitionToHalfOpen(true).scheduler(scheduler).ticker(ticker).build());
        scheduler.advance(10 * SECOND - 1);
        assertThat(startsOpen.state()).isEqualTo(CircuitState.OPEN);
        scheduler.advance(1);
        assertThat(startsOpen.state()).isEqualTo(CircuitState.HALF_OPEN);
    }

    @Test
    void hungProbesReopenForTheWaitOfOneMoreOpeningInARow() {
        Fixture f = new Fixture(Fixture.small().waitDurationBackoff(2.0, Duration.ofSeconds(100))
                .halfOpenTimeoutAction(HalfOpenTimeoutAction.REOPEN));
        f.fail(5); // opening 1: 10 s
        f.advance(10 * SECOND);
        for (int i = 0; i < 3; i++) {
            assertThat(f.acquire()).isTrue(); // three probes out, none back
        }
        f.advance(30 * SECOND);
        assertThat(f.acquire()).isFalse(); // maxWaitInHalfOpen over: reopened
        assertOpenFor(f, 20 * SECOND); // opening 2: 10 s × 2
    }

    @Test
    void eachManualOpeningCountsOneMoreOpeningInARow() {
        Fixture f = new Fixture(Fixture.small().waitDurationBackoff(2.0, Duration.ofSeconds(100)));
        f.breaker.transitionToOpen();
        assertOpenFor(f, 10 * SECOND);
        f.breaker.transitionToHalfOpen();
        f.breaker.transitionToOpen();
        assertOpenFor(f, 20 * SECOND);
    }

    @Test
    void aFailedRoundAfterOpenForReopensForTheSecondOpeningsWait() {
        Fixture f = new Fixture(Fixture.small().waitDurationBackoff(2.0, Duration.ofSeconds(100)));
        f.breaker.transitionToOpenFor(Duration.ofSeconds(5));
        assertOpenFor(f, 5 * SECOND);
        f.advance(5 * SECOND);
        f.fail(2); // 2 of 3 probes failed
        assertOpenFor(f, 20 * SECOND);
    }

    // ---------------------------------------------------------------- eras of a half-open round

    @Test
    void aReadingTakenWhenTheBreakerOpenedIsNotAProbe() {
        Fixture f = new Fixture(Fixture.small());
        f.fail(5);
        long opened = f.ticker.read(); // the OPEN era starts at this reading
        f.advance(10 * SECOND);
        assertThat(f.acquire()).isTrue(); // HALF_OPEN, first probe
        assertThat(f.breaker.tryAcquire(opened)).isFalse(); // read while CLOSED could still be seen
        assertThat(f.breaker.tryAcquire(opened + 1)).isTrue();
    }

    @Test
    void aManualHalfOpenFromOpenKeepsTheOpeningsEraAndFromClosedStartsItsOwn() {
        Fixture fromOpen = new Fixture(Fixture.small());
        fromOpen.fail(5);
        fromOpen.advance(SECOND);
        fromOpen.breaker.transitionToHalfOpen();
        assertThat(fromOpen.acquire()).isTrue(); // read after the opening: a probe at once

        Fixture fromClosed = new Fixture(Fixture.small());
        fromClosed.advance(SECOND);
        fromClosed.breaker.transitionToHalfOpen();
        long now = fromClosed.ticker.read();
        assertThat(fromClosed.breaker.tryAcquire(now)).isFalse(); // could have been read while CLOSED
        assertThat(fromClosed.breaker.tryAcquire(now + 1)).isTrue();
    }

    @Test
    void probesExactlyAtTheSlowCallShareReopen() {
        Fixture f = new Fixture(Fixture.small().failureRateThreshold(1.0).slowCallRateThreshold(0.5)
                .permittedCallsInHalfOpen(4));
        f.slow(5, 200 * MS, false);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.OPEN);
        f.advance(10 * SECOND);
        f.slow(1, 200 * MS, false);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.HALF_OPEN);
        f.slow(1, 200 * MS, false); // 2 of 4 permitted probes slow: 50% >= 50%
        assertThat(f.breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    // ---------------------------------------------------------------- what is recorded

    @Test
    void aCallAsSlowAsTheThresholdIsNotSlow() {
        Fixture f = new Fixture(countersOnly());
        f.slow(1, 100 * MS, true);
        f.slow(1, 100 * MS, false);
        assertThat(f.breaker.metrics().slowCalls()).isZero();
        assertThat(f.breaker.metrics().failedCalls()).isEqualTo(1);
        f.slow(1, 100 * MS + 1, true);
        assertThat(f.breaker.metrics().slowCalls()).isEqualTo(1);
    }

    @Test
    void aSlowSuccessNeverTakesTheDecayingLevelBelowZero() {
        Fixture f = new Fixture(countersOnly().decayingFailureThreshold(2));
        f.slow(1, 200 * MS, false); // level 0 stays 0
        f.fail(1);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.CLOSED);
        f.fail(1);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void completionsWithoutAnEndReadingAreBucketedAtTheTickersReading() {
        Fixture f = new Fixture(Fixture.small().timeWindow(10, 10));
        f.breaker.onFailureAt(Gate.NO_READING, MS, BOOM);
        f.breaker.onResultAt(Gate.NO_READING, MS, "ok");
        CircuitBreakerMetrics m = f.breaker.metrics();
        assertThat(m.calls()).isEqualTo(2);
        assertThat(m.failedCalls()).isEqualTo(1);
    }

    @Test
    void aVeryBusyTimeWindowReportsExactCallsAndRescaledFailures() {
        // One bucket keeps each rule check cheap; 4 calls a round: 2.5 × 2^20 calls, 1.25 × what a 21-bit field holds.
        Fixture f = new Fixture(Fixture.small().timeWindow(10, 1).slowCallRateThreshold(1.0));
        int rounds = 5 << 17;
        for (int i = 0; i < rounds; i++) {
            f.breaker.onFailure(MS, BOOM);
            f.breaker.onSuccess(200 * MS); // slow
            f.breaker.onSuccess(MS);
            f.breaker.onSuccess(MS);
        }
        CircuitBreakerMetrics m = f.breaker.metrics();
        assertThat(m.state()).isEqualTo(CircuitState.CLOSED);
        assertThat(m.calls()).isEqualTo(4L * rounds);
        assertThat(m.failedCalls()).isBetween(rounds - 1L, rounds + 1L);
        assertThat(m.slowCalls()).isBetween(rounds - 1L, rounds + 1L);
        assertThat(m.failureRate()).isCloseTo(0.25, org.assertj.core.data.Offset.offset(1e-5));
        assertThat(m.slowCallRate()).isCloseTo(0.25, org.assertj.core.data.Offset.offset(1e-5));
    }

    // ---------------------------------------------------------------- what users read

    @Test
    void aRateTripNamesItsWindowInTheReason() {
        Fixture count = new Fixture(Fixture.small());
        List<String> reasons = new ArrayList<>();
        count.breaker.onStateTransition(t -> reasons.add(t.reason()));
        count.fail(5);
        assertThat(reasons).containsExactly("failure rate 100.0% >= 50.0% over 5 calls (COUNT_BASED window of 10 calls)");

        Fixture time = new Fixture(Fixture.small().timeWindow(10, 10));
        List<String> timeReasons = new ArrayList<>();
        time.breaker.onStateTransition(t -> timeReasons.add(t.reason()));
        time.fail(5);
        assertThat(timeReasons).containsExactly("failure rate 100.0% >= 50.0% over 5 calls (TIME_BASED window of 10 s)");
    }

    @Test
    void metricsOnlyReportsEveryRuleACallCrosses() {
        Fixture f = new Fixture(Fixture.small().minimumNumberOfCalls(2).decayingFailureThreshold(2)
                .initialState(CircuitState.METRICS_ONLY));
        List<Rule> crossed = new ArrayList<>();
        f.breaker.onEvent(e -> {
            if (e instanceof ThresholdExceeded t) {
                crossed.add(t.rule());
            }
        });
        f.fail(2); // the second failure crosses the decaying level and the failure rate at once
        assertThat(crossed).containsExactlyInAnyOrder(Rule.DECAYING_FAILURES, Rule.FAILURE_RATE);
    }

    @Test
    void metricsOnlyReportsACrossingAgainAfterAnyTransition() {
        Fixture f = new Fixture(countersOnly().consecutiveFailureThreshold(2).initialState(CircuitState.METRICS_ONLY));
        List<Rule> crossed = new ArrayList<>();
        f.breaker.onEvent(e -> {
            if (e instanceof ThresholdExceeded t) {
                crossed.add(t.rule());
            }
        });
        f.fail(2);
        assertThat(crossed).containsExactly(Rule.CONSECUTIVE_FAILURES);
        f.breaker.transitionToClosed();
        f.breaker.transitionToMetricsOnly();
        f.fail(2);
        assertThat(crossed).containsExactly(Rule.CONSECUTIVE_FAILURES, Rule.CONSECUTIVE_FAILURES);
    }

    @Test
    void aRejectionEventCarriesTheCallersReadingOrTheTickers() {
        Fixture f = new Fixture(Fixture.small());
        List<Long> times = new ArrayList<>();
        f.breaker.onEvent(e -> {
            if (e instanceof Rejected r) {
                times.add(r.tickerNanos());
            }
        });
        f.breaker.transitionToForcedOpen();
        assertThat(f.breaker.tryAcquire(1_234L)).isFalse();
        assertThat(f.breaker.tryAcquire(Gate.NO_READING)).isFalse();
        assertThat(times).containsExactly(1_234L, 1_000 * SECOND);
    }

    @Test
    void closingAStateTransitionSubscriptionStopsDelivery() {
        Fixture f = new Fixture(Fixture.small());
        List<StateTransitioned> seen = new ArrayList<>();
        Subscription subscription = f.breaker.onStateTransition(seen::add);
        f.breaker.transitionToOpen();
        subscription.close();
        f.breaker.transitionToClosed();
        assertThat(seen).extracting(StateTransitioned::to).containsExactly(CircuitState.OPEN);
    }

    @Test
    void ofDefaultsBuildsAClosedBreakerOnTheDefaultConfig() {
        CircuitBreaker b = CircuitBreaker.ofDefaults("dep");
        assertThat(b.name()).isEqualTo("dep");
        assertThat(b.state()).isEqualTo(CircuitState.CLOSED);
        assertThat(b.config().failureRateThreshold()).isEqualTo(CircuitBreakerConfig.defaults().failureRateThreshold());
        assertThat(b.config().slidingWindowSize()).isEqualTo(CircuitBreakerConfig.defaults().slidingWindowSize());
    }
}

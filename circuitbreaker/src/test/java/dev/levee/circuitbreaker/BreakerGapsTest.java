package dev.levee.circuitbreaker;

import static dev.levee.circuitbreaker.Fixture.MS;
import static dev.levee.circuitbreaker.Fixture.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Issue 12, "what users of other libraries look for": the breaker's gaps, each pinned. */
class BreakerGapsTest {

    @Test
    void aFullHalfOpenBreakerAnswersRetryAfterOneSecond() {
        Fixture f = new Fixture(Fixture.small().halfOpenRetryAfter(CircuitBreakerConfig.DEFAULT_HALF_OPEN_RETRY_AFTER));
        f.fail(5);
        f.advance(10 * SECOND);
        for (int i = 0; i < 3; i++) {
            assertThat(f.acquire()).isTrue();
        }
        assertThat(f.acquire()).isFalse();
        assertThat(f.breaker.rejection(f.ticker.read()).retryAfter()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void anExceptionCanCountAsASuccess() {
        Fixture f = new Fixture(Fixture.small().recordAsSuccess(IllegalStateException.class));
        for (int i = 0; i < 10; i++) {
            assertThat(f.acquire()).isTrue();
            f.breaker.onFailure(MS, new IllegalStateException("404: the dependency answered"));
        }
        CircuitBreakerMetrics m = f.breaker.metrics();
        assertThat(m.calls()).isEqualTo(10);
        assertThat(m.failedCalls()).isZero();
        f.fail(4);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.CLOSED); // 4 of the last 10
        f.fail(1);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void aSuccessExceptionIsAGoodProbe() {
        Fixture f = new Fixture(Fixture.small().recordAsSuccessWhen(e -> e.getMessage().startsWith("404")));
        f.fail(5);
        f.advance(10 * SECOND);
        for (int i = 0; i < 3; i++) {
            assertThat(f.acquire()).isTrue();
        }
        f.advance(MS);
        for (int i = 0; i < 3; i++) {
            f.breaker.onFailure(MS, new IOException("404 not found"));
        }
        assertThat(f.breaker.state()).isEqualTo(CircuitState.CLOSED);
    }

    @Test
    void transitionToOpenForADuration() {
        Fixture f = new Fixture(Fixture.small());
        f.breaker.transitionToOpenFor(Duration.ofMinutes(5));
        assertThat(f.breaker.state()).isEqualTo(CircuitState.OPEN);
        assertThat(f.breaker.rejection(f.ticker.read()).retryAfter()).isEqualTo(Duration.ofMinutes(5));
        f.advance(5 * 60 * SECOND - 1);
        assertThat(f.acquire()).isFalse();
        f.advance(1);
        assertThat(f.acquire()).isTrue();
        assertThat(f.breaker.state()).isEqualTo(CircuitState.HALF_OPEN);
    }

    @Test
    void transitionToOpenUntilAnInstant() {
        Fixture f = new Fixture(Fixture.small());
        Instant wallNow = Instant.parse("2026-01-01T00:00:00Z");
        InstantSource clock = InstantSource.fixed(wallNow);
        f.breaker.transitionToOpenUntil(wallNow.plusSeconds(90), clock);
        assertThat(f.breaker.rejection(f.ticker.read()).retryAfter()).isEqualTo(Duration.ofSeconds(90));
        f.breaker.transitionToOpenUntil(wallNow.minusSeconds(1), clock); // in the past: opens for 1 ns
        f.advance(1);
        assertThat(f.acquire()).isTrue();
    }

    @Test
    void aConfiguredInitialState() {
        Fixture open = new Fixture(Fixture.small().initialState(CircuitState.OPEN));
        assertThat(open.breaker.state()).isEqualTo(CircuitState.OPEN);
        assertThat(open.acquire()).isFalse();
        assertThat(open.breaker.rejection(open.ticker.read()).retryAfter()).isEqualTo(Duration.ofSeconds(10));
        open.advance(10 * SECOND);
        assertThat(open.acquire()).isTrue(); // a probe
        open.advance(MS);
        open.breaker.onSuccess(MS);
        open.breaker.reset();
        assertThat(open.breaker.state()).isEqualTo(CircuitState.OPEN); // reset returns to the initial state

        for (CircuitState s : new CircuitState[] {CircuitState.DISABLED, CircuitState.FORCED_OPEN,
                CircuitState.METRICS_ONLY, CircuitState.CLOSED}) {
            Fixture f = new Fixture(Fixture.small().initialState(s));
            assertThat(f.breaker.state()).isEqualTo(s);
        }
    }

    @Test
    void countThresholdTripModeOpensOnNFailuresInTheWindow() {
        // Seeds 002/003: "5 failures". 5 failures among 100 calls is 5 %, far below the rate threshold.
        Fixture f = new Fixture(Fixture.small().countWindow(100).minimumNumberOfCalls(100).failureCountThreshold(5));
        f.succeed(20);
        f.fail(2);
        f.succeed(20);
        f.fail(2);
        f.succeed(20);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.CLOSED);
        f.fail(1);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void failuresThatLeftTheWindowDoNotCount() {
        Fixture f = new Fixture(Fixture.small().countWindow(10).minimumNumberOfCalls(10).failureCountThreshold(3)
                .failureRateThreshold(1));
        f.fail(2);
        f.succeed(10); // both failures slid out
        f.fail(2);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.CLOSED);
        f.fail(1);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void theDecayingFailureCounterOfSeed002() {
        Fixture f = new Fixture(Fixture.small().countWindow(1000).minimumNumberOfCalls(1000).decayingFailureThreshold(3));
        // Scattered failures never trip it: each success takes one away.
        for (int i = 0; i < 50; i++) {
            f.fail(1);
            f.succeed(1);
        }
        assertThat(f.breaker.state()).isEqualTo(CircuitState.CLOSED);
        // F F S F: 1, 2, 1, 2 -- then F: 3.
        f.fail(2);
        f.succeed(1);
        f.fail(1);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.CLOSED);
        f.fail(1);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void theDecayingCounterNeverGoesBelowZero() {
        Fixture f = new Fixture(Fixture.small().countWindow(1000).minimumNumberOfCalls(1000).decayingFailureThreshold(2));
        f.succeed(100);
        f.fail(1);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.CLOSED);
        f.fail(1);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void closeAfterTheHalfOpenWait() {
        Fixture f = new Fixture(Fixture.small().halfOpenTimeoutAction(HalfOpenTimeoutAction.CLOSE));
        f.fail(5);
        f.advance(10 * SECOND);
        for (int i = 0; i < 3; i++) {
            assertThat(f.acquire()).isTrue(); // three probes hang
        }
        f.advance(30 * SECOND - 1);
        assertThat(f.acquire()).isFalse();
        f.advance(1);
        assertThat(f.acquire()).isTrue();
        assertThat(f.breaker.state()).isEqualTo(CircuitState.CLOSED);
        assertThat(f.breaker.metrics().calls()).isZero();
    }

    @Test
    void metricsInHalfOpenShowTheProbes() {
        Fixture f = new Fixture(Fixture.small().permittedCallsInHalfOpen(4).failureRateThreshold(0.75));
        f.fail(5);
        f.advance(10 * SECOND);
        assertThat(f.acquire()).isTrue();
        assertThat(f.acquire()).isTrue();
        assertThat(f.acquire()).isTrue();
        f.advance(MS);
        f.breaker.onSuccess(MS);
        f.breaker.onFailure(MS, new IOException("probe"));
        CircuitBreakerMetrics m = f.breaker.metrics();
        assertThat(m.state()).isEqualTo(CircuitState.HALF_OPEN);
        assertThat(m.probesPermitted()).isEqualTo(4);
        assertThat(m.probesAdmitted()).isEqualTo(3);
        assertThat(m.probesSucceeded()).isEqualTo(1);
        assertThat(m.probesFailed()).isEqualTo(1);
        assertThat(m.probesSlow()).isZero();
    }

    @Test
    void metricsSayWhenTheWindowIsBelowItsMinimum() {
        Fixture f = new Fixture(Fixture.small().minimumNumberOfCalls(5));
        f.fail(3);
        CircuitBreakerMetrics m = f.breaker.metrics();
        assertThat(m.failureRate()).isEqualTo(1.0);
        assertThat(m.belowMinimum()).isTrue();
        assertThat(m.minimumNumberOfCalls()).isEqualTo(5);
        assertThat(m.probesPermitted()).isZero();
        f.succeed(2);
        assertThat(f.breaker.metrics().belowMinimum()).isFalse();
    }

    @Test
    void metricsOnlyReportsTheCountRulesOncePerCrossing() {
        Fixture f = new Fixture(Fixture.small().countWindow(100).minimumNumberOfCalls(100).failureCountThreshold(2)
                .decayingFailureThreshold(3));
        List<CircuitBreakerEvent.Rule> seen = new ArrayList<>();
        f.breaker.onEvent(e -> {
            if (e instanceof CircuitBreakerEvent.ThresholdExceeded t) {
                seen.add(t.rule());
            }
        });
        f.breaker.transitionToMetricsOnly();
        f.fail(6);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.METRICS_ONLY);
        assertThat(seen).containsExactlyInAnyOrder(CircuitBreakerEvent.Rule.FAILURE_COUNT,
                CircuitBreakerEvent.Rule.DECAYING_FAILURES);
    }

    @Test
    void anInitiallyOpenBreakerIsMovedToHalfOpenByTheSchedulerWhenAsked() {
        dev.levee.core.ManualTicker ticker = new dev.levee.core.ManualTicker();
        dev.levee.core.ManualScheduler scheduler = new dev.levee.core.ManualScheduler(ticker);
        CircuitBreaker breaker = CircuitBreaker.of("auto", Fixture.small().ticker(ticker).scheduler(scheduler)
                .initialState(CircuitState.OPEN).automaticTransitionToHalfOpen(true).build());
        scheduler.advance(Duration.ofSeconds(10).minusNanos(1));
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        scheduler.advance(1);
        assertThat(breaker.state()).isEqualTo(CircuitState.HALF_OPEN);
    }
}

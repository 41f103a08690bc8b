package dev.levee.circuitbreaker;

import static dev.levee.circuitbreaker.Fixture.MS;
import static dev.levee.circuitbreaker.Fixture.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.CircuitOpenException;
import dev.levee.core.RejectedException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class CircuitBreakerTransitionTest {

    @Test
    void staysClosedBelowMinimumNumberOfCalls() {
        Fixture f = new Fixture(Fixture.small());
        f.fail(4);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.CLOSED);
        assertThat(f.breaker.metrics().failureRate()).isEqualTo(1.0);
        f.fail(1);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void tripsWhenFailureRateReachesThreshold() {
        Fixture f = new Fixture(Fixture.small().minimumNumberOfCalls(10));
        f.succeed(6);
        f.fail(4);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.CLOSED); // 40%
        // The window holds the last 10 calls: this failure replaces the oldest success -> 5/10 = 50%.
        f.fail(1);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void failureRateIsOverTheLastNCallsOnly() {
        Fixture f = new Fixture(Fixture.small().minimumNumberOfCalls(10));
        f.fail(4);
        f.succeed(6);
        f.succeed(4); // the four failures slid out
        assertThat(f.breaker.metrics().failedCalls()).isZero();
        assertThat(f.breaker.metrics().calls()).isEqualTo(10);
        f.fail(4);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.CLOSED);
    }

    @Test
    void tripsOnSlowCallRateWhetherSlowCallsSucceededOrFailed() {
        Fixture f = new Fixture(Fixture.small().minimumNumberOfCalls(10).slowCallRateThreshold(0.5).failureRateThreshold(1));
        f.succeed(5);
        f.slow(2, 150 * MS, false);
        f.slow(2, 150 * MS, true);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.CLOSED);
        assertThat(f.breaker.metrics().slowCalls()).isEqualTo(4);
        assertThat(f.breaker.metrics().failedCalls()).isEqualTo(2);
        f.slow(1, 150 * MS, false);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void aCallExactlyAtTheSlowThresholdIsNotSlow() {
        Fixture f = new Fixture(Fixture.small().slowCallRateThreshold(0.01).failureRateThreshold(1));
        f.slow(10, 100 * MS, false);
        assertThat(f.breaker.metrics().slowCalls()).isZero();
        f.slow(1, 100 * MS + 1, false);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void tripsOnConsecutiveFailuresWithoutMinimumVolume() {
        Fixture f = new Fixture(Fixture.small().countWindow(100).minimumNumberOfCalls(100).consecutiveFailureThreshold(3));
        f.fail(2);
        f.succeed(1);
        f.fail(2);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.CLOSED);
        f.fail(1);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void openRejectsWithTimeLeftAsRetryAfterAndMovesToHalfOpenLazily() {
        Fixture f = new Fixture(Fixture.small());
        f.fail(5);
        f.advance(4 * SECOND);
        long now = f.ticker.read();
        assertThat(f.breaker.tryAcquire(now)).isFalse();
        RejectedException rejection = f.breaker.rejection(now);
        assertThat(rejection).isInstanceOf(CircuitOpenException.class);
        assertThat(rejection.retryAfter()).isEqualTo(Duration.ofSeconds(6));
        assertThat(rejection.policyName()).isEqualTo("dep");
        assertThat(f.breaker.notPermittedCalls()).isEqualTo(1);
        f.advance(6 * SECOND - 1);
        assertThat(f.acquire()).isFalse();
        assertThat(f.breaker.state()).isEqualTo(CircuitState.OPEN);
        f.advance(1);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.OPEN); // nothing moves without a call
        assertThat(f.acquire()).isTrue();
        assertThat(f.breaker.state()).isEqualTo(CircuitState.HALF_OPEN);
    }

    @Test
    void halfOpenClosesWhenProbesAreUnderThresholds() {
        Fixture f = new Fixture(Fixture.small());
        f.fail(5);
        f.advance(10 * SECOND);
        f.succeed(2);
        f.fail(1); // 1 of 3 = 33% < 50%
        assertThat(f.breaker.state()).isEqualTo(CircuitState.CLOSED);
        assertThat(f.breaker.metrics().calls()).isZero(); // a fresh window
    }

    @Test
    void halfOpenAdmitsExactlyThePermittedProbes() {
        Fixture f = new Fixture(Fixture.small());
        f.fail(5);
        f.advance(10 * SECOND);
        assertThat(f.acquire()).isTrue();
        assertThat(f.acquire()).isTrue();
        assertThat(f.acquire()).isTrue();
        assertThat(f.acquire()).isFalse();
        assertThat(f.breaker.rejection(f.ticker.read()).getMessage()).contains("HALF_OPEN");
    }

    @Test
    void halfOpenReopensAsSoonAsFailuresReachTheThresholdShare() {
        Fixture f = new Fixture(Fixture.small().permittedCallsInHalfOpen(4));
        f.fail(5);
        f.advance(10 * SECOND);
        f.fail(1);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.HALF_OPEN); // 1 of 4 < 50%
        f.fail(1); // 2 of 4 = 50%: the round cannot end below the threshold
        assertThat(f.breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void halfOpenReopensOnSlowProbes() {
        Fixture f = new Fixture(Fixture.small().slowCallRateThreshold(0.5).failureRateThreshold(1));
        f.slow(5, 150 * MS, false);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.OPEN);
        f.advance(10 * SECOND);
        f.slow(2, 150 * MS, false);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void successThresholdClosesEarlyAndReopensWhenItCanNoLongerBeReached() {
        Fixture f = new Fixture(Fixture.small().permittedCallsInHalfOpen(5).successThresholdInHalfOpen(3));
        f.fail(5);
        f.advance(10 * SECOND);
        f.succeed(3);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.CLOSED);

        f.fail(5);
        f.advance(10 * SECOND);
        f.succeed(1);
        f.fail(2);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.HALF_OPEN); // 1 good + 2 left can still make 3
        f.slow(1, 150 * MS, false); // slow does not count as good: 1 + 1 left < 3
        assertThat(f.breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void repeatedOpeningsWaitLongerUpToTheCapAndACloseResetsTheBackoff() {
        Fixture f = new Fixture(Fixture.small().waitDurationInOpen(Duration.ofSeconds(1))
                .waitDurationBackoff(2.0, Duration.ofSeconds(5)).permittedCallsInHalfOpen(1));
        f.fail(5);
        long[] expected = {1, 2, 4, 5, 5};
        for (long seconds : expected) {
            assertThat(f.breaker.rejection(f.ticker.read()).retryAfter()).isEqualTo(Duration.ofSeconds(seconds));
            f.advance(seconds * SECOND - 1);
            assertThat(f.acquire()).isFalse();
            f.advance(1);
            f.fail(1); // the probe fails: open again, one more in a row
            assertThat(f.breaker.state()).isEqualTo(CircuitState.OPEN);
        }
        f.advance(5 * SECOND);
        f.succeed(1);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.CLOSED);
        f.fail(5);
        assertThat(f.breaker.rejection(f.ticker.read()).retryAfter()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void customWaitFunctionIsCapped() {
        Fixture f = new Fixture(Fixture.small()
                .waitDurationInOpen(n -> Duration.ofSeconds(10L * n), Duration.ofSeconds(25)).permittedCallsInHalfOpen(1));
        f.fail(5);
        assertThat(f.breaker.rejection(f.ticker.read()).retryAfterNanos()).isEqualTo(10 * SECOND);
        f.advance(10 * SECOND);
        f.fail(1);
        assertThat(f.breaker.rejection(f.ticker.read()).retryAfterNanos()).isEqualTo(20 * SECOND);
        f.advance(20 * SECOND);
        f.fail(1);
        assertThat(f.breaker.rejection(f.ticker.read()).retryAfterNanos()).isEqualTo(25 * SECOND);
    }

    @Test
    void hungProbeDoesNotWedgeHalfOpen_newRoundOfProbes() {
        Fixture f = new Fixture(Fixture.small());
        f.fail(5);
        f.advance(10 * SECOND);
        assertThat(f.acquire()).isTrue(); // hangs forever
        long hungStart = f.ticker.read();
        f.succeed(2);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.HALF_OPEN);
        assertThat(f.acquire()).isFalse();
        f.advance(30 * SECOND - 2 * MS - 1); // half-open began before the two 1 ms probes
        assertThat(f.acquire()).isFalse();
        f.advance(1);
        // A new round: three fresh probes.
        assertThat(f.acquire()).isTrue();
        assertThat(f.acquire()).isTrue();
        assertThat(f.acquire()).isTrue();
        assertThat(f.acquire()).isFalse();
        // The hung probe finally fails: it belongs to the abandoned round and is ignored.
        f.advance(MS);
        f.breaker.onFailure(f.ticker.read() - hungStart, new java.io.IOException("late"));
        assertThat(f.breaker.state()).isEqualTo(CircuitState.HALF_OPEN);
        f.breaker.onSuccess(MS);
        f.breaker.onSuccess(MS);
        f.breaker.onSuccess(MS);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.CLOSED);
    }

    @Test
    void hungProbeDoesNotWedgeHalfOpen_reopen() {
        Fixture f = new Fixture(Fixture.small().halfOpenTimeoutAction(HalfOpenTimeoutAction.REOPEN));
        f.fail(5);
        f.advance(10 * SECOND);
        assertThat(f.acquire()).isTrue();
        assertThat(f.acquire()).isTrue();
        assertThat(f.acquire()).isTrue();
        f.advance(30 * SECOND);
        assertThat(f.acquire()).isFalse();
        assertThat(f.breaker.state()).isEqualTo(CircuitState.OPEN);
        assertThat(f.breaker.rejection(f.ticker.read()).retryAfter()).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void aCallFromTheClosedEraCompletingInHalfOpenIsNotAProbe() {
        Fixture f = new Fixture(Fixture.small());
        assertThat(f.acquire()).isTrue(); // a long call admitted while CLOSED
        long start = f.ticker.read();
        f.fail(5);
        f.advance(10 * SECOND);
        assertThat(f.acquire()).isTrue(); // probe 1
        // The old call fails now: it must neither count as a probe outcome nor free a probe.
        f.breaker.onFailure(f.ticker.read() - start, new java.io.IOException("old"));
        f.breaker.onFailure(f.ticker.read() - start, new dev.levee.core.BulkheadFullException("b", "full", 0));
        assertThat(f.acquire()).isTrue(); // probe 2
        assertThat(f.acquire()).isTrue(); // probe 3
        assertThat(f.acquire()).isFalse();
        f.breaker.onSuccess(MS);
        f.breaker.onSuccess(MS);
        f.breaker.onSuccess(MS);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.CLOSED);
    }

    @Test
    void aPermitFromTheClosedEraReleasedAsIgnoredInHalfOpenFreesNoProbe() {
        Fixture f = new Fixture(Fixture.small());
        long closedEra = f.ticker.read();
        assertThat(f.breaker.tryAcquire(closedEra)).isTrue(); // e.g. then queued in a bulkhead behind the breaker
        f.fail(5);
        f.advance(10 * SECOND);
        assertThat(f.acquire()).isTrue(); // probe 1
        assertThat(f.acquire()).isTrue(); // probe 2
        assertThat(f.acquire()).isTrue(); // probe 3
        // The old permit is given back (the bulkhead behind timed out): it must not admit a fourth probe.
        f.breaker.onIgnoredAt(closedEra);
        assertThat(f.acquire()).isFalse();
        // A probe of this round given back does free its place.
        f.breaker.onIgnoredAt(f.ticker.read());
        assertThat(f.acquire()).isTrue();
        assertThat(f.acquire()).isFalse();
    }

    @Test
    void aPipelineGivesBackAProbeRefusedByALaterGateButNotAnOldPermit() {
        Fixture f = new Fixture(Fixture.small());
        dev.levee.core.Gate refusing = new dev.levee.core.Gate() {
            @Override
            public String name() {
                return "refusing";
            }

            @Override
            public dev.levee.core.Ticker ticker() {
                return f.ticker;
            }

            @Override
            public boolean tryAcquire(long nowNanos) {
                return false;
            }

            @Override
            public dev.levee.core.RejectedException rejection(long nowNanos) {
                return new dev.levee.core.BulkheadFullException("refusing", "full", 0);
            }

            @Override
            public void onSuccess(long latencyNanos) {}

            @Override
            public void onFailure(long latencyNanos, Throwable error) {}

            @Override
            public void onIgnored() {}
        };
        dev.levee.core.Pipeline pipeline = dev.levee.core.Pipeline.of(f.breaker, refusing);
        f.fail(5);
        f.advance(10 * SECOND);
        for (int i = 0; i < 10; i++) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> pipeline.execute(() -> "x"))
                    .isInstanceOf(dev.levee.core.BulkheadFullException.class);
        }
        // Every refused call gave its probe back, so all three are still available.
        assertThat(f.acquire()).isTrue();
        assertThat(f.acquire()).isTrue();
        assertThat(f.acquire()).isTrue();
        assertThat(f.acquire()).isFalse();
    }

    @Test
    void completionsWhileOpenAreNotRecorded() {
        Fixture f = new Fixture(Fixture.small());
        assertThat(f.acquire()).isTrue();
        f.fail(5);
        f.breaker.onSuccess(MS);
        assertThat(f.breaker.metrics().calls()).isEqualTo(5);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void ignoredProbeIsGivenBack() {
        Fixture f = new Fixture(Fixture.small());
        f.fail(5);
        f.advance(10 * SECOND);
        assertThat(f.acquire()).isTrue();
        assertThat(f.acquire()).isTrue();
        assertThat(f.acquire()).isTrue();
        assertThat(f.acquire()).isFalse();
        f.breaker.onIgnored();
        assertThat(f.acquire()).isTrue();
        f.breaker.onFailure(MS, new dev.levee.core.RateLimitedException("rl", "limited", 0));
        assertThat(f.acquire()).isTrue();
        f.breaker.onSuccess(MS);
        f.breaker.onSuccess(MS);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.HALF_OPEN);
        f.breaker.onSuccess(MS);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.CLOSED);
    }

    @Test
    void manualTransitionsAndReset() {
        Fixture f = new Fixture(Fixture.small());
        f.breaker.transitionToForcedOpen();
        assertThat(f.acquire()).isFalse();
        f.advance(1000 * SECOND);
        assertThat(f.acquire()).isFalse();
        assertThat(f.breaker.rejection(f.ticker.read()).retryAfterNanos()).isZero();

        f.breaker.transitionToDisabled();
        f.fail(50);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.DISABLED);
        assertThat(f.breaker.metrics().calls()).isZero();

        f.breaker.transitionToMetricsOnly();
        f.fail(50);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.METRICS_ONLY);
        assertThat(f.breaker.metrics().failureRate()).isEqualTo(1.0);

        f.breaker.transitionToOpen();
        assertThat(f.breaker.state()).isEqualTo(CircuitState.OPEN);
        f.breaker.transitionToHalfOpen();
        assertThat(f.breaker.state()).isEqualTo(CircuitState.HALF_OPEN);
        f.breaker.transitionToClosed();
        assertThat(f.breaker.state()).isEqualTo(CircuitState.CLOSED);
        assertThat(f.breaker.metrics().calls()).isZero();
        f.breaker.transitionToClosed(); // no-op

        f.fail(5);
        assertThat(f.acquire()).isFalse();
        assertThat(f.breaker.notPermittedCalls()).isEqualTo(3);
        f.breaker.reset();
        assertThat(f.breaker.state()).isEqualTo(CircuitState.CLOSED);
        assertThat(f.breaker.notPermittedCalls()).isZero();
        assertThat(f.breaker.metrics().calls()).isZero();
    }

    @Test
    void ignoredExceptionsAreNotRecordedByDefault() {
        Fixture f = new Fixture(Fixture.small());
        for (int i = 0; i < 20; i++) {
            assertThat(f.acquire()).isTrue();
            f.breaker.onFailure(MS, new dev.levee.core.BulkheadFullException("bh", "full", 0));
            assertThat(f.acquire()).isTrue();
            f.breaker.onFailure(MS, new StackOverflowError());
        }
        assertThat(f.breaker.metrics().calls()).isZero();
        // A deadline exceeded from a timeout is the dependency being slow: a failure.
        for (int i = 0; i < 5; i++) {
            assertThat(f.acquire()).isTrue();
            f.breaker.onFailure(MS, new dev.levee.core.DeadlineExceededException("t", "timed out", 0));
        }
        assertThat(f.breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void customClassifierAndResultPredicate() {
        Fixture f = new Fixture(Fixture.small().classifier(CircuitBreakerConfig.defaultClassifier().toBuilder()
                .ignore(IllegalArgumentException.class)
                .failOnResult(r -> r instanceof Integer && (Integer) r >= 500)
                .build()));
        for (int i = 0; i < 10; i++) {
            assertThat(f.acquire()).isTrue();
            f.breaker.onFailure(MS, new IllegalArgumentException("bad input"));
            assertThat(f.acquire()).isTrue();
            f.breaker.onResult(MS, 200);
        }
        assertThat(f.breaker.metrics().calls()).isEqualTo(10);
        assertThat(f.breaker.metrics().failedCalls()).isZero();
        for (int i = 0; i < 4; i++) {
            assertThat(f.acquire()).isTrue();
            f.breaker.onResult(MS, 503);
        }
        assertThat(f.breaker.state()).isEqualTo(CircuitState.CLOSED);
        assertThat(f.acquire()).isTrue();
        f.breaker.onResult(MS, 503); // 5 of the last 10 = 50%
        assertThat(f.breaker.state()).isEqualTo(CircuitState.OPEN);
    }

    @Test
    void resultsAreNotClassifiedWithoutAPredicate() {
        Fixture f = new Fixture(Fixture.small());
        for (int i = 0; i < 10; i++) {
            assertThat(f.acquire()).isTrue();
            f.breaker.onResult(MS, null);
        }
        assertThat(f.breaker.metrics().calls()).isEqualTo(10);
        assertThat(f.breaker.metrics().failedCalls()).isZero();
    }

    @Test
    void automaticTransitionToHalfOpenUsesTheScheduler() {
        dev.levee.core.ManualTicker ticker = new dev.levee.core.ManualTicker();
        dev.levee.core.ManualScheduler scheduler = new dev.levee.core.ManualScheduler(ticker);
        CircuitBreaker breaker = CircuitBreaker.of("auto", Fixture.small().ticker(ticker).scheduler(scheduler)
                .automaticTransitionToHalfOpen(true).build());
        for (int i = 0; i < 5; i++) {
            breaker.tryAcquire(ticker.read());
            breaker.onFailure(MS, new java.io.IOException());
        }
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        scheduler.advance(Duration.ofSeconds(10).minusNanos(1));
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        scheduler.advance(1);
        assertThat(breaker.state()).isEqualTo(CircuitState.HALF_OPEN);
    }

    @Test
    void staleScheduledTransitionDoesNothing() {
        dev.levee.core.ManualTicker ticker = new dev.levee.core.ManualTicker();
        dev.levee.core.ManualScheduler scheduler = new dev.levee.core.ManualScheduler(ticker);
        CircuitBreaker breaker = CircuitBreaker.of("auto", Fixture.small().ticker(ticker).scheduler(scheduler)
                .automaticTransitionToHalfOpen(true).build());
        breaker.transitionToOpen();
        breaker.transitionToClosed();
        scheduler.advance(Duration.ofSeconds(10));
        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
    }

    @Test
    void aProbeIsNeverAdmittedWithAReadingOlderThanTheOpening() {
        Fixture f = new Fixture(Fixture.small());
        long beforeOpening = f.ticker.read();
        f.fail(5);
        f.advance(10 * SECOND);
        assertThat(f.acquire()).isTrue(); // moves to HALF_OPEN
        // A caller that read the clock before the breaker opened cannot take a probe: its completion
        // would look like a call from the CLOSED era and never free the probe.
        assertThat(f.breaker.tryAcquire(beforeOpening)).isFalse();
        assertThat(f.acquire()).isTrue();
        assertThat(f.acquire()).isTrue();
    }
}

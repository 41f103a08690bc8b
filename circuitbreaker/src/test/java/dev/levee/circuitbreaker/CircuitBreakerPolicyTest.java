package dev.levee.circuitbreaker;

import static dev.levee.circuitbreaker.Fixture.SECOND;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.circuitbreaker.CircuitBreakerEvent.Rejected;
import dev.levee.circuitbreaker.CircuitBreakerEvent.StateTransitioned;
import dev.levee.circuitbreaker.CircuitBreakerEvent.ThresholdExceeded;
import dev.levee.core.BulkheadFullException;
import dev.levee.core.Chain;
import dev.levee.core.CheckedSupplier;
import dev.levee.core.CircuitOpenException;
import dev.levee.core.Gate;
import dev.levee.core.ManualTicker;
import dev.levee.core.Pipeline;
import dev.levee.core.PolicyRegistry;
import dev.levee.core.RejectedException;
import dev.levee.core.Subscription;
import dev.levee.core.Ticker;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/** The breaker as a policy: execute, pipelines, events, registry, metrics. */
class CircuitBreakerPolicyTest {

    @Test
    void executeRethrowsTheSameExceptionAndErrorsUnchanged() {
        Fixture f = new Fixture(Fixture.small());
        IOException io = new IOException("io");
        assertThatThrownBy(() -> f.breaker.execute(() -> {
            throw io;
        })).isSameAs(io);
        OutOfMemoryError oom = new OutOfMemoryError("fake");
        assertThatThrownBy(() -> f.breaker.execute(() -> {
            throw oom;
        })).isSameAs(oom);
        assertThat(f.breaker.metrics().failedCalls()).isEqualTo(1); // the error is ignored by default
    }

    @Test
    void executeThrowsCircuitOpenWhenOpen() throws Exception {
        Fixture f = new Fixture(Fixture.small());
        for (int i = 0; i < 5; i++) {
            try {
                f.breaker.execute(() -> {
                    throw new IOException();
                });
            } catch (IOException expected) {
                // counted
            }
        }
        assertThatThrownBy(() -> f.breaker.execute(() -> "x"))
                .isInstanceOf(CircuitOpenException.class)
                .hasMessageContaining("'dep' is OPEN")
                .satisfies(e -> assertThat(((RejectedException) e).retryAfterNanos()).isEqualTo(10 * SECOND));
        f.advance(10 * SECOND);
        assertThat(f.breaker.execute(() -> "probe")).isEqualTo("probe");
    }

    @Test
    void executeAsyncRecordsTheUnwrappedFailure() throws Exception {
        Fixture f = new Fixture(Fixture.small());
        IOException io = new IOException("async");
        CompletableFuture<String> failing = new CompletableFuture<>();
        var stage = f.breaker.executeAsync(() -> failing);
        failing.completeExceptionally(new CompletionException(io));
        assertThatThrownBy(() -> stage.toCompletableFuture().get()).isInstanceOf(ExecutionException.class);
        assertThat(f.breaker.metrics().failedCalls()).isEqualTo(1);
        f.breaker.transitionToForcedOpen();
        assertThatThrownBy(() -> f.breaker.executeAsync(() -> CompletableFuture.completedFuture("x"))
                .toCompletableFuture().get()).hasCauseInstanceOf(CircuitOpenException.class);
    }

    @Test
    void aLaterGateRefusingGivesTheProbeBackInAPipeline() {
        Fixture f = new Fixture(Fixture.small().permittedCallsInHalfOpen(1));
        RefusingGate refusing = new RefusingGate(f.ticker);
        Pipeline pipeline = Pipeline.of(f.breaker, refusing);
        f.breaker.transitionToOpen();
        f.advance(10 * SECOND);
        refusing.refuse = true;
        for (int i = 0; i < 5; i++) {
            assertThatThrownBy(() -> pipeline.execute(() -> "x")).isInstanceOf(BulkheadFullException.class);
        }
        assertThat(f.breaker.state()).isEqualTo(CircuitState.HALF_OPEN);
        refusing.refuse = false;
        assertThat(pipeline.execute(() -> "ok")).isEqualTo("ok");
        assertThat(f.breaker.state()).isEqualTo(CircuitState.CLOSED);
    }

    @Test
    void eventsForTransitionsRejectionsAndThresholdCrossings() {
        Fixture f = new Fixture(Fixture.small());
        List<CircuitBreakerEvent> events = new ArrayList<>();
        List<StateTransitioned> transitions = new ArrayList<>();
        Subscription all = f.breaker.onEvent(events::add);
        f.breaker.onStateTransition(transitions::add);
        f.fail(5);
        assertThat(f.acquire()).isFalse();
        assertThat(events).hasSize(3);
        ThresholdExceeded crossed = (ThresholdExceeded) events.get(0);
        assertThat(crossed.rule()).isEqualTo(CircuitBreakerEvent.Rule.FAILURE_RATE);
        assertThat(crossed.value()).isEqualTo(1.0);
        assertThat(crossed.threshold()).isEqualTo(0.5);
        assertThat(crossed.calls()).isEqualTo(5);
        StateTransitioned opened = (StateTransitioned) events.get(1);
        assertThat(opened.from()).isEqualTo(CircuitState.CLOSED);
        assertThat(opened.to()).isEqualTo(CircuitState.OPEN);
        assertThat(opened.reason()).contains("failure rate 100.0% >= 50.0% over 5 calls");
        assertThat(opened.policyName()).isEqualTo("dep");
        assertThat(opened.tickerNanos()).isEqualTo(f.ticker.read());
        assertThat(((Rejected) events.get(2)).state()).isEqualTo(CircuitState.OPEN);
        all.close();
        f.advance(10 * SECOND);
        f.succeed(3);
        assertThat(events).hasSize(3);
        assertThat(transitions).extracting(StateTransitioned::to)
                .containsExactly(CircuitState.OPEN, CircuitState.HALF_OPEN, CircuitState.CLOSED);
    }

    @Test
    void metricsOnlyReportsEachCrossingOnceAndNeverOpens() {
        Fixture f = new Fixture(Fixture.small().slowCallRateThreshold(0.5));
        List<ThresholdExceeded> crossings = new ArrayList<>();
        f.breaker.onEvent(e -> {
            if (e instanceof ThresholdExceeded) {
                crossings.add((ThresholdExceeded) e);
            }
        });
        f.breaker.transitionToMetricsOnly();
        f.fail(10);
        assertThat(f.breaker.state()).isEqualTo(CircuitState.METRICS_ONLY);
        assertThat(crossings).hasSize(1);
        f.succeed(10);
        f.fail(1); // 1 of 10: below, re-arms the report
        f.fail(5);
        assertThat(crossings).hasSize(2);
    }

    @Test
    void consecutiveFailuresEventCarriesTheCount() {
        Fixture f = new Fixture(Fixture.small().countWindow(100).minimumNumberOfCalls(100).consecutiveFailureThreshold(2));
        List<CircuitBreakerEvent> events = new ArrayList<>();
        f.breaker.onEvent(events::add);
        f.fail(2);
        ThresholdExceeded crossed = (ThresholdExceeded) events.get(0);
        assertThat(crossed.rule()).isEqualTo(CircuitBreakerEvent.Rule.CONSECUTIVE_FAILURES);
        assertThat(crossed.value()).isEqualTo(2.0);
        assertThat(((StateTransitioned) events.get(1)).reason()).contains("2 failures in a row >= 2");
    }

    @Test
    void registryGivesOneBreakerPerName() {
        ManualTicker ticker = new ManualTicker();
        CircuitBreakerConfig defaults = CircuitBreakerConfig.builder().ticker(ticker).build();
        PolicyRegistry<CircuitBreakerConfig, CircuitBreaker> registry = CircuitBreaker.registry(defaults)
                .addConfig("strict", Fixture.small().ticker(ticker).build());
        CircuitBreaker payments = registry.get("payments");
        assertThat(registry.get("payments")).isSameAs(payments);
        assertThat(payments.config()).isSameAs(defaults);
        CircuitBreaker search = registry.get("search", "strict");
        assertThat(search.config().permittedCallsInHalfOpen()).isEqualTo(3);
        assertThat(search.name()).isEqualTo("search");
        assertThat(registry.names()).containsExactlyInAnyOrder("payments", "search");
    }

    @Test
    void micrometerBinderReportsStateCallsRejectionsAndRates() {
        Fixture f = new Fixture(Fixture.small());
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new CircuitBreakerMetricsBinder(f.breaker).bindTo(registry);
        f.succeed(3);
        f.slow(1, 200 * Fixture.MS, false);
        assertThat(f.acquire()).isTrue();
        f.breaker.onFailure(1, new BulkheadFullException("bh", "full", 0));
        f.fail(4); // 4 of 8 = 50%
        assertThat(f.acquire()).isFalse();
        assertThat(registry.get("levee.circuitbreaker.state").tags("name", "dep", "state", "open").gauge().value())
                .isEqualTo(1.0);
        assertThat(registry.get("levee.circuitbreaker.state").tags("name", "dep", "state", "closed").gauge().value())
                .isEqualTo(0.0);
        assertThat(registry.get("levee.circuitbreaker.calls").tags("outcome", "success", "kind", "successful")
                .functionCounter().count()).isEqualTo(3.0);
        assertThat(registry.get("levee.circuitbreaker.calls").tags("kind", "slow_successful").functionCounter().count())
                .isEqualTo(1.0);
        assertThat(registry.get("levee.circuitbreaker.calls").tags("outcome", "failure", "kind", "failed")
                .functionCounter().count()).isEqualTo(4.0);
        assertThat(registry.get("levee.circuitbreaker.calls").tags("outcome", "ignored").functionCounter().count())
                .isEqualTo(1.0);
        assertThat(registry.get("levee.circuitbreaker.rejected").tags("kind", "circuit_open").functionCounter().count()).isEqualTo(1.0);
        assertThat(registry.get("levee.circuitbreaker.failure.rate").gauge().value()).isEqualTo(0.5);
        assertThat(registry.get("levee.circuitbreaker.slow.call.rate").gauge().value()).isEqualTo(0.125);
        assertThat(registry.get("levee.circuitbreaker.window.calls").gauge().value()).isEqualTo(8.0);
    }

    /** A gate that refuses on demand, standing in for a bulkhead after the breaker. */
    private static final class RefusingGate implements Gate {
        private final Ticker ticker;
        volatile boolean refuse;

        RefusingGate(Ticker ticker) {
            this.ticker = ticker;
        }

        @Override
        public String name() {
            return "refusing";
        }

        @Override
        public Ticker ticker() {
            return ticker;
        }

        @Override
        public boolean tryAcquire(long nowNanos) {
            return !refuse;
        }

        @Override
        public RejectedException rejection(long nowNanos) {
            return new BulkheadFullException("refusing", "full", 0);
        }

        @Override
        public void onSuccess(long latencyNanos) {}

        @Override
        public void onFailure(long latencyNanos, Throwable error) {}

        @Override
        public void onIgnored() {}

        @Override
        public <T, E extends Throwable> T execute(Chain next, CheckedSupplier<T, E> call) throws E {
            return Gate.super.execute(next, call);
        }
    }
}

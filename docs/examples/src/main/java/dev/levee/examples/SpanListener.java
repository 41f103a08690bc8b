package dev.levee.examples;

import dev.levee.circuitbreaker.CircuitBreaker;
import dev.levee.circuitbreaker.CircuitBreakerEvent;
import dev.levee.core.Chain;
import dev.levee.core.CheckedSupplier;
import dev.levee.core.Policy;
import dev.levee.core.RejectedException;
import dev.levee.core.Subscription;
import dev.levee.core.Ticker;
import dev.levee.examples.FakeTracing.Span;
import dev.levee.examples.FakeTracing.Tracer;
import dev.levee.retry.Retry;
import dev.levee.retry.RetryEvent;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * The tracing hook of {@code docs/metrics.md}: a span per call through a policy (policy, outcome,
 * rejection kind, latency) and the policies' events as events on the current span (each retry with
 * its attempt and delay, a breaker's state changes and refusals). Written against
 * {@link FakeTracing}'s OpenTelemetry-shaped API; with OpenTelemetry the same lines use its
 * {@code Tracer} and {@code Span.current()}. Levee's published modules do not depend on any tracer.
 */
public final class SpanListener {
    private final Tracer tracer;
    private final Ticker ticker;

    /**
     * A listener that writes to {@code tracer}, measuring on {@code ticker}.
     *
     * @param tracer the tracer
     * @param ticker the clock latencies are read from
     */
    public SpanListener(Tracer tracer, Ticker ticker) {
        this.tracer = tracer;
        this.ticker = ticker;
    }

    /**
     * A policy that runs {@code policy} inside a span named {@code levee.<pattern> <name>}.
     *
     * @param pattern the pattern, e.g. {@code retry}
     * @param policy the policy
     * @return the traced policy
     */
    public Policy traced(String pattern, Policy policy) {
        return new Policy() {
            @Override
            public String name() {
                return policy.name();
            }

            @Override
            public <T, E extends Throwable> T execute(Chain next, CheckedSupplier<T, E> call) throws E {
                Span previous = tracer.current();
                Span span = tracer.start("levee." + pattern + " " + policy.name()).setAttribute("levee.policy", policy.name());
                long start = ticker.read();
                try {
                    T result = policy.execute(next, call);
                    span.setAttribute("levee.outcome", "success");
                    return result;
                } catch (RejectedException refused) {
                    span.setAttribute("levee.outcome", "rejected").setAttribute("levee.kind", refused.kind()).setError();
                    throw refused;
                } catch (Throwable failure) {
                    span.setAttribute("levee.outcome", "failure")
                            .setAttribute("exception.type", failure.getClass().getName()).setError();
                    throw failure;
                } finally {
                    span.setAttribute("levee.latency_ns", ticker.read() - start);
                    tracer.close(span, previous);
                }
            }

            @Override
            public <T> CompletionStage<T> executeAsync(Chain next, Supplier<? extends CompletionStage<T>> call) {
                return policy.executeAsync(next, call);                  // async spans: the same shape, closed on completion
            }
        };
    }

    /**
     * Writes a retry's events onto the current span.
     *
     * @param retry the retry
     * @return the subscription
     */
    public Subscription listen(Retry retry) {
        return retry.onEvent(event -> {
            Span span = tracer.current();
            if (span == null) {
                return;
            }
            if (event instanceof RetryEvent.Retried r) {
                span.addEvent("levee.retry.retried", r.tickerNanos(), Map.of("attempt", r.attempt(), "delay_ns", r.delayNanos(),
                        "cause", r.failure() != null ? r.failure().getClass().getName() : "result"));
            } else if (event instanceof RetryEvent.GaveUp g) {
                span.addEvent("levee.retry.gave_up", g.tickerNanos(), Map.of("attempts", g.attempts(), "reason", g.reason().name()));
            } else if (event instanceof RetryEvent.Succeeded s) {
                span.setAttribute("levee.retry.attempts", s.attempts());
            } else if (event instanceof RetryEvent.Rejected r) {
                span.addEvent("levee.retry.rejected", r.tickerNanos(), Map.of("attempt", r.attempt(), "budget", r.budgetName()));
            }
        });
    }

    /**
     * Writes a breaker's state changes and refusals onto the current span.
     *
     * @param breaker the breaker
     * @return the subscription
     */
    public Subscription listen(CircuitBreaker breaker) {
        return breaker.onEvent(event -> {
            Span span = tracer.current();
            if (span == null) {
                return;
            }
            if (event instanceof CircuitBreakerEvent.StateTransitioned t) {
                span.addEvent("levee.circuitbreaker.transitioned", t.tickerNanos(),
                        Map.of("from", t.from().name(), "to", t.to().name(), "reason", t.reason()));
            } else if (event instanceof CircuitBreakerEvent.Rejected r) {
                span.addEvent("levee.circuitbreaker.rejected", r.tickerNanos(), Map.of("state", r.state().name()));
            }
        });
    }
}

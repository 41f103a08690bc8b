package dev.levee.circuitbreaker;

import dev.levee.circuitbreaker.internal.CallCounters;
import dev.levee.core.internal.MetricNames;
import dev.levee.core.internal.Validate;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * Binds circuit breakers to a Micrometer {@link MeterRegistry}. Only this class references Micrometer;
 * {@code micrometer-core} is an optional dependency of this module.
 *
 * <table>
 *   <caption>Meters (every one tagged {@code name})</caption>
 *   <tr><th>name</th><th>type</th><th>tags</th><th>meaning</th></tr>
 *   <tr><td>levee.circuitbreaker.state</td><td>gauge</td><td>state</td><td>1 for the current state, 0 for the others</td></tr>
 *   <tr><td>levee.circuitbreaker.calls</td><td>counter</td><td>outcome, kind</td><td>recorded calls: outcome
 *       {@code success|failure|ignored}, kind {@code successful|slow_successful|failed|slow_failed|ignored}</td></tr>
 *   <tr><td>levee.circuitbreaker.rejected</td><td>counter</td><td>kind=circuit_open</td><td>refused calls
 *       (the rejection counter every pattern has, {@link MetricNames#REJECTED})</td></tr>
 *   <tr><td>levee.circuitbreaker.failure.rate</td><td>gauge</td><td></td><td>failure rate of the window, a fraction</td></tr>
 *   <tr><td>levee.circuitbreaker.slow.call.rate</td><td>gauge</td><td></td><td>slow-call rate of the window, a fraction</td></tr>
 *   <tr><td>levee.circuitbreaker.window.calls</td><td>gauge</td><td></td><td>calls currently in the window</td></tr>
 * </table>
 *
 * <p>Binding turns on the breaker's cumulative call counters (striped adders, a few nanoseconds per call);
 * an unbound breaker does not keep them.
 */
public final class CircuitBreakerMetricsBinder implements MeterBinder {
    private static final String PATTERN = "circuitbreaker";
    private final List<CircuitBreaker> breakers;

    /**
     * @param breakers the breakers to bind
     */
    public CircuitBreakerMetricsBinder(CircuitBreaker... breakers) {
        this(List.of(breakers));
    }

    /**
     * @param breakers the breakers to bind, e.g. {@code registry.all()} (copied at construction)
     */
    public CircuitBreakerMetricsBinder(java.util.Collection<CircuitBreaker> breakers) {
        this.breakers = List.copyOf(Validate.notNull("CircuitBreakerMetricsBinder", "breakers", breakers));
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (CircuitBreaker breaker : breakers) {
            bind(breaker, registry);
        }
    }

    private static void bind(CircuitBreaker breaker, MeterRegistry registry) {
        Tags name = Tags.of(MetricNames.TAG_NAME, breaker.name());
        for (CircuitState state : CircuitState.values()) {
            Gauge.builder(MetricNames.name(PATTERN, "state"), breaker, b -> b.state() == state ? 1.0 : 0.0)
                    .tags(name.and(MetricNames.TAG_STATE, state.tag()))
                    .description("1 if the circuit breaker is in this state")
                    .register(registry);
        }
        CallCounters counters = breaker.callCounters();
        calls(registry, name, "success", "successful", counters.successful);
        calls(registry, name, "success", "slow_successful", counters.slowSuccessful);
        calls(registry, name, "failure", "failed", counters.failed);
        calls(registry, name, "failure", "slow_failed", counters.slowFailed);
        calls(registry, name, "ignored", "ignored", counters.ignored);
        FunctionCounter.builder(MetricNames.name(PATTERN, MetricNames.REJECTED), breaker, CircuitBreaker::notPermittedCalls)
                .tags(name.and(MetricNames.TAG_KIND, "circuit_open"))
                .description("Calls the circuit breaker refused")
                .register(registry);
        Gauge.builder(MetricNames.name(PATTERN, "failure.rate"), breaker, b -> b.metrics().failureRate())
                .tags(name).baseUnit("ratio").description("Failure rate of the sliding window")
                .register(registry);
        Gauge.builder(MetricNames.name(PATTERN, "slow.call.rate"), breaker, b -> b.metrics().slowCallRate())
                .tags(name).baseUnit("ratio").description("Slow-call rate of the sliding window")
                .register(registry);
        Gauge.builder(MetricNames.name(PATTERN, "window.calls"), breaker, b -> b.metrics().calls())
                .tags(name).description("Calls currently in the sliding window")
                .register(registry);
    }

    private static void calls(MeterRegistry registry, Tags name, String outcome, String kind, LongAdder adder) {
        FunctionCounter.builder(MetricNames.name(PATTERN, "calls"), adder, LongAdder::sum)
                .tags(name.and(MetricNames.TAG_OUTCOME, outcome).and(MetricNames.TAG_KIND, kind))
                .description("Calls recorded by the circuit breaker")
                .register(registry);
    }
}

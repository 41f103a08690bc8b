/**
 * The sliding-window circuit breaker: count and time windows, slow-call detection, exact half-open
 * probes, manual states, events and a Micrometer binder.
 *
 * <p>Start with {@link dev.levee.circuitbreaker.CircuitBreaker} (the model and its guarantees) and
 * {@link dev.levee.circuitbreaker.CircuitBreakerConfig} (every knob, its default and bound);
 * {@link dev.levee.circuitbreaker.CircuitState} has the state diagram. The user guide is
 * {@code docs/circuitbreaker.md}.
 */
package dev.levee.circuitbreaker;

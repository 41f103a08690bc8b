package dev.levee.circuitbreaker;

/**
 * A snapshot of a {@link CircuitBreaker}'s window and counters ({@link CircuitBreaker#metrics()}).
 * In OPEN, HALF_OPEN, DISABLED and FORCED_OPEN the window is the one the breaker had when it left
 * CLOSED (or METRICS_ONLY); it is replaced by an empty one when the breaker closes.
 *
 * @param state the state
 * @param calls calls in the window
 * @param failedCalls failed calls in the window (slow or not)
 * @param slowCalls slow calls in the window (failed or not)
 * @param failureRate {@code 100 × failedCalls / calls} in percent; 0 when the window is empty
 * @param slowCallRate {@code 100 × slowCalls / calls} in percent; 0 when the window is empty
 * @param notPermittedCalls calls refused since creation or the last {@link CircuitBreaker#reset()}
 */
public record CircuitBreakerMetrics(
        CircuitState state, long calls, long failedCalls, long slowCalls, double failureRate, double slowCallRate,
        long notPermittedCalls) {}

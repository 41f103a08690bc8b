package dev.levee.circuitbreaker;

/**
 * A snapshot of a {@link CircuitBreaker}'s window, probes and counters ({@link CircuitBreaker#metrics()}).
 * In OPEN, HALF_OPEN, DISABLED and FORCED_OPEN the window is the one the breaker had when it left
 * CLOSED (or METRICS_ONLY); it is replaced by an empty one when the breaker closes. Rates are fractions
 * in [0, 1].
 *
 * @param state the state
 * @param calls calls in the window
 * @param failedCalls failed calls in the window (slow or not)
 * @param slowCalls slow calls in the window (failed or not)
 * @param failureRate {@code failedCalls / calls}, a fraction; 0 when the window is empty
 * @param slowCallRate {@code slowCalls / calls}, a fraction; 0 when the window is empty
 * @param notPermittedCalls calls refused since creation or the last {@link CircuitBreaker#reset()}
 * @param minimumNumberOfCalls calls the window must hold before the rates may trip the breaker
 * @param belowMinimum whether the window holds fewer than {@code minimumNumberOfCalls} calls, so its
 *     rates cannot trip the breaker yet (a 100 % failure rate over 3 calls says little)
 * @param probesPermitted HALF_OPEN: probes the round admits; 0 in other states
 * @param probesAdmitted HALF_OPEN: probes admitted so far (out or back)
 * @param probesSucceeded HALF_OPEN: probes back that succeeded and were not slow
 * @param probesFailed HALF_OPEN: probes back that failed
 * @param probesSlow HALF_OPEN: probes back that were slow
 */
public record CircuitBreakerMetrics(
        CircuitState state, long calls, long failedCalls, long slowCalls, double failureRate, double slowCallRate,
        long notPermittedCalls, int minimumNumberOfCalls, boolean belowMinimum, int probesPermitted,
        int probesAdmitted, int probesSucceeded, int probesFailed, int probesSlow) {}

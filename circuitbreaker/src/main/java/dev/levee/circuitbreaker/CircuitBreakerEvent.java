package dev.levee.circuitbreaker;

import dev.levee.core.PolicyEvent;

/**
 * What a {@link CircuitBreaker} tells its listeners ({@link CircuitBreaker#onEvent}): sealed, each case a
 * record named in the past tense. Events are built only when someone listens, and delivered
 * synchronously on the thread that caused them.
 */
public sealed interface CircuitBreakerEvent extends PolicyEvent {

    /** Which rule a {@link ThresholdExceeded} event is about. */
    enum Rule {
        /** Failure rate at or over {@code failureRateThreshold}. */
        FAILURE_RATE,
        /** Slow-call rate at or over {@code slowCallRateThreshold}. */
        SLOW_CALL_RATE,
        /** {@code consecutiveFailureThreshold} failures in a row. */
        CONSECUTIVE_FAILURES,
        /** {@code failureCountThreshold} failures in the window. */
        FAILURE_COUNT,
        /** The decaying failure counter reached {@code decayingFailureThreshold}. */
        DECAYING_FAILURES
    }

    /**
     * The breaker changed state.
     *
     * @param policyName the breaker's name
     * @param tickerNanos when
     * @param from the state left
     * @param to the state entered
     * @param reason why, in words (e.g. {@code failure rate 60.0% >= 50.0% over 20 calls})
     */
    record StateTransitioned(String policyName, long tickerNanos, CircuitState from, CircuitState to, String reason)
            implements CircuitBreakerEvent {}

    /**
     * A call was refused.
     *
     * @param policyName the breaker's name
     * @param tickerNanos when
     * @param state the state that refused it (OPEN, FORCED_OPEN, or HALF_OPEN with every probe out)
     */
    record Rejected(String policyName, long tickerNanos, CircuitState state) implements CircuitBreakerEvent {}

    /**
     * A trip rule fired: in CLOSED it opens the breaker (published just before the transition); in
     * METRICS_ONLY it is only reported, once per crossing.
     *
     * @param policyName the breaker's name
     * @param tickerNanos when
     * @param rule which rule
     * @param value the rate as a fraction in [0, 1], or the failures (in a row, in the window, or the
     *     decaying counter's level)
     * @param threshold the configured threshold (a fraction for the rate rules)
     * @param calls the calls in the window when it fired
     */
    record ThresholdExceeded(String policyName, long tickerNanos, Rule rule, double value, double threshold, long calls)
            implements CircuitBreakerEvent {}
}

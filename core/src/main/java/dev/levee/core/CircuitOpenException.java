package dev.levee.core;

import org.jspecify.annotations.Nullable;

/**
 * A circuit breaker is open (or forced open, or out of half-open probes) and refused the call.
 * {@code retryAfter} is the time left before it lets a probe through.
 */
public class CircuitOpenException extends RejectedException {
    private static final long serialVersionUID = 1L;

    /**
     * @param policyName the refusing policy's name
     * @param message what happened
     * @param retryAfterNanos the retry-after hint in nanoseconds, zero when unknown
     */
    public CircuitOpenException(String policyName, String message, long retryAfterNanos) {
        super(policyName, message, retryAfterNanos);
    }

    /**
     * @param policyName the refusing policy's name
     * @param message what happened
     * @param retryAfterNanos the retry-after hint in nanoseconds, zero when unknown
     * @param cause an underlying cause, or null
     */
    public CircuitOpenException(String policyName, String message, long retryAfterNanos, @Nullable Throwable cause) {
        super(policyName, message, retryAfterNanos, cause);
    }

    @Override
    public String kind() {
        return "circuit_open";
    }
}

package dev.levee.core;

import org.jspecify.annotations.Nullable;

/**
 * A rate limiter had no permit for the call within the wait allowed. {@code retryAfter} is when the permits asked for will be available.
 */
public class RateLimitedException extends RejectedException {
    private static final long serialVersionUID = 1L;

    /**
     * @param policyName the refusing policy's name
     * @param message what happened
     * @param retryAfterNanos the retry-after hint in nanoseconds, zero when unknown
     */
    public RateLimitedException(String policyName, String message, long retryAfterNanos) {
        super(policyName, message, retryAfterNanos);
    }

    /**
     * @param policyName the refusing policy's name
     * @param message what happened
     * @param retryAfterNanos the retry-after hint in nanoseconds, zero when unknown
     * @param cause an underlying cause, or null
     */
    public RateLimitedException(String policyName, String message, long retryAfterNanos, @Nullable Throwable cause) {
        super(policyName, message, retryAfterNanos, cause);
    }

    @Override
    public String kind() {
        return "rate_limited";
    }
}

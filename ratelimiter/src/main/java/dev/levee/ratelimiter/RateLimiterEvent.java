package dev.levee.ratelimiter;

import dev.levee.core.PolicyEvent;

/**
 * Something a {@link RateLimiter} did: sealed, each case a record named in the past tense. Built only
 * when a listener is registered ({@link RateLimiter#onEvent}).
 */
public sealed interface RateLimiterEvent extends PolicyEvent {

    /**
     * Permits were refused.
     *
     * @param policyName the limiter's name
     * @param tickerNanos when, on the limiter's ticker
     * @param permits how many were asked for
     * @param retryAfterNanos how long until they could be granted
     */
    record Rejected(String policyName, long tickerNanos, int permits, long retryAfterNanos)
            implements RateLimiterEvent {}

    /**
     * The rate was changed with {@link RateLimiter#setRate} (or by an {@link AdaptiveRateLimiter}).
     *
     * @param policyName the limiter's name
     * @param tickerNanos when, on the limiter's ticker
     * @param limit the new limit per period
     * @param periodNanos the new period
     */
    record RateChanged(String policyName, long tickerNanos, long limit, long periodNanos)
            implements RateLimiterEvent {}
}

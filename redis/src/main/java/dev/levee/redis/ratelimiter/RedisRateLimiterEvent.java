package dev.levee.redis.ratelimiter;

import dev.levee.core.PolicyEvent;

/**
 * A change in how a {@link RedisRateLimiter} decides: sealed, each case a record named in the past
 * tense. Refusals are the ratelimiter module's {@link dev.levee.ratelimiter.RateLimiterEvent.Rejected}
 * ({@link RedisRateLimiter#onEvent}); these come from {@link RedisRateLimiter#onStoreEvent}. Built only
 * when a listener is registered; each is also a WARN log line (once per switch, never per call).
 */
public sealed interface RedisRateLimiterEvent extends PolicyEvent {

    /**
     * Redis became unavailable to this limiter (a call failed or timed out, or the breaker refused
     * it): the outage policy decides from now on.
     *
     * @param policyName the limiter's name
     * @param tickerNanos when, on the limiter's ticker
     * @param policy the policy now in force
     * @param cause what failed first
     */
    record OutageBegan(String policyName, long tickerNanos, OutagePolicy policy, String cause)
            implements RedisRateLimiterEvent {}

    /**
     * Redis answered again: decisions come from Redis from now on.
     *
     * @param policyName the limiter's name
     * @param tickerNanos when, on the limiter's ticker
     * @param outageNanos how long the outage lasted, on the limiter's ticker
     */
    record OutageEnded(String policyName, long tickerNanos, long outageNanos) implements RedisRateLimiterEvent {}
}

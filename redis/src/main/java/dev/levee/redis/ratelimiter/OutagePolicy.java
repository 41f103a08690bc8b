package dev.levee.redis.ratelimiter;

/**
 * What a {@link RedisRateLimiter} decides while Redis cannot: a call timed out or failed, or the
 * store's circuit breaker is open. Chosen per limiter ({@link RedisRateLimiterConfig.Builder#outagePolicy}).
 * There is no universal answer (seed 001: "choose deliberately and document it"): fail closed for
 * limits that protect something (a paid quota, a fragile downstream, abuse prevention), fail open or
 * fall back locally for limits that only shape fairness.
 */
public enum OutagePolicy {
    /** Grant every request while Redis is unavailable: an outage of the limiter never refuses a call. */
    FAIL_OPEN,
    /**
     * Refuse every request while Redis is unavailable, with {@code retryAfter} = the breaker's
     * {@code waitDurationInOpen}: nothing passes that the shared limit has not counted.
     */
    FAIL_CLOSED,
    /**
     * Decide locally while Redis is unavailable, with an in-memory limiter of the same algorithm at
     * the configured rate divided by {@code expectedInstances} (burst likewise, each at least 1): the
     * fleet as a whole stays near the shared limit if the instance count is right. The default.
     */
    LOCAL_FALLBACK
}

package dev.levee.loadshed;

import dev.levee.core.PolicyEvent;

/**
 * Something a {@link ConcurrencyLimiter} (or {@code PartitionedConcurrencyLimiter}) did. Built only when
 * someone listens.
 */
public sealed interface ConcurrencyLimiterEvent extends PolicyEvent {

    /**
     * The algorithm moved the limit.
     *
     * @param policyName the limiter's name
     * @param tickerNanos when, a reading of the limiter's ticker
     * @param from the limit before
     * @param to the limit after
     * @param inflight requests in flight at that moment
     */
    record LimitChanged(String policyName, long tickerNanos, int from, int to, int inflight)
            implements ConcurrencyLimiterEvent {}

    /**
     * A request was refused.
     *
     * @param policyName the limiter's name
     * @param tickerNanos when, a reading of the limiter's ticker
     * @param reason the shed reason, {@code concurrency_limit}
     * @param limit the limit in force
     * @param inflight requests in flight at that moment
     */
    record Rejected(String policyName, long tickerNanos, String reason, int limit, int inflight)
            implements ConcurrencyLimiterEvent {}
}

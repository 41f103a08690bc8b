package dev.levee.retry;

import dev.levee.core.PolicyEvent;

/**
 * What a {@link Retry} or {@link Hedge} did. Built only when a listener is subscribed
 * ({@link Retry#onEvent}), on the thread that made the decision.
 */
public sealed interface RetryEvent extends PolicyEvent {

    /**
     * A retry is about to wait {@code delayNanos} and then make attempt {@code attempt + 1}.
     *
     * @param policyName the policy
     * @param tickerNanos when
     * @param attempt the attempt that failed, 1 for the first
     * @param delayNanos the backoff before the next attempt
     * @param failure what the attempt threw, or null for a failed result
     * @param result the failed result, or null
     */
    record Retrying(String policyName, long tickerNanos, int attempt, long delayNanos, Throwable failure, Object result)
            implements RetryEvent {}

    /**
     * The call succeeded.
     *
     * @param policyName the policy
     * @param tickerNanos when
     * @param attempts the attempts made, 1 if no retry was needed
     */
    record Succeeded(String policyName, long tickerNanos, int attempts) implements RetryEvent {}

    /**
     * The call ended with a failure (or a failed result) after {@code attempts} attempts.
     *
     * @param policyName the policy
     * @param tickerNanos when
     * @param attempts the attempts made
     * @param reason why no further attempt was made
     * @param failure the last failure, or null for a failed result
     * @param result the last failed result, or null
     */
    record GaveUp(String policyName, long tickerNanos, int attempts, GiveUpReason reason, Throwable failure,
                  Object result) implements RetryEvent {}

    /**
     * The retry budget refused a retry (or a hedge); the caller got the original failure at once.
     *
     * @param policyName the policy
     * @param tickerNanos when
     * @param attempt the attempt that failed (for a hedge: the hedge that was not started)
     * @param budgetName the refusing budget
     */
    record BudgetRefused(String policyName, long tickerNanos, int attempt, String budgetName) implements RetryEvent {}

    /**
     * A hedge started a further attempt because the earlier ones had not answered within the hedge delay.
     *
     * @param policyName the policy
     * @param tickerNanos when
     * @param attempt the attempt started, 2 for the first hedge
     * @param delayNanos the hedge delay used
     */
    record Hedged(String policyName, long tickerNanos, int attempt, long delayNanos) implements RetryEvent {}
}

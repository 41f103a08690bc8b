package dev.levee.retry;

import dev.levee.core.PolicyEvent;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link Retry} did, as sealed past-tense records: {@link Retried}, {@link Succeeded},
 * {@link GaveUp}, {@link Rejected} (the budget refused a retry), {@link RejectedWithoutKey} (a keyed
 * call had no idempotency key) and, for calls across a
 * {@link ReplicaSet}, {@link ReplicaPicked} (where an attempt went). Built only when a listener is
 * subscribed ({@link Retry#onEvent}), on the thread that made the decision. A {@link Hedge} publishes
 * {@link HedgeEvent}s.
 */
public sealed interface RetryEvent extends PolicyEvent {

    /**
     * A retry was decided: the retry waits {@code delayNanos} and then makes attempt {@code attempt + 1}.
     *
     * @param policyName the policy
     * @param tickerNanos when
     * @param attempt the attempt that failed, 1 for the first
     * @param delayNanos the backoff before the next attempt
     * @param failure what the attempt threw, or null for a failed result
     * @param result the failed result, or null
     */
    record Retried(String policyName, long tickerNanos, int attempt, long delayNanos, @Nullable Throwable failure,
                   @Nullable Object result)
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
    record GaveUp(String policyName, long tickerNanos, int attempts, GiveUpReason reason, @Nullable Throwable failure,
                  @Nullable Object result) implements RetryEvent {}

    /**
     * The retry budget refused a retry; the caller got the original failure at once. Counted in
     * {@code levee.retry.rejected} with {@code kind} = {@value RetryBudget#REJECTED_KIND}.
     *
     * @param policyName the policy
     * @param tickerNanos when
     * @param attempt the attempt that failed
     * @param budgetName the refusing budget
     */
    record Rejected(String policyName, long tickerNanos, int attempt, String budgetName) implements RetryEvent {}

    /**
     * A retry of a call declared {@link Idempotency#KEYED} was refused because the call carried no
     * idempotency key: repeating it could execute the write twice. The caller got the first outcome at
     * once (followed by {@link GaveUp} with {@link GiveUpReason#NO_IDEMPOTENCY_KEY}). Counted in
     * {@code levee.retry.rejected} with {@code kind} = {@value MissingIdempotencyKeyException#REJECTED_KIND}.
     *
     * @param policyName the policy
     * @param tickerNanos when
     * @param attempt the attempt that failed, 1 for the first
     * @param failure what the attempt threw, or null for a failed result
     * @param result the failed result, or null
     */
    record RejectedWithoutKey(String policyName, long tickerNanos, int attempt, @Nullable Throwable failure,
                              @Nullable Object result) implements RetryEvent {}

    /**
     * An attempt of a call across a {@link ReplicaSet} was sent to {@code replica}
     * ({@link Retry#execute(ReplicaSet, dev.levee.core.CheckedFunction)}).
     *
     * @param policyName the policy
     * @param tickerNanos when
     * @param attempt the attempt, 1 for the first
     * @param index the replica's index in the set
     * @param replica the replica
     */
    record ReplicaPicked(String policyName, long tickerNanos, int attempt, int index, Object replica)
            implements RetryEvent {}
}

package dev.levee.retry;

import dev.levee.core.PolicyEvent;

/**
 * What a {@link Hedge} did, as sealed past-tense records: {@link Hedged} (a further attempt started),
 * {@link Rejected} (the budget refused a hedge), {@link RejectedWithoutKey} (a keyed call had no
 * idempotency key) and, for calls across a {@link ReplicaSet},
 * {@link ReplicaPicked} (where an attempt went). Built only when a listener is subscribed
 * ({@link Hedge#onEvent}), on the thread that made the decision.
 */
public sealed interface HedgeEvent extends PolicyEvent {

    /**
     * A hedge started a further attempt because the earlier ones had not answered within the hedge delay.
     *
     * @param policyName the policy
     * @param tickerNanos when
     * @param attempt the attempt started, 2 for the first hedge
     * @param delayNanos the hedge delay used
     */
    record Hedged(String policyName, long tickerNanos, int attempt, long delayNanos) implements HedgeEvent {}

    /**
     * The retry budget refused a hedge; the attempts already started still answer the call. Counted in
     * {@code levee.hedge.rejected} with {@code kind} = {@value RetryBudget#REJECTED_KIND}.
     *
     * @param policyName the policy
     * @param tickerNanos when
     * @param attempt the hedge that was not started (2 for the first hedge)
     * @param budgetName the refusing budget
     */
    record Rejected(String policyName, long tickerNanos, int attempt, String budgetName) implements HedgeEvent {}

    /**
     * A hedge of a call declared {@link Idempotency#KEYED} was not started because the call carried no
     * idempotency key; the first attempt still answers the call. Counted in {@code levee.hedge.rejected}
     * with {@code kind} = {@value MissingIdempotencyKeyException#REJECTED_KIND}.
     *
     * @param policyName the policy
     * @param tickerNanos when
     * @param attempt the hedge that was not started (2 for the first hedge)
     */
    record RejectedWithoutKey(String policyName, long tickerNanos, int attempt) implements HedgeEvent {}

    /**
     * An attempt of a call across a {@link ReplicaSet} was sent to {@code replica}
     * ({@link Hedge#execute(ReplicaSet, dev.levee.core.CheckedFunction)}).
     *
     * @param policyName the policy
     * @param tickerNanos when
     * @param attempt the attempt, 1 for the first
     * @param index the replica's index in the set
     * @param replica the replica
     */
    record ReplicaPicked(String policyName, long tickerNanos, int attempt, int index, Object replica)
            implements HedgeEvent {}
}

package dev.levee.retry;

import dev.levee.core.PolicyEvent;

/**
 * What a {@link ReplicaSet} did, as sealed past-tense records. Built only when a listener is
 * subscribed ({@link ReplicaSet#onEvent}), on the thread that caused the change. {@code replica} is
 * the user's replica object, {@code index} its position in the set.
 */
public sealed interface ReplicaSetEvent extends PolicyEvent {

    /** {@link Ejected#reason()} of an ejection after {@code consecutiveFailures} failures in a row. */
    String CONSECUTIVE_FAILURES = "consecutive_failures";
    /** {@link Ejected#reason()} of an ejection by the success-rate rule. */
    String FAILURE_RATE = "failure_rate";

    /**
     * A replica was ejected: no call is sent to it until {@code tickerNanos + ejectionNanos} (unless the
     * set is in panic).
     *
     * @param policyName the set
     * @param tickerNanos when
     * @param index the replica's index
     * @param replica the replica
     * @param reason {@link #CONSECUTIVE_FAILURES} or {@link #FAILURE_RATE}
     * @param ejectionNanos how long: base × ejections, capped
     * @param ejections the replica's ejections so far, this one included
     */
    record Ejected(String policyName, long tickerNanos, int index, Object replica, String reason, long ejectionNanos,
                   long ejections) implements ReplicaSetEvent {}

    /**
     * A replica's ejection time ended; it is eligible again.
     *
     * @param policyName the set
     * @param tickerNanos when
     * @param index the replica's index
     * @param replica the replica
     */
    record Readmitted(String policyName, long tickerNanos, int index, Object replica) implements ReplicaSetEvent {}

    /**
     * A replica qualified for ejection but the set already had its maximum ejected; it stays eligible.
     *
     * @param policyName the set
     * @param tickerNanos when
     * @param index the replica's index
     * @param replica the replica
     * @param reason {@link #CONSECUTIVE_FAILURES} or {@link #FAILURE_RATE}
     * @param maxEjected the cap in force
     */
    record EjectionCapped(String policyName, long tickerNanos, int index, Object replica, String reason,
                          int maxEjected) implements ReplicaSetEvent {}

    /**
     * A health signal changed its report of a replica.
     *
     * @param policyName the set
     * @param tickerNanos when
     * @param index the replica's index
     * @param replica the replica
     * @param healthy the new report
     */
    record HealthChanged(String policyName, long tickerNanos, int index, Object replica, boolean healthy)
            implements ReplicaSetEvent {}

    /**
     * The healthy share fell below the panic threshold: selection now ignores health and ejection.
     *
     * @param policyName the set
     * @param tickerNanos when
     * @param healthy replicas neither ejected nor unhealthy
     * @param replicas replicas in the set
     */
    record PanicEntered(String policyName, long tickerNanos, int healthy, int replicas) implements ReplicaSetEvent {}

    /**
     * The healthy share is back at or above the panic threshold.
     *
     * @param policyName the set
     * @param tickerNanos when
     * @param healthy replicas neither ejected nor unhealthy
     * @param replicas replicas in the set
     */
    record PanicLeft(String policyName, long tickerNanos, int healthy, int replicas) implements ReplicaSetEvent {}
}

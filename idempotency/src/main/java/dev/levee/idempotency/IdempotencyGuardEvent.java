package dev.levee.idempotency;

import dev.levee.core.PolicyEvent;

/**
 * Something an {@link IdempotencyGuard} did: sealed, each case a record named in the past tense. Built
 * only when a listener is registered ({@link IdempotencyGuard#onEvent}). Events carry no idempotency key
 * or scope (keys are client data; log them yourself if you must).
 */
public sealed interface IdempotencyGuardEvent extends PolicyEvent {

    /**
     * A request claimed its key and its handler is about to run.
     *
     * @param policyName the guard's name
     * @param tickerNanos when, on the guard's ticker
     * @param tookOverLapsedLease whether the key was held by a request whose lease had lapsed (a crash)
     */
    record Claimed(String policyName, long tickerNanos, boolean tookOverLapsedLease) implements IdempotencyGuardEvent {}

    /**
     * The handler's response was final and is stored for replay.
     *
     * @param policyName the guard's name
     * @param tickerNanos when
     * @param status the stored status
     */
    record Stored(String policyName, long tickerNanos, int status) implements IdempotencyGuardEvent {}

    /**
     * The key was given back (the handler threw, or its response was not final) so a retry can run.
     *
     * @param policyName the guard's name
     * @param tickerNanos when
     * @param reason {@code exception} or {@code status <code>}
     */
    record Released(String policyName, long tickerNanos, String reason) implements IdempotencyGuardEvent {}

    /**
     * A duplicate got the stored response; nothing ran.
     *
     * @param policyName the guard's name
     * @param tickerNanos when
     * @param status the replayed status
     */
    record Replayed(String policyName, long tickerNanos, int status) implements IdempotencyGuardEvent {}

    /**
     * A request was refused; nothing ran.
     *
     * @param policyName the guard's name
     * @param tickerNanos when
     * @param kind {@code in_progress}, {@code mismatch}, {@code bad_key} or {@code store_unavailable}
     * @param status the status answered (409, 422, 400, 503)
     */
    record Rejected(String policyName, long tickerNanos, String kind, int status) implements IdempotencyGuardEvent {}

    /**
     * The store stopped answering; the outage policy decides from now on (also a WARN log line).
     *
     * @param policyName the guard's name
     * @param tickerNanos when
     * @param policy the policy now in force
     * @param cause what failed first
     */
    record OutageBegan(String policyName, long tickerNanos, OutagePolicy policy, String cause) implements IdempotencyGuardEvent {}

    /**
     * The store answered again (also a WARN log line).
     *
     * @param policyName the guard's name
     * @param tickerNanos when
     * @param outageNanos how long the outage lasted
     */
    record OutageEnded(String policyName, long tickerNanos, long outageNanos) implements IdempotencyGuardEvent {}
}

package dev.levee.timeout;

import dev.levee.core.PolicyEvent;

/**
 * Something a {@link Timeout} saw: each event a record named in the past tense, every one carrying the
 * effective timeout of the call (the configured or adaptive one, cut by the current deadline) and how
 * long the call had run. A refusal is always {@link Rejected}. Built only when someone listens.
 */
public sealed interface TimeoutEvent extends PolicyEvent {

    /** @return the call's effective timeout, in nanoseconds */
    long effectiveTimeoutNanos();

    /** @return how long the call ran until the event, in nanoseconds */
    long elapsedNanos();

    /**
     * The call returned within its timeout.
     *
     * @param policyName the timeout's name
     * @param tickerNanos when, a reading of the timeout's ticker
     * @param effectiveTimeoutNanos the call's effective timeout
     * @param elapsedNanos how long it took
     */
    record Succeeded(String policyName, long tickerNanos, long effectiveTimeoutNanos, long elapsedNanos)
            implements TimeoutEvent {}

    /**
     * The call threw within its timeout.
     *
     * @param policyName the timeout's name
     * @param tickerNanos when
     * @param effectiveTimeoutNanos the call's effective timeout
     * @param elapsedNanos how long it took
     */
    record Failed(String policyName, long tickerNanos, long effectiveTimeoutNanos, long elapsedNanos)
            implements TimeoutEvent {}

    /**
     * The deadline came first: the caller got a {@link dev.levee.core.DeadlineExceededException}.
     *
     * @param policyName the timeout's name
     * @param tickerNanos when
     * @param effectiveTimeoutNanos the call's effective timeout
     * @param elapsedNanos how long the call had run
     */
    record TimedOut(String policyName, long tickerNanos, long effectiveTimeoutNanos, long elapsedNanos)
            implements TimeoutEvent {}

    /**
     * The call was refused before it started: less than {@code minimumRemaining} was left.
     *
     * @param policyName the timeout's name
     * @param tickerNanos when
     * @param effectiveTimeoutNanos what would have remained (may be zero or negative)
     * @param elapsedNanos always zero
     */
    record Rejected(String policyName, long tickerNanos, long effectiveTimeoutNanos, long elapsedNanos)
            implements TimeoutEvent {}

    /**
     * THREAD mode: the waiting caller was interrupted and the call cancelled.
     *
     * @param policyName the timeout's name
     * @param tickerNanos when
     * @param effectiveTimeoutNanos the call's effective timeout
     * @param elapsedNanos how long the call had run
     */
    record Interrupted(String policyName, long tickerNanos, long effectiveTimeoutNanos, long elapsedNanos)
            implements TimeoutEvent {}
}

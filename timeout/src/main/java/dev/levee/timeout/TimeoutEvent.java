package dev.levee.timeout;

import dev.levee.core.PolicyEvent;

/**
 * What a {@link Timeout} did with one call. Built only when someone listens
 * ({@link Timeout#onEvent}); listeners run on the thread that finished the call (the caller, or the
 * scheduler's thread for an asynchronous timeout) and must be fast.
 */
public final class TimeoutEvent implements PolicyEvent {

    /** The kinds of event. */
    public enum Type {
        /** The call returned within its timeout. */
        SUCCEEDED,
        /** The call threw within its timeout; the exception went to the caller unchanged. */
        FAILED,
        /** The deadline passed first: the caller got a deadline-exceeded rejection. */
        TIMED_OUT,
        /** Less than {@code minimumRemaining} remained: the call was not started. */
        REJECTED_BEFORE_START,
        /** The waiting caller was interrupted: the call was cancelled. */
        CALLER_INTERRUPTED
    }

    private final String policyName;
    private final long tickerNanos;
    private final Type type;
    private final long effectiveTimeoutNanos;
    private final long elapsedNanos;

    /**
     * @param policyName the timeout's name
     * @param tickerNanos when, as a ticker reading
     * @param type what happened
     * @param effectiveTimeoutNanos the timeout the call ran under (for a rejection: what remained)
     * @param elapsedNanos how long the call ran, zero if it did not start
     */
    public TimeoutEvent(String policyName, long tickerNanos, Type type, long effectiveTimeoutNanos, long elapsedNanos) {
        this.policyName = policyName;
        this.tickerNanos = tickerNanos;
        this.type = type;
        this.effectiveTimeoutNanos = effectiveTimeoutNanos;
        this.elapsedNanos = elapsedNanos;
    }

    @Override
    public String policyName() {
        return policyName;
    }

    @Override
    public long tickerNanos() {
        return tickerNanos;
    }

    /** @return what happened */
    public Type type() {
        return type;
    }

    /** @return the effective timeout in nanoseconds (for a rejection before start: what remained) */
    public long effectiveTimeoutNanos() {
        return effectiveTimeoutNanos;
    }

    /** @return how long the call ran, in nanoseconds; zero if it did not start */
    public long elapsedNanos() {
        return elapsedNanos;
    }

    @Override
    public String toString() {
        return "TimeoutEvent[" + policyName + " " + type + " effective=" + effectiveTimeoutNanos + "ns elapsed="
                + elapsedNanos + "ns]";
    }
}

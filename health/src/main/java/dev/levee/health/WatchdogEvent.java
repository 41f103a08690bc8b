package dev.levee.health;

import dev.levee.core.PolicyEvent;

/**
 * What a {@link Watchdog} tells its listeners ({@link Watchdog#onEvent}); delivered on the
 * scheduler's thread.
 */
public sealed interface WatchdogEvent extends PolicyEvent {

    /**
     * A signal stayed at or over its threshold for {@code consecutiveSamples} samples in a row.
     *
     * @param policyName the watchdog's name
     * @param tickerNanos when
     * @param signal the signal's name
     * @param value its last reading
     * @param threshold its threshold
     * @param consecutiveSamples breaching samples in a row
     */
    record Breached(String policyName, long tickerNanos, String signal, double value, double threshold,
            int consecutiveSamples) implements WatchdogEvent {}

    /**
     * The action ran for a sustained breach.
     *
     * @param policyName the watchdog's name
     * @param tickerNanos when
     * @param signal the signal that breached
     * @param actionsInWindow actions taken in the current window, this one included
     */
    record ActionTaken(String policyName, long tickerNanos, String signal, int actionsInWindow)
            implements WatchdogEvent {}

    /**
     * The restart-loop guard refused the action.
     *
     * @param policyName the watchdog's name
     * @param tickerNanos when
     * @param signal the signal that breached
     * @param reason why (window cap or backoff)
     */
    record ActionSuppressed(String policyName, long tickerNanos, String signal, String reason)
            implements WatchdogEvent {}

    /**
     * Every signal stayed under its threshold long enough; a readiness mark was cleared.
     *
     * @param policyName the watchdog's name
     * @param tickerNanos when
     */
    record Recovered(String policyName, long tickerNanos) implements WatchdogEvent {}
}

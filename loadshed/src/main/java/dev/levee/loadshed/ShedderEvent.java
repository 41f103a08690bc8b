package dev.levee.loadshed;

import dev.levee.core.PolicyEvent;

/**
 * Something a load shedder did. Built only when someone listens.
 */
public sealed interface ShedderEvent extends PolicyEvent {

    /**
     * A request was refused.
     *
     * @param policyName the shedder
     * @param tickerNanos when
     * @param decision why (its {@link ShedDecision#reason()})
     */
    record Rejected(String policyName, long tickerNanos, ShedDecision decision) implements ShedderEvent {}

    /**
     * The PID shedder's rejection probability changed at an update.
     *
     * @param policyName the shedder
     * @param tickerNanos when
     * @param from the previous probability
     * @param to the new probability
     * @param measured the measurement that moved it
     */
    record RejectionRateChanged(String policyName, long tickerNanos, double from, double to, double measured)
            implements ShedderEvent {}

    /**
     * The priority shedder's minimum admitted tier changed.
     *
     * @param policyName the shedder
     * @param tickerNanos when
     * @param fromTier the previous minimum (0, 25, 50, 75 or 100)
     * @param toTier the new minimum
     * @param load the load reading
     */
    record MinimumPriorityChanged(String policyName, long tickerNanos, int fromTier, int toTier, double load)
            implements ShedderEvent {}
}

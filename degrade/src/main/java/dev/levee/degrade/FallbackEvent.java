package dev.levee.degrade;

import dev.levee.core.PolicyEvent;

/**
 * Something a fallback ({@link Fallback} or {@link LastKnownGood}) did that a listener may want to
 * know. Built only when someone listens; delivered on the thread that handled the failure.
 */
public sealed interface FallbackEvent extends PolicyEvent
        permits FallbackEvent.FellBack, FallbackEvent.TierFailed, FallbackEvent.Exhausted {

    /**
     * Why the primary call was not used.
     *
     * @return the reason
     */
    FallbackReason reason();

    /**
     * A tier served a value in place of the primary call.
     *
     * @param policyName the fallback's name
     * @param tickerNanos when, on the fallback's ticker
     * @param reason why the primary was not used
     * @param tier the tier that served
     * @param cause what the primary failed with
     */
    record FellBack(String policyName, long tickerNanos, FallbackReason reason, String tier, Throwable cause)
            implements FallbackEvent {}

    /**
     * A tier could not answer; the next one is tried.
     *
     * @param policyName the fallback's name
     * @param tickerNanos when, on the fallback's ticker
     * @param reason why the primary was not used
     * @param tier the tier that failed
     * @param failure what the tier failed with (a {@code DeadlineExceededException} at its timeout)
     */
    record TierFailed(String policyName, long tickerNanos, FallbackReason reason, String tier, Throwable failure)
            implements FallbackEvent {}

    /**
     * Every tier failed: the caller gets the primary's failure (or its bad result) back.
     *
     * @param policyName the fallback's name
     * @param tickerNanos when, on the fallback's ticker
     * @param reason why the primary was not used
     * @param cause what the primary failed with
     */
    record Exhausted(String policyName, long tickerNanos, FallbackReason reason, Throwable cause)
            implements FallbackEvent {}
}

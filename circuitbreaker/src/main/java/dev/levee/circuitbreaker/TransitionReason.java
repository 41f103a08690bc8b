package dev.levee.circuitbreaker;

import dev.levee.circuitbreaker.CircuitBreakerEvent.Rule;
import org.jspecify.annotations.Nullable;

/**
 * Why a breaker changes state: words for logs and events and, when a trip rule fired, the rule and
 * its figures (published as a {@link CircuitBreakerEvent.ThresholdExceeded} before the transition).
 * Built on transitions only.
 *
 * @param text the reason in words
 * @param rule the rule that fired, or null for any other transition
 * @param value the rule's value (a rate as a fraction, or a count)
 * @param threshold the rule's threshold
 * @param calls the calls in the window when the rule fired
 */
record TransitionReason(String text, @Nullable Rule rule, double value, double threshold, long calls) {

    /**
     * A transition no rule caused (a manual one, a wait that elapsed, a probe round's outcome).
     *
     * @param text the reason in words
     * @return the reason
     */
    static TransitionReason because(String text) {
        return new TransitionReason(text, null, 0, 0, 0);
    }
}

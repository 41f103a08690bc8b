package dev.levee.core;

import dev.levee.core.internal.EventListeners;

/**
 * Something a policy did that a listener may want to know: a state transition, a rejection, a retry,
 * a fallback. Each pattern defines its own event types implementing this interface.
 *
 * <p>Events are built only when someone listens (see {@link EventListeners#isEmpty()}), so they may
 * be ordinary immutable objects.
 */
public interface PolicyEvent {
    /**
     * The name of the policy that published the event.
     *
     * @return the policy name
     */
    String policyName();

    /**
     * When it happened, as a reading of the policy's {@link Ticker}.
     *
     * @return ticker nanoseconds
     */
    long tickerNanos();
}

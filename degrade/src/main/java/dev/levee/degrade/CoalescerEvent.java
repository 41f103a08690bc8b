package dev.levee.degrade;

import dev.levee.core.PolicyEvent;

/**
 * Something a {@link Coalescer} did that a listener may want to know. Built only when someone
 * listens; delivered on the calling (or completing) thread. Ordinary leads and joins publish nothing:
 * they are counted in {@link CoalescerMetrics}.
 */
public sealed interface CoalescerEvent extends PolicyEvent
        permits CoalescerEvent.Bypassed, CoalescerEvent.RefreshedEarly, CoalescerEvent.RefreshFailed {

    /**
     * A call for a new key ran on its own because {@code maxEntries} keys were in flight.
     *
     * @param policyName the coalescer's name
     * @param tickerNanos when, on its ticker
     * @param entries the keys in flight or held at that moment
     */
    record Bypassed(String policyName, long tickerNanos, int entries) implements CoalescerEvent {}

    /**
     * XFetch chose this call to reload a held value before its window ended.
     *
     * @param policyName the coalescer's name
     * @param tickerNanos when, on its ticker
     */
    record RefreshedEarly(String policyName, long tickerNanos) implements CoalescerEvent {}

    /**
     * An early reload failed; the held value is served until its window ends.
     *
     * @param policyName the coalescer's name
     * @param tickerNanos when, on its ticker
     * @param failure what the reload failed with
     */
    record RefreshFailed(String policyName, long tickerNanos, Throwable failure) implements CoalescerEvent {}
}

package dev.levee.bulkhead;

import dev.levee.core.PolicyEvent;

/**
 * Something a bulkhead ({@link Bulkhead} or {@link ThreadPoolBulkhead}) did. Each event is a record
 * named in the past tense; a refusal is always {@link Rejected}. Built only when someone listens;
 * listeners run on the thread that caused the event.
 */
public sealed interface BulkheadEvent extends PolicyEvent {

    /**
     * A call was refused: no slot (or queue place) was free in time.
     *
     * @param policyName the bulkhead's name
     * @param tickerNanos when, a reading of the bulkhead's ticker
     * @param active calls inside (or running, for a thread pool) at that moment
     * @param limit the bound in force
     */
    record Rejected(String policyName, long tickerNanos, int active, int limit) implements BulkheadEvent {}

    /**
     * The bulkhead has been rejecting continuously for the saturation warning; published once per
     * episode.
     *
     * @param policyName the bulkhead's name
     * @param tickerNanos when
     * @param active calls inside
     * @param limit the bound in force
     */
    record Saturated(String policyName, long tickerNanos, int active, int limit) implements BulkheadEvent {}

    /**
     * The bound was changed by {@link Bulkhead#resize(int)}.
     *
     * @param policyName the bulkhead's name
     * @param tickerNanos when
     * @param from the bound before
     * @param to the bound after
     * @param active calls inside at that moment
     */
    record Resized(String policyName, long tickerNanos, int from, int to, int active) implements BulkheadEvent {}

    /**
     * A thread-pool bulkhead was closed.
     *
     * @param policyName the bulkhead's name
     * @param tickerNanos when
     * @param active calls still running at that moment
     * @param maxThreads the bound on running calls
     */
    record Closed(String policyName, long tickerNanos, int active, int maxThreads) implements BulkheadEvent {}
}

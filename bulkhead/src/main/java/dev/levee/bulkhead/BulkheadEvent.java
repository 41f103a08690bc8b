package dev.levee.bulkhead;

import dev.levee.core.PolicyEvent;

/**
 * Something a bulkhead did that a listener may want to know. Built only when someone listens.
 *
 * @param policyName the bulkhead's name
 * @param tickerNanos when it happened, a reading of the bulkhead's ticker
 * @param kind what happened
 * @param active calls inside (semaphore) or running tasks (thread pool) at that moment
 * @param limit the bound on concurrent calls at that moment
 */
public record BulkheadEvent(String policyName, long tickerNanos, Kind kind, int active, int limit)
        implements PolicyEvent {

    /** What happened. */
    public enum Kind {
        /** A call was refused: no free slot within the wait allowed, or the queue was full. */
        REJECTED,
        /** The bulkhead has been rejecting continuously for longer than its saturation warning. */
        SATURATED,
        /** The bound on concurrent calls was changed at run time. */
        RESIZED,
        /** A thread-pool bulkhead stopped taking work. */
        CLOSED
    }
}

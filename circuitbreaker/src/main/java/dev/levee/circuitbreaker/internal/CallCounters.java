package dev.levee.circuitbreaker.internal;

import java.util.concurrent.atomic.LongAdder;

/**
 * Cumulative call counts by kind, kept only once a metrics binder asked for them, so a breaker nobody
 * monitors pays nothing for them. Striped adders: no contention, no allocation after warm-up.
 */
public final class CallCounters {
    /** Succeeded, not slow. */
    public final LongAdder successful = new LongAdder();
    /** Succeeded, slow. */
    public final LongAdder slowSuccessful = new LongAdder();
    /** Failed, not slow. */
    public final LongAdder failed = new LongAdder();
    /** Failed, slow. */
    public final LongAdder slowFailed = new LongAdder();
    /** Ignored by the classifier, or given back. */
    public final LongAdder ignored = new LongAdder();

    /**
     * Counts one recorded call.
     *
     * @param failed whether it failed
     * @param slow whether it was slow
     */
    public void count(boolean failed, boolean slow) {
        (failed ? (slow ? slowFailed : this.failed) : (slow ? slowSuccessful : successful)).increment();
    }
}

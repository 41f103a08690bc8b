package dev.levee.ratelimiter.internal;

import java.util.concurrent.atomic.LongAdder;

/**
 * Counters behind the Micrometer binder. Created only when metrics are bound, so an unobserved
 * limiter pays one field read per decision and nothing else.
 */
public final class LimiterStats {
    final LongAdder granted = new LongAdder();
    final LongAdder rejected = new LongAdder();
    final LongAdder rejections = new LongAdder();

    /** @return permits granted since the stats were enabled */
    public long granted() {
        return granted.sum();
    }

    /** @return requests refused since the stats were enabled (whatever their permits) */
    public long rejections() {
        return rejections.sum();
    }

    /** @return permits refused since the stats were enabled */
    public long rejected() {
        return rejected.sum();
    }
}

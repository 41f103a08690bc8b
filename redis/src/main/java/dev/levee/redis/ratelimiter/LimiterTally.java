package dev.levee.redis.ratelimiter;

import java.util.concurrent.atomic.LongAdder;

/**
 * The decision counters of one limiter, or of every key of a {@link KeyedRedisRateLimiter} together
 * (so a keyed limiter's meters survive the eviction of idle keys). Counting is one {@link LongAdder}
 * add: no lock, no allocation in steady state.
 */
final class LimiterTally {
    final LongAdder granted = new LongAdder();
    final LongAdder rejected = new LongAdder();
    final LongAdder outageDecisions = new LongAdder();
}

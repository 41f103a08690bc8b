package dev.levee.ratelimiter.internal;

import dev.levee.ratelimiter.RateLimiterConfig;

/**
 * The leaky bucket as a queue: callers leave at a constant rate of one permit per
 * {@code T = ceil(period / limit)}, in order of arrival, each waiting for its turn.
 *
 * <p>It is GCRA with no burst tolerance beyond the request itself ({@code τ = n·T}): with
 * {@code start = max(tat, now)},
 * <pre>
 *   wait  = start − now                 (how long this caller queues)
 *   grant iff wait ≤ maxWait            (then tat := start + n·T and the caller sleeps wait)
 * </pre>
 * so starts are spaced by at least {@code T} (at most {@code 1 + floor(W / T)} requests start in any
 * interval of length {@code W}), and the queue never holds more than {@code maxWait / T} callers'
 * worth of work: the rest are refused at once. {@code tryAcquire} grants only when nobody is queued
 * ({@code tat ≤ now}).
 */
public final class LeakyBucketLimiter extends GcraLimiter {

    /**
     * @param ctx the shared context
     * @param config the config
     */
    public LeakyBucketLimiter(LimiterContext ctx, RateLimiterConfig config) {
        super(ctx, config);
    }

    @Override
    long tolerance(Params p, long interval, int permits, boolean warming) {
        return interval * permits;
    }

    @Override
    long maxRequest(Params p) {
        return Long.MAX_VALUE;
    }

    /** The queue is a time (its tail's end): booked callers keep their slots, new ones queue at the new rate. */
    @Override
    long carried(Params old, long tat, long now, long from, long to) {
        // Never the value a stale decider read; 1 ns either way of an idle or booked queue.
        return tat - 1 == Long.MIN_VALUE ? tat + 1 : tat - 1;
    }

    @Override
    long remaining(Params p, long tat, long now) {
        return tat <= now ? 1L : 0L;
    }

    /** 1 when nobody is queued, else minus the permits queued ahead: {@code −ceil((tat − now) / T)}. */
    @Override
    long signedRemaining(Params p, long tat, long now) {
        long backlog = Math.max(tat, now) - now;
        return backlog == 0 ? 1L : -((backlog - 1) / p.interval + 1);
    }
}

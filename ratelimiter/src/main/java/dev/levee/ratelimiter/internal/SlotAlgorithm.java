package dev.levee.ratelimiter.internal;

import dev.levee.ratelimiter.RateLimitDecision;
import dev.levee.ratelimiter.RateLimiterConfig;
import org.jspecify.annotations.Nullable;

/**
 * An algorithm whose per-key state is one {@code long} under parameters shared by a tier, so a
 * {@link KeyedStateTable} can hold that state in a slot beside the key: GCRA, the leaky bucket and the
 * token bucket. The implementing limiter is the tier's prototype; its own state is never used.
 */
interface SlotAlgorithm {

    /**
     * The decision of {@code tryAcquire} (no wait) on the state {@code words[at]}: one CAS loop.
     *
     * @param words the table's words
     * @param at the index of the key's state
     * @param permits how many, at least 1
     * @param nowNanos now
     * @param into overwritten with the decision, or null
     * @return an {@link EncodedWait} code, or {@link KeyedStateTable#GONE} when the slot holds a sentinel
     *         (nothing decided)
     */
    long decideInSlot(long[] words, int at, int permits, long nowNanos, @Nullable RateLimitDecision into);

    /**
     * The state of a new key inserted at {@code nowNanos}; never a {@link KeyedStateTable} sentinel.
     *
     * @param nowNanos the inserting decision's reading
     * @return the fresh state
     */
    long freshState(long nowNanos);

    /**
     * A new limiter of this tier whose state is {@code state}, for a key promoted to its own limiter
     * (not yet published).
     *
     * @param ctx the shared context
     * @param state the slot's state
     * @return the limiter
     */
    AbstractRateLimiter promoted(LimiterContext ctx, long state);

    /**
     * The tier's configuration.
     *
     * @return the config
     */
    RateLimiterConfig config();
}

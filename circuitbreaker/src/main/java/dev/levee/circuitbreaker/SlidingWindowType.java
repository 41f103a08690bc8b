package dev.levee.circuitbreaker;

/** How a {@link CircuitBreaker}'s sliding window forgets old outcomes. */
public enum SlidingWindowType {
    /**
     * The last {@code slidingWindowSize} recorded calls. Best when traffic is steady: the window's
     * weight is the same at any rate. One atomic increment per plain success.
     */
    COUNT_BASED,
    /**
     * The calls of the last {@code slidingWindowSize} seconds, in {@code timeWindowBuckets} buckets that
     * roll on the breaker's ticker. Best when traffic varies a lot: old failures age out even when no
     * call comes. One ticker reading and one atomic add per plain success.
     */
    TIME_BASED
}

package dev.levee.ratelimiter;

/**
 * The algorithms a {@link RateLimiter} can run. Each keeps a different amount of state and gives a
 * different guarantee; {@code docs/ratelimiter.md} compares them. In the bounds below, {@code L} is
 * the limit, {@code P} the period, {@code T = P / L} the emission interval, {@code B} the burst and
 * {@code W} any interval of time.
 */
public enum RateLimitAlgorithm {
    /**
     * Generic cell rate algorithm: one {@code long} of state (the theoretical arrival time), one CAS
     * per decision. At most {@code B + floor(W / T)} permits in any closed interval of length
     * {@code W}; a stream at the configured rate is never refused. Supports warm-up and waiting by
     * reservation. The default.
     */
    GCRA,
    /**
     * Token bucket of capacity {@code B}, refilled with {@code L} tokens per {@code P}, lazily and in
     * exact integer arithmetic. At most {@code B + floor(W·L/P) + 1} permits in any interval of length
     * {@code W} (a whole token can arrive inside the interval). Supports waiting by reservation.
     */
    TOKEN_BUCKET,
    /**
     * Sliding-window counter: the current and previous fixed windows of length {@code P}, the
     * previous one weighted by how much of it the sliding window still covers:
     * {@code estimate = curr + prev·(1 − elapsed/P)}. One {@code long} of state. Exact for traffic
     * spread evenly; in the adversarial worst case up to {@code 2L} permits in an interval of length
     * {@code P}.
     *
     * <p>With {@code buckets(k)}, {@code k ≥ 2} (seed 004 §17.3.1), the window is cut into {@code k}
     * buckets of width {@code w = floor(P/k)} and the oldest partly covered bucket is the weighted one:
     * <pre>
     *   estimate = Σ count(b − j), j in [0, k−1]  +  floor(count(b − k)·(w − e − 1)/w)
     *   |estimate − true count of (now − k·w, now]| ≤ count(b − k)     (one bucket's permits)
     *   any interval of length (k − 1)·w holds at most L permits        (whatever the arrivals)
     * </pre>
     * State: one {@code long} for the current bucket plus a ring of {@code k + 1} tagged counts; a
     * decision reads {@code k + 1} buckets and makes one CAS.
     */
    SLIDING_WINDOW_COUNTER,
    /**
     * Fixed window: at most {@code L} permits per window {@code [k·P, (k+1)·P)}. Cheapest and easiest
     * to explain, but an interval of length {@code P} straddling a boundary can see up to {@code 2L}.
     */
    FIXED_WINDOW,
    /**
     * Sliding log: remembers the time of each of the last {@code L} permits, so it is exact: at most
     * {@code L} permits in any half-open interval of length {@code P}. Memory {@code 16·L} bytes.
     */
    SLIDING_LOG,
    /**
     * Leaky bucket as a queue: permits leave at a constant rate of one per {@code T}; a caller that
     * finds the bucket busy waits for its turn (up to {@code maxWait}), the rest are refused. Starts
     * are spaced by at least {@code T}: at most {@code 1 + floor(W / T)} in an interval of length
     * {@code W}. Supports warm-up.
     */
    LEAKY_BUCKET
}

package dev.levee.loadshed.limit;

/**
 * The bounds every algorithm's builder shares: the starting limit and the floor and ceiling it moves
 * between. Each algorithm's builder starts from its own defaults ({@code DEFAULT_INITIAL_LIMIT},
 * {@code DEFAULT_MIN_LIMIT}, {@code DEFAULT_MAX_LIMIT} in its class); {@code build()} checks
 * {@code 1 ≤ minLimit ≤ initialLimit ≤ maxLimit ≤ 1,000,000}.
 *
 * @param <B> the concrete builder, returned by every setter
 */
public abstract class LimitBuilder<B extends LimitBuilder<B>> {
    int initialLimit;
    int minLimit;
    int maxLimit;

    LimitBuilder(int initialLimit, int minLimit, int maxLimit) {
        this.initialLimit = initialLimit;
        this.minLimit = minLimit;
        this.maxLimit = maxLimit;
    }

    /**
     * @param initialLimit the starting limit, in [minLimit, maxLimit]
     * @return this builder
     */
    public B initialLimit(int initialLimit) {
        this.initialLimit = initialLimit;
        return self();
    }

    /**
     * @param minLimit the floor, at least 1
     * @return this builder
     */
    public B minLimit(int minLimit) {
        this.minLimit = minLimit;
        return self();
    }

    /**
     * @param maxLimit the ceiling, at least the floor, at most 1,000,000
     * @return this builder
     */
    public B maxLimit(int maxLimit) {
        this.maxLimit = maxLimit;
        return self();
    }

    void checkBounds(String policy) {
        Limits.checkBounds(policy, initialLimit, minLimit, maxLimit);
    }

    @SuppressWarnings("unchecked")
    final B self() {
        return (B) this;
    }
}

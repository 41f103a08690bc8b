package dev.levee.loadshed.limit;

import dev.levee.core.InvalidConfigException;

/**
 * A limit that never moves: {@code L = limit} whatever the samples. The degenerate case, for tests and
 * for services whose capacity is known and static (then a concurrency limiter is a bulkhead that sheds
 * with {@code concurrency_limit}).
 *
 * <p>Cost: {@code update} returns a field.
 */
public final class FixedLimit implements LimitAlgorithm {
    private final int limit;

    private FixedLimit(int limit) {
        this.limit = limit;
    }

    /**
     * A fixed limit.
     *
     * @param limit the limit, at least 1
     * @return the algorithm
     * @throws InvalidConfigException if {@code limit < 1}
     */
    public static FixedLimit of(int limit) {
        if (limit < 1) {
            throw new InvalidConfigException("FixedLimit", "limit", ">= 1", limit);
        }
        return new FixedLimit(limit);
    }

    @Override
    public int initialLimit() {
        return limit;
    }

    @Override
    public int minLimit() {
        return limit;
    }

    @Override
    public int maxLimit() {
        return limit;
    }

    @Override
    public int update(long nowNanos, long rttNanos, int inflight, boolean drop) {
        return limit;
    }

    @Override
    public String toString() {
        return "FixedLimit[" + limit + "]";
    }
}

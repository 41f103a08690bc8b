package dev.levee.loadshed.limit;

/**
 * The bounds every adaptive algorithm keeps: the starting limit, the floor and the ceiling, taken from
 * its {@link LimitBuilder} (which checked them) and never changed. The algorithms extend it for these
 * three fields and their getters; their state and formulas stay their own.
 */
abstract class BoundedLimit implements LimitAlgorithm {
    final int initialLimit;
    final int minLimit;
    final int maxLimit;

    BoundedLimit(LimitBuilder<?> builder) {
        this.initialLimit = builder.initialLimit;
        this.minLimit = builder.minLimit;
        this.maxLimit = builder.maxLimit;
    }

    @Override
    public final int initialLimit() {
        return initialLimit;
    }

    @Override
    public final int minLimit() {
        return minLimit;
    }

    @Override
    public final int maxLimit() {
        return maxLimit;
    }
}

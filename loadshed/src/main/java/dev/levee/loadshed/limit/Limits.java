package dev.levee.loadshed.limit;

import dev.levee.core.internal.Validate;

/** Checks shared by the algorithms' builders. */
final class Limits {
    /** The largest limit any algorithm accepts. */
    static final int MAX_LIMIT_BOUND = 1_000_000;

    private Limits() {}

    static void checkBounds(String policy, int initialLimit, int minLimit, int maxLimit) {
        Validate.inRange(policy, "minLimit", minLimit, 1, MAX_LIMIT_BOUND);
        Validate.inRange(policy, "maxLimit", maxLimit, 1, MAX_LIMIT_BOUND);
        Validate.check(minLimit <= maxLimit, policy, "minLimit", "<= maxLimit (" + maxLimit + ")", minLimit);
        Validate.check(initialLimit >= minLimit && initialLimit <= maxLimit, policy, "initialLimit",
                "in [minLimit, maxLimit] = [" + minLimit + ", " + maxLimit + "]", initialLimit);
    }

    static int clamp(double value, int min, int max) {
        if (!(value >= min)) {
            return min;
        }
        return value >= max ? max : (int) value;
    }
}

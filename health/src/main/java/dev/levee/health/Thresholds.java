package dev.levee.health;

import dev.levee.core.InvalidConfigException;

/**
 * Two thresholds on a fraction in {@code [0, 1]} (a usage, a saturation, a rate): the level at which
 * a reading is DEGRADED and the level at which it is UNHEALTHY, for a reading that is bad when high
 * ({@link #above}) or bad when low ({@link #below}). Seed 004 §17.5.1: a local metric compared with
 * fixed upper and lower bounds.
 *
 * <p>{@code above(0.8, 0.95)}: a reading {@code >= 0.95} is UNHEALTHY, {@code >= 0.8} DEGRADED, else
 * HEALTHY. {@code below(0.2, 0.05)}: {@code <= 0.05} UNHEALTHY, {@code <= 0.2} DEGRADED. A NaN reading
 * is DEGRADED (the source could not tell). Set both to the same value for a check with no DEGRADED band.
 *
 * @param degradedAt the DEGRADED threshold, in [0, 1]
 * @param unhealthyAt the UNHEALTHY threshold, in [0, 1]
 * @param highIsBad true for {@link #above}, false for {@link #below}
 */
public record Thresholds(double degradedAt, double unhealthyAt, boolean highIsBad) {

    /**
     * Validates the thresholds.
     *
     * @param degradedAt the DEGRADED threshold
     * @param unhealthyAt the UNHEALTHY threshold
     * @param highIsBad the direction
     * @throws InvalidConfigException if a threshold is outside [0, 1] (a value above 1 is probably a
     *     percent) or they are in the wrong order
     */
    public Thresholds {
        fraction("degradedAt", degradedAt);
        fraction("unhealthyAt", unhealthyAt);
        if (highIsBad && degradedAt > unhealthyAt) {
            throw new InvalidConfigException("Thresholds", "degradedAt", "<= unhealthyAt (" + unhealthyAt + ")",
                    degradedAt);
        }
        if (!highIsBad && degradedAt < unhealthyAt) {
            throw new InvalidConfigException("Thresholds", "degradedAt", ">= unhealthyAt (" + unhealthyAt + ")",
                    degradedAt);
        }
    }

    private static void fraction(String field, double value) {
        if (!(value >= 0.0 && value <= 1.0)) {
            String bound = value > 1.0 && value <= 100.0
                    ? "a fraction in [0, 1] (" + value + " looks like a percent; write " + value / 100.0 + ")"
                    : "a fraction in [0, 1]";
            throw new InvalidConfigException("Thresholds", field, bound, value);
        }
    }

    /**
     * Thresholds for a reading that is bad when high (usage, saturation, error rate).
     *
     * @param degradedAt DEGRADED at or above this
     * @param unhealthyAt UNHEALTHY at or above this; {@code >= degradedAt}
     * @return the thresholds
     */
    public static Thresholds above(double degradedAt, double unhealthyAt) {
        return new Thresholds(degradedAt, unhealthyAt, true);
    }

    /**
     * Thresholds for a reading that is bad when low (free space, available memory).
     *
     * @param degradedAt DEGRADED at or below this
     * @param unhealthyAt UNHEALTHY at or below this; {@code <= degradedAt}
     * @return the thresholds
     */
    public static Thresholds below(double degradedAt, double unhealthyAt) {
        return new Thresholds(degradedAt, unhealthyAt, false);
    }

    /**
     * The status of a reading.
     *
     * @param value the reading
     * @return its status
     */
    public HealthStatus statusOf(double value) {
        if (Double.isNaN(value)) {
            return HealthStatus.DEGRADED;
        }
        if (highIsBad) {
            return value >= unhealthyAt ? HealthStatus.UNHEALTHY
                    : value >= degradedAt ? HealthStatus.DEGRADED : HealthStatus.HEALTHY;
        }
        return value <= unhealthyAt ? HealthStatus.UNHEALTHY
                : value <= degradedAt ? HealthStatus.DEGRADED : HealthStatus.HEALTHY;
    }

    /**
     * A result for a reading, with a message when it is not HEALTHY.
     *
     * @param what what the reading is, e.g. {@code heap usage}
     * @param value the reading
     * @return the result, with the reading and thresholds as details
     */
    public CheckResult resultOf(String what, double value) {
        HealthStatus status = statusOf(value);
        String message = null;
        if (status != HealthStatus.HEALTHY) {
            double bound = status == HealthStatus.UNHEALTHY ? unhealthyAt : degradedAt;
            message = String.format(java.util.Locale.ROOT, "%s %.3f %s %.3f", what, value, highIsBad ? ">=" : "<=",
                    bound);
        }
        return CheckResult.of(status, message)
                .withDetail("value", value)
                .withDetail("degraded_at", degradedAt)
                .withDetail("unhealthy_at", unhealthyAt);
    }
}

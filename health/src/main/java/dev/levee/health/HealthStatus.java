package dev.levee.health;

import java.util.Locale;

/**
 * How healthy a check, a level or an instance is: {@link #HEALTHY}, {@link #DEGRADED} (working, but
 * worse than it should; still serving) or {@link #UNHEALTHY} (should not get traffic, or should be
 * restarted, depending on the level).
 *
 * <p>The order of the constants is the order of severity: {@link #worst} picks the later one.
 * {@link #isServing()} is what an HTTP probe sees: 200 for HEALTHY and DEGRADED, 503 for UNHEALTHY,
 * so a degraded instance stays in rotation (seed 001 §5: distinguish "degraded" from "dead").
 */
public enum HealthStatus {
    /** Working as intended. */
    HEALTHY,
    /** Working, with a problem worth a look (a non-critical check failing, a resource near its limit). */
    DEGRADED,
    /** Not fit for traffic at this level. */
    UNHEALTHY;

    private final String tag = name().toLowerCase(Locale.ROOT);

    /**
     * The lower-case name used in JSON bodies and metric tags.
     *
     * @return {@code healthy}, {@code degraded} or {@code unhealthy}
     */
    public String tag() {
        return tag;
    }

    /**
     * Whether an instance in this status should keep getting traffic: an HTTP probe answers 200.
     *
     * @return true for HEALTHY and DEGRADED
     */
    public boolean isServing() {
        return this != UNHEALTHY;
    }

    /**
     * The more severe of two statuses.
     *
     * @param a a status
     * @param b a status
     * @return {@code b} if it is more severe than {@code a}, else {@code a}
     */
    public static HealthStatus worst(HealthStatus a, HealthStatus b) {
        return b.ordinal() > a.ordinal() ? b : a;
    }
}

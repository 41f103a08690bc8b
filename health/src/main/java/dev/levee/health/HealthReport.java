package dev.levee.health;

import dev.levee.health.internal.ReportJson;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The answer to one level's question: the aggregate status, when it was computed, and every check's
 * result.
 *
 * <p><b>Aggregation</b> ({@link #aggregate}): no checks → HEALTHY; any critical UNHEALTHY → UNHEALTHY;
 * else any DEGRADED (or non-critical UNHEALTHY) → DEGRADED; else HEALTHY.
 *
 * @param level the level asked
 * @param status the aggregate status
 * @param timestamp when the report was assembled, on the checker's clock
 * @param checks every check's result, in registration order
 */
public record HealthReport(HealthLevel level, HealthStatus status, Instant timestamp, List<CheckResult> checks) {

    /**
     * Copies {@code checks}.
     *
     * @param level the level
     * @param status the aggregate status
     * @param timestamp when
     * @param checks the results
     */
    public HealthReport {
        Objects.requireNonNull(level, "level");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(timestamp, "timestamp");
        checks = List.copyOf(checks);
    }

    /**
     * The aggregate status of a list of results: the worst {@link CheckResult#effectiveStatus()},
     * HEALTHY when empty.
     *
     * @param results the results
     * @return the aggregate
     */
    public static HealthStatus aggregate(List<CheckResult> results) {
        HealthStatus worst = HealthStatus.HEALTHY;
        for (CheckResult r : results) {
            worst = HealthStatus.worst(worst, r.effectiveStatus());
        }
        return worst;
    }

    /**
     * The result of the check named {@code name}.
     *
     * @param name the check's name
     * @return its result, or empty if the report has no such check
     */
    public Optional<CheckResult> check(String name) {
        for (CheckResult r : checks) {
            if (r.name().equals(name)) {
                return Optional.of(r);
            }
        }
        return Optional.empty();
    }

    /**
     * The report as JSON. Without details: {@code {"level":…,"status":…}}. With details: also the
     * timestamp and every check's name, status, criticality, latency in milliseconds, message and
     * details. Every character outside printable ASCII is written as a {@code \\uXXXX} escape, so the
     * body is ASCII whatever the messages hold.
     *
     * @param withDetails whether to include checks, messages and details
     * @return the JSON text
     */
    public String toJson(boolean withDetails) {
        return ReportJson.write(this, withDetails);
    }
}

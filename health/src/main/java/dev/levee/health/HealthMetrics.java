package dev.levee.health;

import java.util.Map;

/**
 * A snapshot of a {@link HealthChecker} ({@link HealthChecker#metrics()}).
 *
 * @param levels each level's status in its last report (HEALTHY before the first)
 * @param checks each registered check's last reported status (HEALTHY before its first run)
 * @param runs check runs completed since creation (timed-out runs included)
 * @param timeouts check runs that timed out since creation
 */
public record HealthMetrics(Map<HealthLevel, HealthStatus> levels, Map<String, HealthStatus> checks, long runs,
        long timeouts) {

    /**
     * Copies the maps.
     *
     * @param levels each level's status
     * @param checks each check's status
     * @param runs runs completed
     * @param timeouts runs timed out
     */
    public HealthMetrics {
        levels = Map.copyOf(levels);
        checks = Map.copyOf(checks);
    }
}

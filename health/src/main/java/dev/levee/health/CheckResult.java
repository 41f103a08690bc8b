package dev.levee.health;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The outcome of one run of one check: its name, status, an optional message, how long it took, and
 * details (key → value) for humans.
 *
 * <p>A {@link HealthCheck} builds its result with {@link #healthy()}, {@link #degraded(String)},
 * {@link #unhealthy(String)} or {@link #of(HealthStatus, String)} and may add details with
 * {@link #withDetail(String, Object)}; the {@link HealthChecker} fills in the name it was registered
 * under, its latency (measured on the checker's ticker) and whether it is critical.
 *
 * <p>Details values should be strings, numbers, booleans, nulls, lists or maps of those (anything
 * else is written to JSON by its {@code toString()}). The details map keeps insertion order and is
 * unmodifiable.
 *
 * @param name the check's name
 * @param status its status as reported (after hysteresis)
 * @param message a short explanation, or null
 * @param latencyNanos how long the run took, in nanoseconds (0 before the checker measured it)
 * @param details extra facts for humans; never null
 * @param critical false if the check is non-critical: its UNHEALTHY counts as DEGRADED in the level
 */
public record CheckResult(
        String name, HealthStatus status, @Nullable String message, long latencyNanos, Map<String, Object> details,
        boolean critical) {

    /**
     * Copies {@code details} into an unmodifiable, insertion-ordered map.
     *
     * @param name the check's name
     * @param status its status
     * @param message a short explanation, or null
     * @param latencyNanos how long the run took
     * @param details extra facts; null is read as empty
     * @param critical whether the check is critical
     */
    public CheckResult {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(status, "status");
        details = details == null || details.isEmpty()
                ? Map.of()
                : Collections.unmodifiableMap(new LinkedHashMap<>(details));
    }

    /**
     * A result with a status and message; name and latency are filled in by the checker.
     *
     * @param status the status
     * @param message a short explanation, or null
     * @return the result
     */
    public static CheckResult of(HealthStatus status, @Nullable String message) {
        return new CheckResult("", status, message, 0L, Map.of(), true);
    }

    /**
     * A healthy result without a message.
     *
     * @return the result
     */
    public static CheckResult healthy() {
        return of(HealthStatus.HEALTHY, null);
    }

    /**
     * A degraded result.
     *
     * @param message why
     * @return the result
     */
    public static CheckResult degraded(@Nullable String message) {
        return of(HealthStatus.DEGRADED, message);
    }

    /**
     * An unhealthy result.
     *
     * @param message why
     * @return the result
     */
    public static CheckResult unhealthy(@Nullable String message) {
        return of(HealthStatus.UNHEALTHY, message);
    }

    /**
     * This result with one more detail (a later value for the same key replaces the earlier one).
     *
     * @param key the detail's key
     * @param value its value (string, number, boolean, null, list or map)
     * @return a new result
     */
    public CheckResult withDetail(String key, @Nullable Object value) {
        Objects.requireNonNull(key, "key");
        Map<String, Object> next = new LinkedHashMap<>(details);
        next.put(key, value);
        return new CheckResult(name, status, message, latencyNanos, next, critical);
    }

    /**
     * This result with {@code more} details added.
     *
     * @param more the details to add
     * @return a new result
     */
    public CheckResult withDetails(Map<String, ?> more) {
        Map<String, Object> next = new LinkedHashMap<>(details);
        next.putAll(more);
        return new CheckResult(name, status, message, latencyNanos, next, critical);
    }

    /**
     * This result under another name.
     *
     * @param newName the name
     * @return a new result
     */
    public CheckResult withName(String newName) {
        return new CheckResult(newName, status, message, latencyNanos, details, critical);
    }

    /**
     * This result with another status and message (details kept).
     *
     * @param newStatus the status
     * @param newMessage the message, or null
     * @return a new result
     */
    public CheckResult withStatus(HealthStatus newStatus, @Nullable String newMessage) {
        return new CheckResult(name, newStatus, newMessage, latencyNanos, details, critical);
    }

    /**
     * This result with its latency and criticality set (the checker calls this).
     *
     * @param nanos the measured latency
     * @param isCritical whether the check is critical
     * @return a new result
     */
    public CheckResult measured(long nanos, boolean isCritical) {
        return new CheckResult(name, status, message, nanos, details, isCritical);
    }

    /**
     * The latency as a duration.
     *
     * @return the latency
     */
    public Duration latency() {
        return Duration.ofNanos(latencyNanos);
    }

    /**
     * The status this result contributes to its level: a non-critical check's UNHEALTHY counts as
     * DEGRADED.
     *
     * @return the effective status
     */
    public HealthStatus effectiveStatus() {
        return !critical && status == HealthStatus.UNHEALTHY ? HealthStatus.DEGRADED : status;
    }
}

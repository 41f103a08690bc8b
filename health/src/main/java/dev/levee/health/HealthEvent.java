package dev.levee.health;

import dev.levee.core.PolicyEvent;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link HealthChecker} tells its listeners ({@link HealthChecker#onEvent}). Events are built
 * only when someone listens, and delivered synchronously on the thread that caused them (a check's
 * pool thread, the scheduler's thread on a timeout, or a prober's thread for a level).
 */
public sealed interface HealthEvent extends PolicyEvent {

    /**
     * A level's aggregate status changed (from its previous report; a level starts HEALTHY).
     *
     * @param policyName the checker's name
     * @param tickerNanos when
     * @param level the level
     * @param from the previous status
     * @param to the new status
     */
    record StatusChanged(String policyName, long tickerNanos, HealthLevel level, HealthStatus from, HealthStatus to)
            implements HealthEvent {}

    /**
     * A check's reported status (after hysteresis) changed; a check starts HEALTHY.
     *
     * @param policyName the checker's name
     * @param tickerNanos when
     * @param check the check's name
     * @param from the previous reported status
     * @param to the new reported status
     * @param message the run's message, or null
     */
    record CheckStatusChanged(
            String policyName, long tickerNanos, String check, HealthStatus from, HealthStatus to,
            @Nullable String message) implements HealthEvent {}

    /**
     * A check run completed (or timed out).
     *
     * @param policyName the checker's name
     * @param tickerNanos when
     * @param check the check's name
     * @param status the reported status
     * @param latencyNanos how long the run took (the timeout when it timed out)
     * @param timedOut whether it timed out
     */
    record CheckCompleted(
            String policyName, long tickerNanos, String check, HealthStatus status, long latencyNanos, boolean timedOut)
            implements HealthEvent {}
}

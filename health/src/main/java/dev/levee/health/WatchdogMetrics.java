package dev.levee.health;

/**
 * A snapshot of a {@link Watchdog} ({@link Watchdog#metrics()}).
 *
 * @param samples sampling rounds since start
 * @param breaches sustained breaches
 * @param actionsTaken actions run
 * @param actionsSuppressed actions the restart-loop guard refused
 * @param actionFailures actions that threw
 * @param unready whether the watchdog's readiness check is UNHEALTHY now
 */
public record WatchdogMetrics(long samples, long breaches, long actionsTaken, long actionsSuppressed,
        long actionFailures, boolean unready) {}

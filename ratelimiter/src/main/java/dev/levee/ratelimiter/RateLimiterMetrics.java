package dev.levee.ratelimiter;

/**
 * A snapshot of a {@link RateLimiter} ({@link RateLimiter#metrics()}): the rate in force and what it
 * allows now.
 *
 * @param limit the limit in force, permits per {@code periodNanos}
 * @param periodNanos the period in force
 * @param availablePermits permits that could be taken at once now (an estimate under concurrency)
 * @param waitingCallers callers waiting in {@code acquire}
 */
public record RateLimiterMetrics(long limit, long periodNanos, long availablePermits, int waitingCallers) {}

package dev.levee.health;

/**
 * One health check: a question about the process or a dependency, answered with a
 * {@link CheckResult}.
 *
 * <pre>{@code
 * checker.register(HealthLevel.READINESS, "database", () -> {
 *     try (var c = dataSource.getConnection()) {
 *         return c.isValid(1) ? CheckResult.healthy() : CheckResult.unhealthy("connection not valid");
 *     }
 * });
 * }</pre>
 *
 * <p>The {@link HealthChecker} runs checks on its own bounded pool, concurrently, under the level's
 * timeout; when the timeout passes the running thread is interrupted, so a check should block only in
 * interruptible calls (or with its own timeout). A check that throws is UNHEALTHY with the
 * exception's message; an {@link Error} is reported the same way and then rethrown on the pool thread.
 * The checker never runs the same check twice at once.
 */
@FunctionalInterface
public interface HealthCheck {

    /**
     * Runs the check.
     *
     * @return the result; its name and latency are replaced by the checker's
     * @throws Exception any failure, reported as UNHEALTHY with its message
     */
    CheckResult check() throws Exception;
}

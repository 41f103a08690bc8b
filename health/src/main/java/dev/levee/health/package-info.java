/**
 * Health checks: liveness, readiness, startup and deep levels run concurrently under per-level
 * timeouts ({@link dev.levee.health.HealthChecker}), built-in resource and reachability checks
 * ({@link dev.levee.health.HealthChecks}), dependency checks read from Levee's own policies
 * ({@link dev.levee.health.DependencyCheck}), an HTTP endpoint on the JDK's server
 * ({@link dev.levee.health.HealthEndpoint}) and a watchdog ({@link dev.levee.health.Watchdog}).
 * See {@code docs/health.md}.
 */
@NullMarked
package dev.levee.health;

import org.jspecify.annotations.NullMarked;

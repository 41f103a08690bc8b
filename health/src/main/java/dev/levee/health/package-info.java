/**
 * Health checks (planned): liveness, readiness and deep checks, built-in checks, an HTTP endpoint
 * and a watchdog. No API yet; it arrives with its own issue.
 */
package dev.levee.health;

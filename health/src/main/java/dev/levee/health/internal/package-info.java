/**
 * Implementation of the health module: the per-check runner (single flight, cache, hysteresis), the
 * JSON writer, the restart-loop guard. Not for users: may change without notice.
 */
package dev.levee.health.internal;

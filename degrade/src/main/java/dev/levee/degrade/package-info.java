/**
 * Graceful degradation (planned): fallback chains, degraded results, stale-value fallback and
 * request coalescing. No API yet; it arrives with its own issue.
 */
package dev.levee.degrade;

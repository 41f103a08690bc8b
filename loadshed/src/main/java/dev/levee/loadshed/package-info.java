/**
 * Load shedding: protect a service from its callers. Part I: adaptive concurrency limits
 * ({@link dev.levee.loadshed.ConcurrencyLimiter} with the algorithms of {@link dev.levee.loadshed.limit})
 * and client-side adaptive throttling. Every refusal is core's {@link dev.levee.core.ShedException}
 * with a reason. See {@code docs/loadshed.md}.
 */
package dev.levee.loadshed;

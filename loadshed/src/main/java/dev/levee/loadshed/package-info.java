/**
 * Load shedding: protect a service from its callers, so it keeps its goodput. Every refusal is core's
 * {@link dev.levee.core.ShedException} with a reason. See {@code docs/loadshed.md}.
 *
 * <p><b>Part I</b>: adaptive concurrency limits ({@link dev.levee.loadshed.ConcurrencyLimiter} with the
 * algorithms of {@link dev.levee.loadshed.limit}) and client-side adaptive throttling.
 *
 * <p><b>Part II</b>: the shedders, each a {@link dev.levee.core.Gate} that also answers
 * {@link dev.levee.loadshed.Shedder#decide} without throwing:
 * {@link dev.levee.loadshed.AdaptiveLoadShedder} (seed 002's composite decision),
 * {@link dev.levee.loadshed.PidShedder} (a PID controller on latency, seed 000),
 * {@link dev.levee.loadshed.PriorityShedder} (seed 000's tiers), {@link dev.levee.loadshed.CoDelGate}
 * (CoDel on the wait for a slot); the {@link dev.levee.loadshed.RequestClassifier} SPI and
 * {@link dev.levee.loadshed.RequestPriority}; {@link dev.levee.loadshed.Goodput}; the HTTP mapping
 * {@link dev.levee.loadshed.ShedResponse}; metrics binders. Queues and backpressure are in
 * {@link dev.levee.loadshed.queue}, overload signals and header propagation in
 * {@link dev.levee.loadshed.signal}.
 */
package dev.levee.loadshed;

/**
 * Load shedding: protect a service from more work than it can finish in time, so it keeps its
 * goodput. This package holds the shedders, each a {@link dev.levee.core.Gate} that also answers
 * {@link dev.levee.loadshed.Shedder#decide} without throwing:
 * {@link dev.levee.loadshed.AdaptiveLoadShedder} (seed 002's composite decision),
 * {@link dev.levee.loadshed.PidShedder} (a PID controller on latency, seed 000),
 * {@link dev.levee.loadshed.PriorityShedder} (seed 000's tiers), {@link dev.levee.loadshed.CoDelGate}
 * (CoDel on the wait for a slot); the {@link dev.levee.loadshed.RequestClassifier} SPI and
 * {@link dev.levee.loadshed.RequestPriority}; {@link dev.levee.loadshed.Goodput}; the HTTP mapping
 * {@link dev.levee.loadshed.ShedResponse}; metrics binders. Queues and backpressure are in
 * {@link dev.levee.loadshed.queue}, overload signals and header propagation in
 * {@link dev.levee.loadshed.signal}. See {@code docs/loadshed.md}.
 */
package dev.levee.loadshed;

/**
 * Chaos (fault-injection) policies for users' own resilience tests: {@link dev.levee.chaos.Chaos} injects
 * latency, an exception or a substitute result into a configured fraction of calls, chosen by a seeded
 * {@link dev.levee.core.RandomSource}, behind a switch that can change at run time and a per-call
 * selector. A chaos policy is an ordinary {@link dev.levee.core.Policy}: put it where the fault should
 * appear in a pipeline (innermost, to play the dependency). Disabled, it costs one volatile read.
 * The user guide is {@code docs/chaos.md}.
 */
package dev.levee.chaos;

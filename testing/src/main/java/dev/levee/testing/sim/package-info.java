/**
 * A deterministic simulation harness (the seeds' DST): virtual time over {@link dev.levee.core.ManualTicker}
 * and {@link dev.levee.core.ManualScheduler}, simulated dependencies with scripted or seeded latency,
 * errors, outages and capacity, and a {@link dev.levee.testing.sim.Recorder} of what each call
 * experienced. The same seed gives the same run, byte for byte ({@link dev.levee.testing.sim.Recorder#digest()}).
 *
 * <pre>{@code
 * Simulation sim = Simulation.seeded(42);
 * SimulatedDependency inventory = SimulatedDependency.builder(sim, "inventory")
 *         .latency(Duration.ofMillis(5), 0.2)          // 5 ms ± 20 %
 *         .failureRate(0.01)
 *         .outage(Duration.ofSeconds(2), Duration.ofSeconds(3))
 *         .capacityPerSecond(1000)
 *         .build();
 * sim.runFor(Duration.ofSeconds(10), Duration.ofMillis(10), step -> retry.executeAsync(inventory::callAsync));
 * String fingerprint = sim.recorder().digest();        // equal for equal seeds
 * }</pre>
 *
 * <p>Single-threaded by design: everything happens on the thread that advances the simulation, so a
 * run is a pure function of its seed and its script. This package depends only on {@code levee-core}
 * (no JUnit), so it can move into a published artifact unchanged (see {@code docs/architecture.md},
 * decision 35).
 */
package dev.levee.testing.sim;

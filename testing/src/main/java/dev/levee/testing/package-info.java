/**
 * Test support shared by every Levee module; used at test scope only, never published.
 *
 * <ul>
 *   <li>{@link dev.levee.testing.Concurrently}: the many-thread harness (start together, collect
 *       every failure, never hang);</li>
 *   <li>{@link dev.levee.testing.SimulatedDownstream}: a deterministic dependency on manual time with
 *       a latency, a failure schedule and a capacity, counting what it saw;</li>
 *   <li>{@link dev.levee.testing.GateContract} and {@link dev.levee.testing.PolicyContract}: the
 *       contract tests every {@link dev.levee.core.Gate} and every wrapper
 *       {@link dev.levee.core.Policy} passes. A module extends them in a small test class that says how
 *       to build the policy under test.</li>
 * </ul>
 */
package dev.levee.testing;

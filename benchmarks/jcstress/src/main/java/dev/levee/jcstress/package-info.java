/**
 * jcstress tests of Levee's lock-free state machines and counters. Each test names the invariant it
 * checks in its {@code @Description}; an outcome marked FORBIDDEN is a bug. The fixture package holds a
 * deliberately broken gate that these tests' style of check must catch (proof the harness can fail).
 * Run them with {@code benchmarks/jcstress/run --quick} or {@code --full} (see docs/testing.md).
 *
 * <p>These are correctness tests, not benchmarks: no time is measured and no figure is quoted from
 * them. Several hand the gate its clock readings ({@code tryAcquire(0L)}, {@code onSuccess(1_000L)})
 * on a {@code ManualTicker}, on purpose: the race between the actors is then the only thing that varies,
 * and the outcome table can name every acceptable result exactly.
 */
package dev.levee.jcstress;

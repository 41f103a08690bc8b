/**
 * jcstress tests of Levee's lock-free state machines and counters. Each test names the invariant it
 * checks in its {@code @Description}; an outcome marked FORBIDDEN is a bug. The fixture package holds a
 * deliberately broken gate that these tests' style of check must catch (proof the harness can fail).
 * Run them with {@code benchmarks/jcstress/run --quick} or {@code --full} (see docs/testing.md).
 */
package dev.levee.jcstress;

/**
 * Levee's core: the {@link dev.levee.core.Policy} SPI and its composition in a
 * {@link dev.levee.core.Pipeline}, the {@link dev.levee.core.Gate} permit protocol, injected time
 * ({@link dev.levee.core.Ticker}, {@link dev.levee.core.Sleeper}, {@link dev.levee.core.Scheduler})
 * and randomness ({@link dev.levee.core.RandomSource}), {@link dev.levee.core.Deadline} and its
 * propagation, outcome {@linkplain dev.levee.core.Classifier classification}, the
 * {@linkplain dev.levee.core.RejectedException rejection hierarchy}, events, metric names and
 * registries. Every pattern module depends on this package and on nothing else of Levee's.
 */
package dev.levee.core;

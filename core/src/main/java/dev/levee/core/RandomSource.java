package dev.levee.core;

import java.util.concurrent.ThreadLocalRandom;

/**
 * The only source of randomness in Levee: jitter, probabilistic shedding, sampling.
 *
 * <p>{@link #threadLocal()} is the production default (no contention). {@link #seeded(long)} is
 * deterministic, so a test that fails reproduces; it is thread-safe and lock-free, and a single
 * thread always sees the same sequence for the same seed.
 */
@FunctionalInterface
public interface RandomSource {

    /**
     * A uniformly distributed double.
     *
     * @return a value in {@code [0, 1)}
     */
    double nextDouble();

    /**
     * A uniformly distributed long in {@code [0, bound)}.
     *
     * @param bound the exclusive upper bound; positive
     * @return the value
     */
    default long nextLong(long bound) {
        if (bound <= 0) {
            throw new IllegalArgumentException("RandomSource: bound must be > 0 but was " + bound);
        }
        long value = (long) (nextDouble() * bound);
        return Math.min(value, bound - 1);
    }

    /**
     * Randomness from {@link ThreadLocalRandom}: fast, uncontended, not reproducible.
     *
     * @return the shared thread-local source
     */
    static RandomSource threadLocal() {
        return ThreadLocalRandomSource.INSTANCE;
    }

    /**
     * A reproducible source: SplitMix64 over an atomic counter.
     *
     * @param seed the seed
     * @return a new seeded source
     */
    static RandomSource seeded(long seed) {
        return new SeededRandomSource(seed);
    }
}

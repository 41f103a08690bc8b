package dev.levee.core;

import java.util.concurrent.atomic.AtomicLong;

/**
 * SplitMix64: the state advances by a fixed odd constant (one atomic add, so it is lock-free and
 * thread-safe) and each state is mixed into an output:
 * <pre>
 *   z = state += 0x9E3779B97F4A7C15
 *   z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9
 *   z = (z ^ (z >>> 27)) * 0x94D049BB133111EB
 *   out = z ^ (z >>> 31)
 * </pre>
 * A double takes the top 53 bits: {@code (out >>> 11) * 2^-53}.
 */
final class SeededRandomSource implements RandomSource {
    private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;
    private static final double DOUBLE_UNIT = 0x1.0p-53;

    private final long seed;
    private final AtomicLong state;

    SeededRandomSource(long seed) {
        this.seed = seed;
        this.state = new AtomicLong(seed);
    }

    private long nextRaw() {
        long z = state.addAndGet(GOLDEN_GAMMA);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    @Override
    public double nextDouble() {
        return (nextRaw() >>> 11) * DOUBLE_UNIT;
    }

    @Override
    public long nextLong(long bound) {
        if (bound <= 0) {
            throw new IllegalArgumentException("RandomSource: bound must be > 0 but was " + bound);
        }
        // Rejection sampling removes the modulo bias.
        long limit = Long.MAX_VALUE - (Long.MAX_VALUE % bound);
        while (true) {
            long r = nextRaw() >>> 1;
            if (r < limit) {
                return r % bound;
            }
        }
    }

    @Override
    public String toString() {
        return "RandomSource.seeded(" + seed + ")";
    }
}

package dev.levee.core;

import java.util.concurrent.ThreadLocalRandom;

/** {@link ThreadLocalRandom} as a {@link RandomSource}. */
enum ThreadLocalRandomSource implements RandomSource {
    INSTANCE;

    @Override
    public double nextDouble() {
        return ThreadLocalRandom.current().nextDouble();
    }

    @Override
    public long nextLong(long bound) {
        return ThreadLocalRandom.current().nextLong(bound);
    }

    @Override
    public String toString() {
        return "RandomSource.threadLocal()";
    }
}

package dev.levee.retry.internal;

import dev.levee.core.RandomSource;
import dev.levee.retry.Jitter;

/** {@code min(cap, floor(d · (1 - f + 2f·r)))}: uniform in {@code [d(1-f), d(1+f))}, clamped to the cap. */
public final class FactorJitter implements Jitter {
    private final double factor;

    /** @param factor in [0, 1] */
    public FactorJitter(double factor) {
        this.factor = factor;
    }

    @Override
    public long apply(long d, long prev, long base, long cap, RandomSource random) {
        double delay = d * (1.0 - factor + 2.0 * factor * random.nextDouble());
        return delay >= cap ? Math.max(cap, 0L) : Math.max(0L, (long) delay);
    }

    @Override
    public String toString() {
        return "Jitter.factor(" + factor + ")";
    }
}

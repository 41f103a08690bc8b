package dev.levee.retry.internal;

import dev.levee.core.RandomSource;
import java.util.concurrent.atomic.AtomicLongArray;
import org.jspecify.annotations.Nullable;

/**
 * P2C over Peak-EWMA: draw eligible {@code a ≠ b}, choose {@code b} iff {@code cost(b) < cost(a)},
 * where (estimate kept by {@link ReplicaStates#sample}, priced by {@link ReplicaStates#cost})
 * <pre>
 *   cost = estimate × (outstanding + 1)        estimate decayed by exp(−Δ/decayTime) while idle
 *   cost = initialLatency × outstanding         before the replica's first sample
 * </pre>
 */
final class PeakEwmaSelector extends Selector {
    private final double decayNanos;
    private final double initialNanos;

    PeakEwmaSelector(long decayNanos, long initialNanos) {
        this.decayNanos = decayNanos;
        this.initialNanos = initialNanos;
    }

    @Override
    public int select(ReplicaStates states, int @Nullable [] shard, boolean ignoreHealth,
                      @Nullable AtomicLongArray tried, long now, RandomSource random) {
        int a = draw(states, shard, ignoreHealth, tried, -1, random);
        if (a < 0) {
            return -1;
        }
        int b = draw(states, shard, ignoreHealth, tried, a, random);
        if (b < 0) {
            return a;
        }
        return states.cost(b, now, decayNanos, initialNanos) < states.cost(a, now, decayNanos, initialNanos) ? b : a;
    }
}

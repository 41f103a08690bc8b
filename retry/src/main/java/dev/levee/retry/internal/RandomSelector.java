package dev.levee.retry.internal;

import dev.levee.core.RandomSource;
import java.util.concurrent.atomic.AtomicLongArray;
import org.jspecify.annotations.Nullable;

/** Uniform random choice among the eligible candidates (see {@link Selector#draw} for the draw). */
final class RandomSelector extends Selector {
    @Override
    public int select(ReplicaStates states, int @Nullable [] shard, boolean ignoreHealth,
                      @Nullable AtomicLongArray tried, long now, RandomSource random) {
        return draw(states, shard, ignoreHealth, tried, -1, random);
    }
}

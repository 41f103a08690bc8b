package dev.levee.retry.internal;

import dev.levee.core.RandomSource;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.jspecify.annotations.Nullable;

/**
 * Round robin: {@code i = counter++ mod m}, then the first eligible candidate at or after position
 * {@code i}. One atomic increment per choice; a down replica's turn goes to the next eligible one.
 */
final class RoundRobinSelector extends Selector {
    private final AtomicLong counter = new AtomicLong();

    @Override
    public int select(ReplicaStates states, int @Nullable [] shard, boolean ignoreHealth,
                      @Nullable AtomicLongArray tried, long now, RandomSource random) {
        int m = candidates(states, shard);
        int start = (int) Long.remainderUnsigned(counter.getAndIncrement(), m);
        return scan(states, shard, ignoreHealth, tried, -1, start);
    }
}

package dev.levee.retry.internal;

import dev.levee.core.RandomSource;
import java.util.concurrent.atomic.AtomicLongArray;
import org.jspecify.annotations.Nullable;

/**
 * P2C over least outstanding: draw eligible {@code a ≠ b}, choose {@code b} iff
 * {@code outstanding(b) < outstanding(a)}. With one eligible candidate, that one.
 */
final class LeastOutstandingSelector extends Selector {
    @Override
    public int select(ReplicaStates states, int @Nullable [] shard, boolean ignoreHealth,
                      @Nullable AtomicLongArray tried, long now, RandomSource random) {
        int a = draw(states, shard, ignoreHealth, tried, -1, random);
        if (a < 0) {
            return -1;
        }
        int b = draw(states, shard, ignoreHealth, tried, a, random);
        return b >= 0 && states.outstanding(b) < states.outstanding(a) ? b : a;
    }
}

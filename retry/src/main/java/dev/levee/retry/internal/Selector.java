package dev.levee.retry.internal;

import dev.levee.core.RandomSource;
import dev.levee.retry.ReplicaSetConfig;
import java.util.concurrent.atomic.AtomicLongArray;
import org.jspecify.annotations.Nullable;

/**
 * One selection rule ({@code SelectionRule}): chooses an eligible replica among the candidates, or
 * answers -1 when none is eligible. Candidates are every replica, or the positions of a shard
 * ({@code ShuffleSharding}'s indexes). A replica is eligible when it is up (or health is ignored: the
 * set is in panic) and not in {@code tried} (the replicas a call has already used).
 *
 * <p>Pure functions of the shared {@link ReplicaStates} plus the rule's own counter: no allocation,
 * no lock. The random draws are rejection sampling with a bounded number of tries, then a scan from
 * a random start, so a choice costs O(1) expected reads while at least half the candidates are
 * eligible (always true outside panic at the default threshold) and O(m) at worst.
 */
public abstract class Selector {
    private static final int DRAWS = 8;

    /**
     * The rule's selector.
     *
     * @param config the set's config (its rule and Peak-EWMA constants)
     * @return a new selector
     */
    public static Selector of(ReplicaSetConfig config) {
        switch (config.selectionRule()) {
            case ROUND_ROBIN:
                return new RoundRobinSelector();
            case RANDOM:
                return new RandomSelector();
            case LEAST_OUTSTANDING:
                return new LeastOutstandingSelector();
            case PEAK_EWMA:
            default:
                return new PeakEwmaSelector(config.decayTimeNanos(), config.initialLatencyNanos());
        }
    }

    /**
     * Chooses a replica.
     *
     * @param states the replicas' state
     * @param shard candidate replica indexes, or null for every replica
     * @param ignoreHealth true in panic: every candidate counts as up
     * @param tried replicas to avoid (a bit set by index), or null
     * @param now the reading
     * @param random the random source
     * @return the replica index, or -1 if no candidate is eligible
     */
    public abstract int select(ReplicaStates states, int @Nullable [] shard, boolean ignoreHealth,
                               @Nullable AtomicLongArray tried, long now, RandomSource random);

    static int candidates(ReplicaStates states, int @Nullable [] shard) {
        return shard == null ? states.size() : shard.length;
    }

    static int replicaAt(int @Nullable [] shard, int position) {
        return shard == null ? position : shard[position];
    }

    /**
     * @param tried a bit set by replica index, or null
     * @param replica the index
     * @return whether the bit is set
     */
    public static boolean isTried(@Nullable AtomicLongArray tried, int replica) {
        return tried != null && (tried.get(replica >>> 6) & (1L << replica)) != 0;
    }

    static boolean eligible(ReplicaStates states, int replica, boolean ignoreHealth, @Nullable AtomicLongArray tried) {
        return (ignoreHealth || states.up(replica)) && !isTried(tried, replica);
    }

    /**
     * A near-uniformly random eligible replica other than {@code not}: up to {@value #DRAWS} uniform
     * draws, then a scan from a random start.
     *
     * @return the replica index, or -1
     */
    static int draw(ReplicaStates states, int @Nullable [] shard, boolean ignoreHealth,
                    @Nullable AtomicLongArray tried, int not, RandomSource random) {
        int m = candidates(states, shard);
        for (int k = 0; k < DRAWS; k++) {
            int replica = replicaAt(shard, (int) random.nextLong(m));
            if (replica != not && eligible(states, replica, ignoreHealth, tried)) {
                return replica;
            }
        }
        return scan(states, shard, ignoreHealth, tried, not, (int) random.nextLong(m));
    }

    /** The first eligible replica other than {@code not} at or after position {@code start}, or -1. */
    static int scan(ReplicaStates states, int @Nullable [] shard, boolean ignoreHealth, @Nullable AtomicLongArray tried,
                    int not, int start) {
        int m = candidates(states, shard);
        for (int k = 0; k < m; k++) {
            int position = start + k;
            int replica = replicaAt(shard, position >= m ? position - m : position);
            if (replica != not && eligible(states, replica, ignoreHealth, tried)) {
                return replica;
            }
        }
        return -1;
    }
}

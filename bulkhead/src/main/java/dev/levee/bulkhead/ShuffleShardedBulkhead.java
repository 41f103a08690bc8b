package dev.levee.bulkhead;

import dev.levee.core.BulkheadFullException;
import dev.levee.core.CheckedSupplier;
import dev.levee.core.Gate;
import dev.levee.core.internal.Validate;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import org.jspecify.annotations.Nullable;

/**
 * {@code n} semaphore bulkheads shared by all keys through {@link ShuffleSharding}: each key may use
 * only its own {@code k} of them. A key that floods fills its {@code k} partitions; another key is
 * refused only if all of its own {@code k} partitions are full, which for a random other key happens
 * with probability {@code 1 / C(n, k)} when one key floods (see {@link ShuffleSharding}). Unlike a
 * {@link KeyedBulkhead} it needs no state per key, so it suits unbounded key spaces.
 *
 * <p>A call enters the partition of its shard with the most free slots, falling back to the others in
 * shard order if that one filled meanwhile. Total concurrency never exceeds {@code n} times the
 * per-partition bound; each partition keeps its own bound exactly.
 *
 * <p>Thread-safe. A call allocates one {@code int[k]} for its shard (usually removed by escape
 * analysis); entering and leaving a partition allocate nothing.
 */
public final class ShuffleShardedBulkhead {
    private final String name;
    private final ShuffleSharding sharding;
    private final Bulkhead[] partitions;
    private final LongAdder rejections = new LongAdder();

    private ShuffleShardedBulkhead(String name, ShuffleSharding sharding, Bulkhead[] partitions) {
        this.name = name;
        this.sharding = sharding;
        this.partitions = partitions;
    }

    /**
     * Builds {@code partitions} bulkheads from {@code perPartition}, named {@code name-0}, {@code name-1}, ...
     *
     * @param name the name
     * @param perPartition each partition's configuration (its {@code maxWait} is not used: entry never waits)
     * @param partitions n, in [1, 65,536]
     * @param shardSize k, in [1, n]
     * @param seed the sharding seed; instances that must agree on shards share it
     * @return the sharded bulkhead
     * @throws dev.levee.core.InvalidConfigException if out of bounds
     */
    public static ShuffleShardedBulkhead of(String name, BulkheadConfig perPartition, int partitions, int shardSize,
            long seed) {
        Validate.name("ShuffleShardedBulkhead", name);
        Validate.notNull(Validate.describe("ShuffleShardedBulkhead", name), "perPartition", perPartition);
        ShuffleSharding sharding = ShuffleSharding.of(partitions, shardSize, seed);
        Bulkhead[] bulkheads = new Bulkhead[partitions];
        for (int i = 0; i < partitions; i++) {
            bulkheads[i] = Bulkhead.of(name + "-" + i, perPartition);
        }
        return new ShuffleShardedBulkhead(name, sharding, bulkheads);
    }

    /**
     * Takes a slot in one of {@code key}'s partitions, never waiting.
     *
     * @param key the key
     * @param nowNanos a reading of the partitions' ticker, or {@link Gate#NO_READING} (a bulkhead needs none)
     * @return the partition entered, on which exactly one completion method must follow; null if all
     *     of the key's partitions were full
     */
    public @Nullable Bulkhead tryAcquire(Object key, long nowNanos) {
        int[] shard = new int[sharding.shardSize()];
        sharding.shard(ShuffleSharding.hash(Objects.requireNonNull(key, "key")), shard);
        int best = 0;
        for (int i = 1; i < shard.length; i++) {
            if (partitions[shard[i]].availablePermits() > partitions[shard[best]].availablePermits()) {
                best = i;
            }
        }
        for (int i = 0; i < shard.length; i++) {
            Bulkhead b = partitions[shard[(best + i) % shard.length]];
            if (b.availablePermits() > 0 && b.tryAcquire(nowNanos)) {
                return b;
            }
        }
        rejections.increment();
        return null;
    }

    /**
     * Runs {@code call} in one of {@code key}'s partitions.
     *
     * @param key the key
     * @param call the call
     * @param <T> the result type
     * @param <E> the call's checked exception
     * @return what the call returned
     * @throws E what the call threw, unchanged
     * @throws BulkheadFullException if all of the key's partitions were full
     */
    public <T, E extends Throwable> T execute(Object key, CheckedSupplier<T, E> call) throws E {
        // A bulkhead needs no clock reading (TimeNeed.NONE): a refusing partition reads its own.
        Bulkhead b = tryAcquire(key, Gate.NO_READING);
        if (b == null) {
            throw new BulkheadFullException(name, "ShuffleShardedBulkhead '" + name + "': all " + sharding.shardSize()
                    + " partitions of this key's shard are full", 0L);
        }
        T result;
        try {
            result = call.get();
        } catch (Throwable t) {
            b.onFailure(Gate.NO_READING, t);
            throw t;
        }
        b.onSuccess(Gate.NO_READING);
        return result;
    }

    /** @return the sharding */
    public ShuffleSharding sharding() {
        return sharding;
    }

    /** @return the partitions, index i is partition i */
    public List<Bulkhead> partitions() {
        return List.of(partitions);
    }

    /** @return the name */
    public String name() {
        return name;
    }

    /** @return calls refused because the whole shard was full, since creation */
    public long rejectedCount() {
        return rejections.sum();
    }

    @Override
    public String toString() {
        return "ShuffleShardedBulkhead[" + name + ", " + sharding + "]";
    }
}

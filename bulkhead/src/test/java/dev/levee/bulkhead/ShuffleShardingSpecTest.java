package dev.levee.bulkhead;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.BulkheadFullException;
import dev.levee.core.Gate;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The shard of a key is specified exactly (its Javadoc): a stable 64-bit hash, then Floyd's sampling driven
 * by SplitMix64. The JDK's {@link SplittableRandom} is SplitMix64 with the same gamma and mix, so it is an
 * independent oracle for every draw: shards agree across JVMs and releases only if these hold.
 */
class ShuffleShardingSpecTest {

    /** Floyd's algorithm as the Javadoc states it, with SplitMix64 from {@code keyHash ^ seed}. */
    private static int[] floyd(long keyHash, long seed, int n, int k) {
        SplittableRandom random = new SplittableRandom(keyHash ^ seed);
        int[] chosen = new int[k];
        int count = 0;
        for (int j = n - k; j < n; j++) {
            int t = (int) ((random.nextLong() >>> 1) % (j + 1));
            boolean taken = false;
            for (int i = 0; i < count; i++) {
                taken |= chosen[i] == t;
            }
            chosen[count++] = taken ? j : t;
        }
        return chosen;
    }

    @Test
    void stringsHashByFnv1aThenTheSplitMixFinaliser() {
        // FNV-1a 64 test vectors: "a" -> 0xaf63dc4c8601ec8c, "foobar" -> 0x85944171f73967e8.
        assertThat(ShuffleSharding.hash("a")).isEqualTo(new SplittableRandom(0xaf63dc4c8601ec8cL).nextLong());
        assertThat(ShuffleSharding.hash("foobar")).isEqualTo(new SplittableRandom(0x85944171f73967e8L).nextLong());
        assertThat(ShuffleSharding.hash("")).isEqualTo(new SplittableRandom(0xcbf29ce484222325L).nextLong());
    }

    @Test
    void integralNumbersHashByValueAndOtherKeysByHashCode() {
        assertThat(ShuffleSharding.hash(Long.MAX_VALUE)).isEqualTo(new SplittableRandom(Long.MAX_VALUE).nextLong());
        assertThat(ShuffleSharding.hash(-5L)).isEqualTo(new SplittableRandom(-5L).nextLong());
        assertThat(ShuffleSharding.hash(42)).isEqualTo(new SplittableRandom(42L).nextLong());
        assertThat(ShuffleSharding.hash((short) -3)).isEqualTo(new SplittableRandom(-3L).nextLong());
        assertThat(ShuffleSharding.hash((byte) 9)).isEqualTo(new SplittableRandom(9L).nextLong());
        Object other = new Object() {
            @Override
            public int hashCode() {
                return -77;
            }
        };
        assertThat(ShuffleSharding.hash(other)).isEqualTo(new SplittableRandom(-77L).nextLong());
        // A double is not integral: its hashCode, not its value.
        assertThat(ShuffleSharding.hash(2.0)).isEqualTo(new SplittableRandom(Double.valueOf(2.0).hashCode()).nextLong());
    }

    @Test
    void theShardIsFloydsSampleDrivenBySplitMix64() {
        for (long seed : new long[] {0L, 1L, -99L}) {
            for (int[] nk : new int[][] {{8, 2}, {16, 4}, {5, 5}, {1, 1}, {100, 7}}) {
                ShuffleSharding sharding = ShuffleSharding.of(nk[0], nk[1], seed);
                assertThat(sharding.partitions()).isEqualTo(nk[0]);
                for (long key = 0; key < 200; key++) {
                    long hash = ShuffleSharding.hash(key);
                    int[] into = new int[nk[1]];
                    sharding.shard(hash, into);
                    assertThat(into).as("n=%d k=%d seed=%d key=%d", nk[0], nk[1], seed, key)
                            .containsExactly(floyd(hash, seed, nk[0], nk[1]));
                }
            }
        }
    }

    @Test
    void theArrayMustHoldAtLeastAShardAndMayHoldMore() {
        ShuffleSharding sharding = ShuffleSharding.of(8, 3);
        assertThatThrownBy(() -> sharding.shard(1L, new int[2])).isInstanceOf(IllegalArgumentException.class);
        int[] roomy = new int[3];
        sharding.shard(1L, roomy);
        assertThat(roomy).containsExactly(floyd(1L, 0L, 8, 3));
        assertThat(ShuffleSharding.of(8, 8).shardSize()).isEqualTo(8);
        assertThatThrownBy(() -> ShuffleSharding.of(8, 9)).isInstanceOf(dev.levee.core.InvalidConfigException.class);
        assertThatThrownBy(() -> ShuffleSharding.of(8, 0)).isInstanceOf(dev.levee.core.InvalidConfigException.class);
    }

    @Test
    void aCallEntersTheLeastBusyPartitionOfItsShardFirstInShardOrderOnTies() {
        ShuffleShardedBulkhead bulkhead = ShuffleShardedBulkhead.of("s",
                BulkheadConfig.builder().maxConcurrentCalls(2).build(), 8, 3, 0L);
        String key = "tenant-1";
        int[] order = new int[3];
        bulkhead.sharding().shard(ShuffleSharding.hash(key), order);
        var partitions = bulkhead.partitions();

        // All equally free: the first of the shard's draw order.
        Bulkhead first = bulkhead.tryAcquire(key, Gate.NO_READING);
        assertThat(first).isSameAs(partitions.get(order[0]));
        // order[0] now has 1 free, the others 2: the next most free in draw order is order[1].
        assertThat(bulkhead.tryAcquire(key, Gate.NO_READING)).isSameAs(partitions.get(order[1]));
        // order[0] and order[1] have 1, order[2] has 2.
        assertThat(bulkhead.tryAcquire(key, Gate.NO_READING)).isSameAs(partitions.get(order[2]));
        // All have 1 free: order[0] again.
        assertThat(bulkhead.tryAcquire(key, Gate.NO_READING)).isSameAs(partitions.get(order[0]));
        // order[0] full, the rest 1 each: the search starts at the fullest-free (order[1]).
        assertThat(bulkhead.tryAcquire(key, Gate.NO_READING)).isSameAs(partitions.get(order[1]));
        // Only order[2] has room: full partitions are skipped without a refused attempt on them.
        assertThat(bulkhead.tryAcquire(key, Gate.NO_READING)).isSameAs(partitions.get(order[2]));
        for (int p : order) {
            assertThat(partitions.get(p).rejectedCount()).as("partition %d", p).isZero();
        }
        assertThat(bulkhead.tryAcquire(key, Gate.NO_READING)).isNull();
        assertThat(bulkhead.rejectedCount()).isEqualTo(1);
        for (int p : order) {
            assertThat(partitions.get(p).rejectedCount()).as("a full partition is not even tried").isZero();
        }
    }

    @Test
    void aFullPartitionAheadOfAFreeOneInTheRotationIsSkipped() {
        ShuffleShardedBulkhead bulkhead = ShuffleShardedBulkhead.of("s",
                BulkheadConfig.builder().maxConcurrentCalls(1).build(), 8, 3, 0L);
        String key = "k";
        int[] order = new int[3];
        bulkhead.sharding().shard(ShuffleSharding.hash(key), order);
        var partitions = bulkhead.partitions();
        // Fill order[1] only: best stays order[0] (ties keep the first).
        assertThat(partitions.get(order[1]).tryAcquire()).isTrue();
        assertThat(bulkhead.tryAcquire(key, Gate.NO_READING)).isSameAs(partitions.get(order[0]));
        // Now order[0] and order[1] full; best is order[2].
        assertThat(bulkhead.tryAcquire(key, Gate.NO_READING)).isSameAs(partitions.get(order[2]));
        assertThat(partitions.get(order[1]).rejectedCount()).isZero();
    }

    @Test
    void executeReleasesTheSlotItTookOnSuccessAndOnFailure() {
        ShuffleShardedBulkhead bulkhead = ShuffleShardedBulkhead.of("s",
                BulkheadConfig.builder().maxConcurrentCalls(1).build(), 4, 1, 0L);
        assertThat(bulkhead.execute("k", () -> "ok")).isEqualTo("ok");
        IllegalStateException boom = new IllegalStateException("boom");
        assertThatThrownBy(() -> bulkhead.execute("k", () -> {
            throw boom;
        })).isSameAs(boom);
        for (Bulkhead b : bulkhead.partitions()) {
            assertThat(b.activeCount()).isZero();
        }
        int[] shard = bulkhead.sharding().shard("k");
        bulkhead.partitions().get(shard[0]).tryAcquire();
        assertThatThrownBy(() -> bulkhead.execute("k", () -> "x")).isInstanceOf(BulkheadFullException.class);
    }
}

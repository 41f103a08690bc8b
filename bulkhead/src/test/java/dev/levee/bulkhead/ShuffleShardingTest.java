package dev.levee.bulkhead;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.levee.core.BulkheadFullException;
import dev.levee.core.InvalidConfigException;
import dev.levee.core.RandomSource;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ShuffleShardingTest {

    @Test
    void aKeysShardIsDeterministicDistinctAndInRange() {
        ShuffleSharding s = ShuffleSharding.of(16, 4, 42L);
        for (int i = 0; i < 1_000; i++) {
            String key = "tenant-" + i;
            int[] shard = s.shard(key);
            assertThat(shard).hasSize(4).doesNotHaveDuplicates();
            assertThat(Arrays.stream(shard).allMatch(p -> p >= 0 && p < 16)).isTrue();
            assertThat(ShuffleSharding.of(16, 4, 42L).shard(key)).containsExactly(shard);
        }
        assertThat(s.shard("tenant-1")).isNotEqualTo(ShuffleSharding.of(16, 4, 43L).shard("tenant-1"));
        // Stable across JVMs: pinned values for a string key and a numeric key.
        assertThat(ShuffleSharding.hash("abc")).isEqualTo(ShuffleSharding.hash(new StringBuilder("abc")));
        assertThat(ShuffleSharding.hash(7L)).isEqualTo(ShuffleSharding.hash(7));
    }

    @Test
    void everyPartitionIsUsedEquallyOftenOnSeededKeys() {
        ShuffleSharding s = ShuffleSharding.of(10, 3, 7L);
        RandomSource random = RandomSource.seeded(2024);
        int keys = 20_000;
        long[] counts = new long[10];
        int[] shard = new int[3];
        for (int i = 0; i < keys; i++) {
            s.shard(random.nextLong(Long.MAX_VALUE), shard);
            for (int p : shard) {
                counts[p]++;
            }
        }
        double expected = keys * 3 / 10.0;
        double chiSquare = 0;
        for (long c : counts) {
            chiSquare += (c - expected) * (c - expected) / expected;
        }
        // 9 degrees of freedom: the 99.9th percentile is 27.9.
        assertThat(chiSquare).as("counts %s", Arrays.toString(counts)).isLessThan(27.9);
    }

    @Test
    void everyShardIsEquallyLikelyAndOverlapsMatchTheFormula() {
        ShuffleSharding s = ShuffleSharding.of(8, 2, 1L);
        assertThat(s.shardCount()).isEqualTo(28);
        assertThat(s.fullOverlapProbability()).isCloseTo(1 / 28.0, within(1e-12));
        assertThat(s.overlapProbability(0)).isCloseTo(15 / 28.0, within(1e-12));
        assertThat(s.overlapProbability(0) + s.overlapProbability(1) + s.overlapProbability(2))
                .isCloseTo(1.0, within(1e-12));
        int keys = 28_000;
        Map<String, Integer> shards = new HashMap<>();
        int[][] drawn = new int[keys][];
        for (int i = 0; i < keys; i++) {
            drawn[i] = s.shard("key-" + i);
            shards.merge(Arrays.toString(drawn[i]), 1, Integer::sum);
        }
        assertThat(shards).hasSize(28);
        double chiSquare = 0;
        for (int c : shards.values()) {
            chiSquare += (c - 1000.0) * (c - 1000.0) / 1000.0;
        }
        // 27 degrees of freedom: the 99.9th percentile is 55.5.
        assertThat(chiSquare).isLessThan(55.5);
        // Pairs of consecutive keys: how often do they share 0, 1, 2 partitions?
        int[] overlaps = new int[3];
        for (int i = 0; i + 1 < keys; i += 2) {
            int shared = 0;
            for (int p : drawn[i]) {
                for (int q : drawn[i + 1]) {
                    shared += p == q ? 1 : 0;
                }
            }
            overlaps[shared]++;
        }
        int pairs = keys / 2;
        for (int j = 0; j <= 2; j++) {
            assertThat(overlaps[j] / (double) pairs).isCloseTo(s.overlapProbability(j), within(0.02));
        }
    }

    @Test
    void boundsAreValidated() {
        assertThatThrownBy(() -> ShuffleSharding.of(0, 1)).isInstanceOf(InvalidConfigException.class)
                .hasMessage("ShuffleSharding: partitions must be in [1, 65536] but was 0");
        assertThatThrownBy(() -> ShuffleSharding.of(4, 5)).isInstanceOf(InvalidConfigException.class)
                .hasMessage("ShuffleSharding: shardSize must be in [1, partitions (4)] but was 5");
        assertThatThrownBy(() -> ShuffleSharding.of(4, 0)).isInstanceOf(InvalidConfigException.class);
        assertThatThrownBy(() -> ShuffleSharding.of(4, 2).shard(1L, new int[1]))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ShuffleSharding.of(4, 2).overlapProbability(3))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(ShuffleSharding.of(5, 5).shard("x")).containsExactly(0, 1, 2, 3, 4);
    }

    @Test
    void aFloodingKeyBlocksOnlyKeysThatShareItsWholeShard() {
        BulkheadConfig perPartition = BulkheadConfig.builder().maxConcurrentCalls(1).build();
        ShuffleShardedBulkhead sharded = ShuffleShardedBulkhead.of("shards", perPartition, 8, 2, 99L);
        String noisy = "noisy";
        Bulkhead first = sharded.tryAcquire(noisy, 0L);
        Bulkhead second = sharded.tryAcquire(noisy, 0L);
        assertThat(first).isNotNull().isNotSameAs(second);
        assertThat(second).isNotNull();
        assertThat(sharded.tryAcquire(noisy, 0L)).isNull();
        assertThatThrownBy(() -> sharded.execute(noisy, () -> "x")).isInstanceOf(BulkheadFullException.class);
        int[] noisyShard = sharded.sharding().shard(noisy);
        int blocked = 0;
        int others = 2_000;
        for (int i = 0; i < others; i++) {
            String key = "other-" + i;
            boolean sameShard = Arrays.equals(sharded.sharding().shard(key), noisyShard);
            try {
                sharded.execute(key, () -> null);
                assertThat(sameShard).isFalse();
            } catch (BulkheadFullException e) {
                assertThat(sameShard).isTrue();
                blocked++;
            }
        }
        assertThat(blocked / (double) others).isCloseTo(1 / 28.0, within(0.02));
        assertThat(sharded.rejectedCount()).isEqualTo(2 + blocked);
        first.onSuccess(0);
        second.onSuccess(0);
        assertThat(sharded.partitions()).allMatch(b -> b.activeCount() == 0);
    }
}

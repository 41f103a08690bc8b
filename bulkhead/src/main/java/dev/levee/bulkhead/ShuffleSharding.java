package dev.levee.bulkhead;

import dev.levee.core.internal.Validate;
import java.util.Arrays;

/**
 * Shuffle sharding: gives each key a deterministic pseudo-random set of {@code k} out of {@code n}
 * partitions (bulkheads, instances, queues), so that when one key misbehaves and fills its partitions,
 * almost every other key still has a partition it does not share.
 *
 * <p><b>Model.</b> A key's shard is a uniformly random {@code k}-subset of {@code {0, ..., n-1}} drawn
 * from a generator seeded by the key's 64-bit hash mixed with the instance's seed. The same key, seed,
 * {@code n} and {@code k} give the same shard on every JVM (strings and numbers hash stably; other keys
 * use their {@code hashCode()}, which must then be stable across JVMs for shards to agree across
 * instances). The subset is drawn with Floyd's algorithm: for {@code j} from {@code n-k} to {@code n-1},
 * pick {@code t} uniform in {@code [0, j]}; add {@code t} unless already chosen, else add {@code j}.
 * Each step's random draw is SplitMix64 of the mixed hash.
 *
 * <p><b>Isolation, in numbers.</b> There are {@code C(n, k)} possible shards. For two keys with
 * independent shards:
 * <pre>
 *   P(same whole shard)      = 1 / C(n, k)
 *   P(share no partition)    = C(n-k, k) / C(n, k)
 *   P(share exactly j)       = C(k, j) · C(n-k, k-j) / C(n, k)
 * </pre>
 * With {@code n = 8, k = 2}: 28 shards, a noisy key shares its whole shard with 1 key in 28, and 15 in
 * 28 keys share nothing with it. With {@code n = 16, k = 4}: 1,820 shards. If a caller only fails when
 * all of its {@code k} partitions are full, one misbehaving key takes down about {@code 1 / C(n, k)} of
 * the other keys instead of all of them.
 *
 * <p>Immutable and thread-safe. {@link #shard(long, int[])} allocates nothing.
 */
public final class ShuffleSharding {
    private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;
    private final int partitions;
    private final int shardSize;
    private final long seed;

    private ShuffleSharding(int partitions, int shardSize, long seed) {
        this.partitions = partitions;
        this.shardSize = shardSize;
        this.seed = seed;
    }

    /**
     * A sharding of {@code partitions} into shards of {@code shardSize}, with seed 0.
     *
     * @param partitions n, in [1, 65,536]
     * @param shardSize k, in [1, n]
     * @return the sharding
     * @throws dev.levee.core.InvalidConfigException if out of bounds
     */
    public static ShuffleSharding of(int partitions, int shardSize) {
        return of(partitions, shardSize, 0L);
    }

    /**
     * A sharding of {@code partitions} into shards of {@code shardSize}. Instances that must agree on
     * shards use the same seed.
     *
     * @param partitions n, in [1, 65,536]
     * @param shardSize k, in [1, n]
     * @param seed mixed into every key's hash
     * @return the sharding
     * @throws dev.levee.core.InvalidConfigException if out of bounds
     */
    public static ShuffleSharding of(int partitions, int shardSize, long seed) {
        String policy = "ShuffleSharding";
        Validate.inRange(policy, "partitions", partitions, 1, 65_536);
        Validate.check(shardSize >= 1 && shardSize <= partitions, policy, "shardSize",
                "in [1, partitions (" + partitions + ")]", shardSize);
        return new ShuffleSharding(partitions, shardSize, seed);
    }

    /** @return n, the number of partitions */
    public int partitions() {
        return partitions;
    }

    /** @return k, the partitions per key */
    public int shardSize() {
        return shardSize;
    }

    /**
     * The shard of {@code key}.
     *
     * @param key the key; strings, other char sequences and integral numbers hash stably
     * @return k distinct partition indexes in {@code [0, n)}, ascending
     */
    public int[] shard(Object key) {
        int[] out = new int[shardSize];
        shard(hash(key), out);
        Arrays.sort(out);
        return out;
    }

    /**
     * Writes the shard of a key hash into {@code into}, allocation-free. The order is the draw order,
     * itself pseudo-random, so trying partitions in this order spreads load.
     *
     * @param keyHash the key's 64-bit hash, e.g. {@link #hash(Object)}
     * @param into an array of length at least k; the first k slots receive the shard
     */
    public void shard(long keyHash, int[] into) {
        if (into.length < shardSize) {
            throw new IllegalArgumentException("ShuffleSharding: into must hold at least " + shardSize
                    + " slots but held " + into.length);
        }
        long state = keyHash ^ seed;
        int chosen = 0;
        for (int j = partitions - shardSize; j < partitions; j++) {
            state += GOLDEN_GAMMA;
            int t = (int) ((mix(state) >>> 1) % (j + 1));
            into[chosen] = contains(into, chosen, t) ? j : t;
            chosen++;
        }
    }

    private static boolean contains(int[] values, int count, int value) {
        for (int i = 0; i < count; i++) {
            if (values[i] == value) {
                return true;
            }
        }
        return false;
    }

    /**
     * A stable 64-bit hash: FNV-1a over the characters of a {@link CharSequence}, the value of an
     * integral {@link Number}, else {@code hashCode()}; then mixed so nearby keys get unrelated shards.
     *
     * @param key the key; not null
     * @return the hash
     */
    public static long hash(Object key) {
        long h;
        if (key instanceof CharSequence) {
            CharSequence s = (CharSequence) key;
            h = 0xcbf29ce484222325L;
            for (int i = 0; i < s.length(); i++) {
                h ^= s.charAt(i);
                h *= 0x100000001b3L;
            }
        } else if (key instanceof Long || key instanceof Integer || key instanceof Short || key instanceof Byte) {
            h = ((Number) key).longValue();
        } else {
            h = key.hashCode();
        }
        return mix(h + GOLDEN_GAMMA);
    }

    /** SplitMix64's output function. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /**
     * {@code C(n, k)}, the number of distinct shards, as a double (exact up to 2^53).
     *
     * @return the number of shards
     */
    public double shardCount() {
        return binomial(partitions, shardSize);
    }

    /**
     * The probability that two keys with independent shards get the same whole shard: {@code 1 / C(n, k)}.
     *
     * @return the probability
     */
    public double fullOverlapProbability() {
        return 1.0 / binomial(partitions, shardSize);
    }

    /**
     * The probability that two keys with independent shards share exactly {@code j} partitions:
     * {@code C(k, j) · C(n-k, k-j) / C(n, k)}.
     *
     * @param j the overlap, in [0, k]
     * @return the probability
     */
    public double overlapProbability(int j) {
        if (j < 0 || j > shardSize) {
            throw new IllegalArgumentException("ShuffleSharding: overlap must be in [0, " + shardSize + "] but was " + j);
        }
        return binomial(shardSize, j) * binomial(partitions - shardSize, shardSize - j)
                / binomial(partitions, shardSize);
    }

    /**
     * {@code C(n, k)} as a double, by the multiplicative formula {@code prod_{i=1..k} (n-k+i)/i}.
     *
     * @param n n
     * @param k k
     * @return the binomial coefficient; 0 if k is out of [0, n]
     */
    static double binomial(int n, int k) {
        if (k < 0 || k > n) {
            return 0;
        }
        double r = 1;
        for (int i = 1; i <= k; i++) {
            r = r * (n - k + i) / i;
        }
        return Math.rint(r);
    }

    @Override
    public String toString() {
        return "ShuffleSharding[n=" + partitions + ", k=" + shardSize + ", seed=" + seed + "]";
    }
}

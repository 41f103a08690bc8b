package dev.levee.benchmarks;

import dev.levee.benchmarks.keyed.KeyedLimiters;
import dev.levee.benchmarks.keyed.KeyedLimiters.Library;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * A keyed rate-limit decision as the key count grows past the CPU caches: 1, 1,000, 100,000 and
 * 1,000,000 keys, every key present (the steady state of a service with that many active tenants).
 *
 * <p><b>Fairness.</b> Every library holds one limiter per key the way its users hold them
 * ({@link KeyedLimiters}), configured to the same limit, far above what the threads consume, so every
 * decision is a grant and reads the system clock as a user's call does. The key is picked by a cheap
 * per-thread xorshift index into a pre-built array of {@code String} keys, {@code uniform} over all keys
 * or {@code skewed} (80 % of decisions to the first 1 % of keys). Two floors, labelled extras that no
 * user runs: a bare {@code ConcurrentHashMap.get} of the same keys ({@code map-lookup-floor}), that
 * lookup after one {@code System.nanoTime()} ({@code map-lookup-clock-floor}: what the clock alone adds),
 * and that lookup plus one {@code System.nanoTime()} and one GCRA compare-and-set of a per-key {@code long}
 * ({@code map-lookup-clock-cas-floor}), the work no correct keyed limiter can leave out. One more labelled
 * extra, {@code levee-gcra-coarse-ticker}, is Levee's GCRA on the opt-in coarse ticker.
 *
 * <p>Run: {@code benchmarks/run --quick 'KeyedRateLimiterScaleBenchmark.*'}; the heap per key is
 * measured by {@link dev.levee.benchmarks.keyed.KeyHeapFootprint} in a fresh JVM per library.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class KeyedRateLimiterScaleBenchmark {
    /** Keys present. */
    @Param({"1", "1000", "100000", "1000000"})
    public int keys;

    /** How decisions spread over the keys. */
    @Param({"uniform", "skewed"})
    public String distribution;

    /** The library under test; see {@link Library}. */
    @Param({"levee-gcra", "levee-token-bucket", "levee-gcra-coarse-ticker", "guava-in-a-map", "bucket4j-in-a-map",
            "bucket4j-in-caffeine", "resilience4j-registry", "map-lookup-floor", "map-lookup-clock-floor",
            "map-lookup-clock-cas-floor"})
    public String library;

    private String[] keyArray;
    private KeyedLimiters.Decider decider;
    private int hotKeys;
    private boolean skewed;

    /** Builds the keys and one limiter per key, all present before measuring. */
    @Setup(Level.Trial)
    public void setUp() {
        keyArray = KeyedLimiters.keys(keys);
        decider = KeyedLimiters.build(Library.named(library), keyArray);
        hotKeys = Math.max(1, keys / 100);
        skewed = distribution.equals("skewed");
    }

    /** Per-thread xorshift state: picking a key costs a few arithmetic instructions and no shared write. */
    @State(Scope.Thread)
    public static class Picker {
        long x = 0x9E3779B97F4A7C15L ^ Thread.currentThread().getId();

        int next(int bound) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            return (int) (((x >>> 32) * bound) >>> 32);
        }
    }

    /**
     * One keyed decision.
     *
     * @param picker the thread's key picker
     * @return granted
     */
    @Benchmark
    public boolean decide(Picker picker) {
        int index;
        if (skewed && picker.next(10) < 8) {
            index = picker.next(hotKeys);
        } else {
            index = picker.next(keys);
        }
        return decider.tryAcquire(keyArray[index]);
    }
}

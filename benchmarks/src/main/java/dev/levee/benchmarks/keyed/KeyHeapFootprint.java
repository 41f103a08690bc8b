package dev.levee.benchmarks.keyed;

import dev.levee.core.ManualTicker;
import dev.levee.ratelimiter.KeyedRateLimiter;
import dev.levee.ratelimiter.RateLimiterConfig;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.time.Duration;
import java.util.Locale;

/**
 * Heap retained per key by one library's keyed limiters, besides the key itself: run in a fresh JVM per
 * library so nothing else shares the heap.
 *
 * <pre>
 *   java -cp benchmarks/target/benchmarks.jar dev.levee.benchmarks.keyed.KeyHeapFootprint levee-gcra 1000000
 *   java -cp benchmarks/target/benchmarks.jar dev.levee.benchmarks.keyed.KeyHeapFootprint flood 10000000 100000
 * </pre>
 *
 * <p><b>Method.</b> Build the keys, collect garbage until the used heap settles, read it; create every
 * key's limiter, collect again, read it; print {@code (after − before) / keys}. The keys exist in both
 * readings, so their own size is not counted. {@code flood} sends {@code N} distinct keys through a Levee
 * GCRA limiter bounded to {@code bound} keys and prints the used heap and the keys tracked after each
 * tenth of the flood: both must stay flat. Between every {@value #HOT_EVERY} flood keys it calls one of
 * {@value #HOT_KEYS} hot keys (a tier of {@value #HOT_LIMIT} per hour, on a manual clock that advances
 * 1 µs per flood key, so nothing refills): each hot key must be granted exactly {@value #HOT_LIMIT}
 * times over the whole flood — an eviction would hand it a fresh budget.
 */
public final class KeyHeapFootprint {
    /** Hot keys in the flood. */
    static final int HOT_KEYS = 100;
    /** A hot key is called after every this many flood keys (cycling through the hot keys). */
    static final int HOT_EVERY = 10;
    /** The hot tier's limit, per hour, and its burst. */
    static final int HOT_LIMIT = 10;

    private KeyHeapFootprint() {
    }

    /**
     * @param args {@code <library> <keys>} or {@code flood <keys> <bound>}
     */
    public static void main(String[] args) {
        if (args.length >= 1 && args[0].equals("flood")) {
            flood(args.length > 1 ? Integer.parseInt(args[1]) : 10_000_000,
                    args.length > 2 ? Integer.parseInt(args[2]) : 100_000);
            return;
        }
        if (args.length != 2) {
            System.err.println("usage: KeyHeapFootprint <library> <keys> | flood <keys> <bound>");
            System.exit(2);
        }
        KeyedLimiters.Library library = KeyedLimiters.Library.named(args[0]);
        int count = Integer.parseInt(args[1]);
        String[] keys = KeyedLimiters.keys(count);
        long before = settledUsedHeap();
        KeyedLimiters.Decider decider = KeyedLimiters.build(library, keys);
        long after = settledUsedHeap();
        System.out.printf(Locale.ROOT, "%s: %,d keys, %.1f bytes per key besides the key (decider %s)%n",
                args[0], count, (after - before) / (double) count, decider.tryAcquire(keys[0]) ? "granting" : "refusing");
    }

    private static void flood(int count, int bound) {
        ManualTicker ticker = new ManualTicker();
        KeyedRateLimiter<Integer> keyed = KeyedRateLimiter.<Integer>builder("flood")
                .defaultConfig(RateLimiterConfig.builder().rate(KeyedLimiters.HUGE, Duration.ofSeconds(1))
                        .burst(KeyedLimiters.HUGE).ticker(ticker).build())
                .tier("hot", RateLimiterConfig.builder().rate(HOT_LIMIT, Duration.ofHours(1)).burst(HOT_LIMIT).build())
                .tierOf(key -> key < 0 ? "hot" : null)
                .maxEntries(bound)
                .build();
        long[] hotGrants = new long[HOT_KEYS];
        long start = settledUsedHeap();
        System.out.printf(Locale.ROOT, "flood of %,d distinct keys into a limiter bounded to %,d keys, with %d hot keys "
                + "(%d per hour each) called between every %d flood keys%n", count, bound, HOT_KEYS, HOT_LIMIT, HOT_EVERY);
        int step = Math.max(1, count / 10);
        int maxTracked = 0;
        for (int key = 0; key < count; key++) {
            ticker.advance(Duration.ofNanos(1_000));
            keyed.tryAcquire(key);
            if (key % HOT_EVERY == 0) {
                int hot = (key / HOT_EVERY) % HOT_KEYS;
                if (keyed.tryAcquire(-1 - hot)) {
                    hotGrants[hot]++;
                }
            }
            maxTracked = Math.max(maxTracked, keyed.size());
            if ((key + 1) % step == 0) {
                System.out.printf(Locale.ROOT, "  after %,11d keys: %,6d tracked, used heap %+,.1f MiB from the start%n",
                        key + 1, keyed.size(), (settledUsedHeap() - start) / 1048576.0);
            }
        }
        long min = Long.MAX_VALUE;
        long max = 0;
        for (long g : hotGrants) {
            min = Math.min(min, g);
            max = Math.max(max, g);
        }
        System.out.printf(Locale.ROOT, "most keys tracked at once: %,d (bound %,d); evictions %,d; each hot key granted "
                + "%d..%d times of %,d calls (its limit: %d, %s)%n", maxTracked, bound, keyed.evictionCount(), min, max,
                count / HOT_EVERY / HOT_KEYS, HOT_LIMIT, min == HOT_LIMIT && max == HOT_LIMIT ? "exact" : "NOT EXACT");
    }

    /** The used heap after garbage collection, once it stops shrinking (a few collections). */
    private static long settledUsedHeap() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long last = Long.MAX_VALUE;
        for (int i = 0; i < 10; i++) {
            System.gc();
            long used = memory.getHeapMemoryUsage().getUsed();
            if (used >= last - 1024) {
                return Math.min(used, last);
            }
            last = used;
        }
        return last;
    }
}

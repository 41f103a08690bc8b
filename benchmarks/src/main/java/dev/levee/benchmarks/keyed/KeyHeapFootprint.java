package dev.levee.benchmarks.keyed;

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
 * GCRA limiter bounded to {@code bound} keys and prints the used heap after each tenth of the flood: it
 * must stay flat.
 */
public final class KeyHeapFootprint {
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
        KeyedRateLimiter<Integer> keyed = KeyedRateLimiter.<Integer>builder("flood")
                .defaultConfig(RateLimiterConfig.builder().rate(KeyedLimiters.HUGE, Duration.ofSeconds(1))
                        .burst(KeyedLimiters.HUGE).build())
                .maxEntries(bound)
                .build();
        long start = settledUsedHeap();
        System.out.printf(Locale.ROOT, "flood of %,d distinct keys into a limiter bounded to %,d keys%n", count, bound);
        int step = Math.max(1, count / 10);
        for (int key = 0; key < count; key++) {
            keyed.tryAcquire(key);
            if ((key + 1) % step == 0) {
                System.out.printf(Locale.ROOT, "  after %,11d keys: %,6d tracked, used heap %+,.1f MiB from the start%n",
                        key + 1, keyed.size(), (settledUsedHeap() - start) / 1048576.0);
            }
        }
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

package dev.levee.benchmarks.keyed;

import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import dev.levee.core.Ticker;
import dev.levee.ratelimiter.KeyedRateLimiter;
import dev.levee.ratelimiter.RateLimitAlgorithm;
import dev.levee.ratelimiter.RateLimiterConfig;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.resilience4j.ratelimiter.RateLimiterRegistry;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One limiter per key, held the way each library's users hold them, configured to one limit (10^9 per
 * second, burst 10^9: never refused), for the scale benchmark and the heap measurement.
 */
public final class KeyedLimiters {
    /** Permits per second and burst of every limiter: far above what a benchmark thread takes. */
    static final long HUGE = 1_000_000_000L;

    private KeyedLimiters() {
    }

    /** The libraries compared, each as its users hold per-key limiters. */
    public enum Library {
        /** Levee {@code KeyedRateLimiter}, GCRA. */
        LEVEE_GCRA,
        /** Levee {@code KeyedRateLimiter}, token bucket. */
        LEVEE_TOKEN_BUCKET,
        /**
         * Levee {@code KeyedRateLimiter}, GCRA, on the opt-in coarse ticker ({@code Ticker.coarse()}: a
         * volatile load per reading instead of {@code System.nanoTime()}). A labelled extra: the
         * published Levee rows read the system clock.
         */
        LEVEE_GCRA_COARSE_TICKER,
        /** Guava {@code RateLimiter} per key in a {@code ConcurrentHashMap} ({@code computeIfAbsent}). */
        GUAVA_IN_A_MAP,
        /** bucket4j local {@code Bucket} per key in a {@code ConcurrentHashMap}. */
        BUCKET4J_IN_A_MAP,
        /** bucket4j local {@code Bucket} per key in a bounded Caffeine {@code LoadingCache}. */
        BUCKET4J_IN_CAFFEINE,
        /** resilience4j {@code RateLimiterRegistry}: one {@code AtomicRateLimiter} per key name. */
        RESILIENCE4J_REGISTRY,
        /** A bare {@code ConcurrentHashMap.get} of the key: the floor any keyed structure pays. */
        MAP_LOOKUP_FLOOR,
        /**
         * The bare lookup of {@link #MAP_LOOKUP_FLOOR} after one {@code System.nanoTime()}, as a limiter
         * that reads its clock when a call arrives: no state, no write. Shows what the clock alone adds
         * to the lookup once the keys are past the caches (the clock reading waits for earlier loads, so
         * lookups no longer overlap one another).
         */
        MAP_LOOKUP_CLOCK_FLOOR,
        /**
         * The floor any correct keyed limiter pays: the bare lookup of a per-key {@code AtomicLong}, one
         * {@code System.nanoTime()} and one GCRA compare-and-set of the key's state. Not a limiter a user
         * would ship (no bound, no eviction, no configuration); it shows how much of a keyed decision is
         * the lookup, the clock and the atomic write that no implementation can leave out.
         */
        MAP_LOOKUP_CLOCK_CAS_FLOOR;

        /**
         * @param name the lower-case, dash-separated name ({@code levee-gcra})
         * @return the library
         */
        public static Library named(String name) {
            return valueOf(name.toUpperCase(Locale.ROOT).replace('-', '_'));
        }
    }

    /** One keyed decision. */
    @FunctionalInterface
    public interface Decider {
        /**
         * @param key the key
         * @return granted
         */
        boolean tryAcquire(String key);
    }

    /**
     * @param count how many
     * @return distinct keys {@code tenant-0 … tenant-(count−1)}
     */
    public static String[] keys(int count) {
        String[] keys = new String[count];
        for (int i = 0; i < count; i++) {
            keys[i] = "tenant-" + i;
        }
        return keys;
    }

    /**
     * Builds the library's keyed limiters and creates every key's limiter.
     *
     * @param library the library
     * @param keys the keys, all created before this returns
     * @return the decision of one key
     */
    public static Decider build(Library library, String[] keys) {
        Decider decider = create(library, keys.length);
        for (String key : keys) {
            decider.tryAcquire(key);
        }
        return decider;
    }

    private static Decider create(Library library, int keyCount) {
        int bound = Math.max(keyCount, 16);
        switch (library) {
            case LEVEE_GCRA:
                return levee(RateLimitAlgorithm.GCRA, bound);
            case LEVEE_TOKEN_BUCKET:
                return levee(RateLimitAlgorithm.TOKEN_BUCKET, bound);
            case LEVEE_GCRA_COARSE_TICKER:
                return levee(RateLimitAlgorithm.GCRA, bound, Ticker.coarse());
            case GUAVA_IN_A_MAP: {
                ConcurrentHashMap<String, com.google.common.util.concurrent.RateLimiter> map = new ConcurrentHashMap<>();
                return key -> map.computeIfAbsent(key, k -> com.google.common.util.concurrent.RateLimiter.create(HUGE))
                        .tryAcquire();
            }
            case BUCKET4J_IN_A_MAP: {
                ConcurrentHashMap<String, Bucket> map = new ConcurrentHashMap<>();
                return key -> map.computeIfAbsent(key, k -> bucket()).tryConsume(1);
            }
            case BUCKET4J_IN_CAFFEINE: {
                LoadingCache<String, Bucket> cache = Caffeine.newBuilder().maximumSize(bound).build(k -> bucket());
                return key -> cache.get(key).tryConsume(1);
            }
            case RESILIENCE4J_REGISTRY: {
                RateLimiterRegistry registry = RateLimiterRegistry.of(
                        io.github.resilience4j.ratelimiter.RateLimiterConfig.custom()
                                .limitForPeriod(Integer.MAX_VALUE).limitRefreshPeriod(Duration.ofSeconds(1))
                                .timeoutDuration(Duration.ZERO).build());
                return key -> registry.rateLimiter(key).acquirePermission();
            }
            case MAP_LOOKUP_FLOOR: {
                ConcurrentHashMap<String, Boolean> map = new ConcurrentHashMap<>();
                return key -> {
                    Boolean present = map.get(key); // the measured path: every key is present
                    return present != null || map.computeIfAbsent(key, k -> Boolean.TRUE);
                };
            }
            case MAP_LOOKUP_CLOCK_FLOOR: {
                ConcurrentHashMap<String, Boolean> map = new ConcurrentHashMap<>();
                return key -> {
                    long now = System.nanoTime();
                    Boolean present = map.get(key); // the measured path: every key is present
                    return (present != null || map.computeIfAbsent(key, k -> Boolean.TRUE)) && now != Long.MIN_VALUE;
                };
            }
            case MAP_LOOKUP_CLOCK_CAS_FLOOR:
                return lookupClockCasFloor();
            default:
                throw new IllegalArgumentException("unknown library " + library);
        }
    }

    /**
     * GCRA on one {@code long} per key: {@code tat' = max(tat, now) + T}, granted when
     * {@code tat' - now <= burst × T}; here {@code T} = 1 ns (10^9 per second).
     */
    private static Decider lookupClockCasFloor() {
        ConcurrentHashMap<String, AtomicLong> map = new ConcurrentHashMap<>();
        return key -> {
            AtomicLong tat = map.get(key);
            if (tat == null) {
                tat = map.computeIfAbsent(key, k -> new AtomicLong(System.nanoTime()));
            }
            long now = System.nanoTime();
            while (true) {
                long current = tat.get();
                long next = Math.max(current, now) + 1;
                if (next - now > HUGE) {
                    return false;
                }
                if (tat.compareAndSet(current, next)) {
                    return true;
                }
            }
        };
    }

    private static Decider levee(RateLimitAlgorithm algorithm, int bound) {
        return levee(algorithm, bound, Ticker.system());
    }

    private static Decider levee(RateLimitAlgorithm algorithm, int bound, Ticker ticker) {
        KeyedRateLimiter<String> keyed = KeyedRateLimiter.<String>builder("scale")
                .defaultConfig(RateLimiterConfig.builder().algorithm(algorithm).ticker(ticker)
                        .rate(HUGE, Duration.ofSeconds(1)).burst(HUGE).build())
                .maxEntries(bound)
                .idleTimeout(Duration.ofHours(1))
                .build();
        return keyed::tryAcquire;
    }

    private static Bucket bucket() {
        return Bucket.builder()
                .addLimit(Bandwidth.builder().capacity(HUGE).refillGreedy(HUGE, Duration.ofSeconds(1)).build())
                .withNanosecondPrecision()
                .build();
    }
}

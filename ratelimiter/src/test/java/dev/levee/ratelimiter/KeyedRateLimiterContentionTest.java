package dev.levee.ratelimiter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualTicker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A key's state lives in its registry entry: under 16 threads hammering a few keys, each key grants
 * exactly its budget, never one more (the clock stands still, so nothing refills).
 */
class KeyedRateLimiterContentionTest {
    private static final int THREADS = 16;
    private static final int KEYS = 8;
    private static final int BUDGET = 100;

    @ParameterizedTest
    @EnumSource(value = RateLimitAlgorithm.class, names = {"GCRA", "TOKEN_BUCKET", "LEAKY_BUCKET"})
    void eachKeyGrantsExactlyItsBudgetUnderSixteenThreads(RateLimitAlgorithm algorithm) throws Exception {
        ManualTicker ticker = new ManualTicker(1_000L);
        RateLimiterConfig.Builder config = RateLimiterConfig.builder().algorithm(algorithm)
                .rate(BUDGET, Duration.ofHours(1)).ticker(ticker).sleeper(ticker);
        if (algorithm != RateLimitAlgorithm.LEAKY_BUCKET) {
            config.burst(BUDGET);
        }
        KeyedRateLimiter<Integer> keyed = KeyedRateLimiter.<Integer>builder("contended")
                .defaultConfig(config.build()).maxEntries(KEYS + THREADS).build(); // room for creations in flight
        long expected = algorithm == RateLimitAlgorithm.LEAKY_BUCKET ? 1 : BUDGET; // the queue admits one at once
        AtomicLongArray granted = new AtomicLongArray(KEYS);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> futures = new ArrayList<>();
        try {
            for (int t = 0; t < THREADS; t++) {
                int offset = t;
                futures.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < 400; i++) {
                        int key = (i + offset) % KEYS;
                        if (keyed.tryAcquire(key)) {
                            granted.incrementAndGet(key);
                        }
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : futures) {
                f.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        for (int key = 0; key < KEYS; key++) {
            assertThat(granted.get(key)).as("grants of key %d", key).isEqualTo(expected);
        }
        assertThat(keyed.evictionCount()).isZero();
    }

    /** The keys of a tier share their parameters; a rate change on one key's limiter gives it its own. */
    @ParameterizedTest
    @EnumSource(value = RateLimitAlgorithm.class, names = {"GCRA", "TOKEN_BUCKET"})
    void aKeysRateChangeLeavesTheOtherKeysOfItsTierAlone(RateLimitAlgorithm algorithm) {
        ManualTicker ticker = new ManualTicker(1_000L);
        KeyedRateLimiter<String> keyed = KeyedRateLimiter.<String>builder("tiers")
                .defaultConfig(RateLimiterConfig.builder().algorithm(algorithm).rate(3, Duration.ofSeconds(1))
                        .burst(3).ticker(ticker).sleeper(ticker).build())
                .build();
        assertThat(keyed.tryAcquire("a", 3)).isTrue();
        keyed.forKey("a").setRate(6, Duration.ofSeconds(1));
        assertThat(keyed.forKey("a").limit()).isEqualTo(6);
        assertThat(keyed.forKey("b").limit()).isEqualTo(3);
        assertThat(keyed.tryAcquire("a")).as("a's debt carried over the change").isFalse();
        assertThat(keyed.tryAcquire("b", 3)).isTrue();
        assertThat(keyed.tryAcquire("b")).isFalse();
        ticker.advance(Duration.ofMillis(167)); // a's next permit at 6/s (b's comes at 334 ms)
        assertThat(keyed.tryAcquire("a")).isTrue();
        assertThat(keyed.tryAcquire("b")).isFalse();
        assertThat(keyed.forKey("b").config()).isSameAs(keyed.forKey("c").config());
    }
}

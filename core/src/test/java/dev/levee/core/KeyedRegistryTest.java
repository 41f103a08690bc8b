package dev.levee.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class KeyedRegistryTest {
    private final ManualTicker ticker = new ManualTicker();

    @Test
    void staysWithinItsBoundAfterAMillionDistinctKeys() {
        AtomicLong live = new AtomicLong();
        KeyedRegistry<Long, Object> registry = KeyedRegistry.builder("tenants")
                .maxEntries(1_000)
                .ticker(ticker)
                .onEviction((k, v) -> live.decrementAndGet())
                .build(k -> {
                    live.incrementAndGet();
                    return new Object();
                });

        for (long key = 0; key < 1_000_000; key++) {
            registry.get(key);
            if (registry.size() > 1_000 || live.get() > 1_000) {
                throw new AssertionError("bound exceeded at key " + key + ": size " + registry.size());
            }
        }
        assertThat(registry.size()).isEqualTo(1_000);
        assertThat(registry.evictionCount()).isEqualTo(999_000);
        assertThat(live.get()).isEqualTo(1_000);
    }

    @Test
    void boundHoldsExactlyUnderSixteenThreads() throws Exception {
        AtomicLong live = new AtomicLong();
        AtomicLong maxLive = new AtomicLong();
        KeyedRegistry<Integer, Object> registry = KeyedRegistry.builder("hammered")
                .maxEntries(64)
                .onEviction((k, v) -> live.decrementAndGet())
                .build(k -> {
                    long now = live.incrementAndGet();
                    maxLive.accumulateAndGet(now, Math::max);
                    return new Object();
                });
        int threads = 16;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> futures = new ArrayList<>();
        try {
            for (int t = 0; t < threads; t++) {
                int seed = t;
                futures.add(pool.submit(() -> {
                    RandomSource random = RandomSource.seeded(seed);
                    start.await();
                    for (int i = 0; i < 20_000; i++) {
                        registry.get((int) random.nextLong(1_000));
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : futures) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        // A policy is created only after a slot is reserved, and a slot is freed only after eviction,
        // so even the transient number of live policies never exceeds the bound.
        assertThat(maxLive.get()).isLessThanOrEqualTo(64);
        assertThat(registry.size()).isLessThanOrEqualTo(64);
        assertThat(live.get()).isEqualTo(registry.size());
    }

    @Test
    void sameKeyGivesTheSameInstanceAndConcurrentFirstCallsCreateOne() throws Exception {
        AtomicInteger created = new AtomicInteger();
        KeyedRegistry<String, Object> registry = KeyedRegistry.builder("one")
                .build(k -> {
                    created.incrementAndGet();
                    return new Object();
                });
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Object>> results = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                results.add(pool.submit(() -> {
                    start.await();
                    return registry.get("k");
                }));
            }
            start.countDown();
            Object first = results.get(0).get(60, TimeUnit.SECONDS);
            for (Future<Object> f : results) {
                assertThat(f.get(60, TimeUnit.SECONDS)).isSameAs(first);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(created).hasValue(1);
    }

    @Test
    void recentlyUsedKeysSurviveSpacePressure() {
        KeyedRegistry<String, Object> registry =
                KeyedRegistry.builder("clock").maxEntries(4).ticker(ticker).build(k -> new Object());
        Object hot = registry.get("hot");
        for (int i = 0; i < 100; i++) {
            registry.get("cold-" + i);
            assertThat(registry.get("hot")).isSameAs(hot);
        }
        assertThat(registry.size()).isEqualTo(4);
    }

    @Test
    void idleEntriesAreEvictedFirstAndByCleanUp() {
        List<String> evicted = new ArrayList<>();
        KeyedRegistry<String, Object> registry = KeyedRegistry.builder("idle")
                .maxEntries(100)
                .idleTimeout(Duration.ofMinutes(1))
                .ticker(ticker)
                .onEviction((k, v) -> evicted.add((String) k))
                .build(k -> new Object());
        registry.get("a");
        registry.get("b");
        ticker.advance(Duration.ofSeconds(50));
        registry.get("b");
        ticker.advance(Duration.ofSeconds(20));

        registry.cleanUp();

        assertThat(evicted).containsExactly("a");
        assertThat(registry.getIfPresent("a")).isEmpty();
        assertThat(registry.getIfPresent("b")).isPresent();
    }

    @Test
    void idleEntriesAreSweptAsNewKeysArrive() {
        KeyedRegistry<Integer, Object> registry = KeyedRegistry.builder("sweep")
                .maxEntries(10_000)
                .idleTimeout(Duration.ofSeconds(1))
                .ticker(ticker)
                .build(k -> new Object());
        for (int i = 0; i < 32; i++) {
            registry.get(i);
        }
        ticker.advance(Duration.ofSeconds(2));
        for (int i = 100; i < 100 + 64 * 4; i++) {
            registry.get(i);
        }
        assertThat(registry.evictionCount()).isEqualTo(32);
    }

    @Test
    void removeFreesASlot() {
        KeyedRegistry<String, Object> registry =
                KeyedRegistry.builder("rm").maxEntries(2).ticker(ticker).build(k -> new Object());
        registry.get("a");
        registry.get("b");
        assertThat(registry.remove("a")).isTrue();
        assertThat(registry.remove("a")).isFalse();
        registry.get("c");
        assertThat(registry.evictionCount()).isZero();
        assertThat(registry.size()).isEqualTo(2);
    }

    @Test
    void factoryFailureReleasesTheReservedSlot() {
        KeyedRegistry<String, Object> registry = KeyedRegistry.builder("failing")
                .maxEntries(1)
                .build(k -> {
                    if (k.equals("bad")) {
                        throw new IllegalStateException("no");
                    }
                    return new Object();
                });
        for (int i = 0; i < 5; i++) {
            assertThatThrownBy(() -> registry.get("bad")).isInstanceOf(IllegalStateException.class);
        }
        registry.get("good");
        assertThat(registry.size()).isEqualTo(1);
        assertThat(registry.evictionCount()).isZero();
    }

    @Test
    void everyFieldIsValidatedWithAClearMessage() {
        assertThatThrownBy(() -> KeyedRegistry.builder("r").maxEntries(0).build(k -> k))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessage("KeyedRegistry 'r': maxEntries must be > 0 but was 0");
        assertThatThrownBy(() -> KeyedRegistry.builder("r").idleTimeout(Duration.ZERO).build(k -> k))
                .hasMessage("KeyedRegistry 'r': idleTimeout must be > 0 but was PT0S");
        assertThatThrownBy(() -> KeyedRegistry.builder("r").idleTimeout(null).build(k -> k))
                .hasMessage("KeyedRegistry 'r': idleTimeout must be set (not null) but was null");
        assertThatThrownBy(() -> KeyedRegistry.builder("r").ticker(null).build(k -> k))
                .hasMessage("KeyedRegistry 'r': ticker must be set (not null) but was null");
        assertThatThrownBy(() -> KeyedRegistry.builder("r").build(null))
                .hasMessage("KeyedRegistry 'r': factory must be set (not null) but was null");
        assertThatThrownBy(() -> KeyedRegistry.builder(" ").build(k -> k))
                .hasMessage("KeyedRegistry: name must be a non-blank string but was ' '");
    }
}

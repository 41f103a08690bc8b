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
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A registry whose policies are their own entries ({@code buildEntries}): the same contract, no wrapper. */
class KeyedRegistryEntriesTest {
    private final ManualTicker ticker = new ManualTicker();

    /** A policy that is its own entry. */
    static final class Cell extends KeyedRegistry.Entry {
        final Object key;

        Cell(Object key) {
            this.key = key;
        }
    }

    @Test
    void theFactorysObjectIsWhatGetReturnsAndTheListenerReceives() {
        List<Cell> evicted = new ArrayList<>();
        KeyedRegistry<String, Cell> registry = KeyedRegistry.builder("cells").maxEntries(2).ticker(ticker)
                .onEviction((k, v) -> evicted.add((Cell) v))
                .buildEntries(Cell::new);
        Cell a = registry.get("a");
        assertThat(registry.get("a")).isSameAs(a);
        assertThat(registry.getIfPresent("a")).containsSame(a);
        registry.get("b");
        registry.get("c"); // evicts one of a, b
        assertThat(registry.size()).isEqualTo(2);
        assertThat(evicted).hasSize(1);
        assertThat(registry.getIfPresent((String) evicted.get(0).key)).isEmpty();
    }

    @Test
    void staysWithinItsBoundAfterManyDistinctKeys() {
        AtomicLong live = new AtomicLong();
        KeyedRegistry<Long, Cell> registry = KeyedRegistry.builder("tenants").maxEntries(1_000).ticker(ticker)
                .onEviction((k, v) -> live.decrementAndGet())
                .buildEntries(k -> {
                    live.incrementAndGet();
                    return new Cell(k);
                });
        for (long key = 0; key < 200_000; key++) {
            registry.get(key);
            if (registry.size() > 1_000 || live.get() > 1_000) {
                throw new AssertionError("bound exceeded at key " + key + ": size " + registry.size());
            }
        }
        assertThat(registry.size()).isEqualTo(1_000);
        assertThat(registry.evictionCount()).isEqualTo(199_000);
        assertThat(live.get()).isEqualTo(1_000);
    }

    @Test
    void aHotKeySurvivesAFloodOfColdOnes() {
        KeyedRegistry<String, Cell> registry =
                KeyedRegistry.builder("clock").maxEntries(4).ticker(ticker).buildEntries(Cell::new);
        Cell hot = registry.get("hot");
        for (int i = 0; i < 1_000; i++) {
            registry.get("cold-" + i);
            assertThat(registry.get("hot")).isSameAs(hot);
        }
    }

    @Test
    void idleEntriesAreEvictedByCleanUpAndAsKeysArrive() {
        List<Object> evicted = new ArrayList<>();
        KeyedRegistry<String, Cell> registry = KeyedRegistry.builder("idle").maxEntries(100)
                .idleTimeout(Duration.ofMinutes(1)).ticker(ticker)
                .onEviction((k, v) -> evicted.add(k))
                .buildEntries(Cell::new);
        registry.get("a");
        registry.get("b");
        ticker.advance(Duration.ofSeconds(50));
        registry.get("b");
        ticker.advance(Duration.ofSeconds(20));
        registry.cleanUp();
        assertThat(evicted).containsExactly("a");

        // A hit refreshes the last access at most every sixteenth of the idle timeout, never later.
        ticker.advance(Duration.ofSeconds(45));
        registry.get("b");
        ticker.advance(Duration.ofSeconds(59));
        registry.cleanUp();
        assertThat(evicted).containsExactly("a");
        ticker.advance(Duration.ofSeconds(2));
        registry.cleanUp();
        assertThat(evicted).containsExactly("a", "b");
    }

    @Test
    void boundHoldsUnderSixteenThreads() throws Exception {
        AtomicLong live = new AtomicLong();
        AtomicLong maxLive = new AtomicLong();
        KeyedRegistry<Integer, Cell> registry = KeyedRegistry.builder("hammered").maxEntries(64)
                .onEviction((k, v) -> live.decrementAndGet())
                .buildEntries(k -> {
                    maxLive.accumulateAndGet(live.incrementAndGet(), Math::max);
                    return new Cell(k);
                });
        ExecutorService pool = Executors.newFixedThreadPool(16);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> futures = new ArrayList<>();
        try {
            for (int t = 0; t < 16; t++) {
                int seed = t;
                futures.add(pool.submit(() -> {
                    RandomSource random = RandomSource.seeded(seed);
                    start.await();
                    for (int i = 0; i < 20_000; i++) {
                        int key = (int) random.nextLong(1_000);
                        assertThat(registry.get(key).key).isEqualTo(key);
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
        assertThat(maxLive.get()).isLessThanOrEqualTo(64);
        assertThat(live.get()).isEqualTo(registry.size());
    }

    @Test
    void buildEntriesValidatesLikeBuild() {
        assertThatThrownBy(() -> KeyedRegistry.builder("r").maxEntries(0).buildEntries(Cell::new))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessage("KeyedRegistry 'r': maxEntries must be > 0 but was 0");
        assertThatThrownBy(() -> KeyedRegistry.builder("r").buildEntries(null))
                .hasMessage("KeyedRegistry 'r': factory must be set (not null) but was null");
    }

    /** The hand restarts when the map grows its table, so it never holds the old tables alive. */
    @Test
    void theHandRestartsAtTheMapsTableGrowthThresholds() {
        assertThat(KeyedRegistry.nextResize(0)).isEqualTo(12);
        assertThat(KeyedRegistry.nextResize(11)).isEqualTo(12);
        assertThat(KeyedRegistry.nextResize(12)).isEqualTo(24);
        assertThat(KeyedRegistry.nextResize(786_431)).isEqualTo(786_432);
        assertThat(KeyedRegistry.nextResize(786_432)).isEqualTo(1_572_864);
        assertThat(KeyedRegistry.nextResize(Integer.MAX_VALUE)).isEqualTo(Integer.MAX_VALUE);
    }
}

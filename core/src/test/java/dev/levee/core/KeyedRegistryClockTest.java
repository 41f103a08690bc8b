package dev.levee.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Which entry a {@link KeyedRegistry} evicts, and when, on a manual ticker: the CLOCK hand's second
 * chance, idle entries first, the idle timeout to the nanosecond, the touch granularity (a sixteenth of
 * the idle timeout), the sweep as new keys arrive, and the hand's restart when the map grows its table.
 * Integer keys below the table size sit in the map's bins in key order, so the hand meets them in key
 * order.
 */
class KeyedRegistryClockTest {
    private final ManualTicker ticker = new ManualTicker(0);
    private final List<Integer> evicted = new ArrayList<>();

    private KeyedRegistry<Integer, Object> registry(int maxEntries, Duration idleTimeout) {
        return KeyedRegistry.builder("clock").maxEntries(maxEntries).idleTimeout(idleTimeout).ticker(ticker)
                .onEviction((k, v) -> evicted.add((Integer) k)).build(k -> new Object());
    }

    private static void getAll(KeyedRegistry<Integer, Object> registry, int fromInclusive, int toExclusive) {
        for (int key = fromInclusive; key < toExclusive; key++) {
            registry.get(key);
        }
    }

    @Test
    void theHandPassesOverEntriesUsedSinceItLastPassedAndClearsTheirBit() {
        KeyedRegistry<Integer, Object> registry = registry(4, Duration.ofMinutes(10));
        getAll(registry, 0, 4); // a new key is not yet "used": seen once, it is the first to go
        registry.get(0);
        registry.get(1);

        registry.get(4); // the hand passes 0 and 1 (clearing their bits) and takes 2
        assertThat(evicted).containsExactly(2);
        registry.get(5); // the hand moves on from where it stopped
        assertThat(evicted).containsExactly(2, 3);
        assertThat(registry.getIfPresent(0)).isPresent();
        assertThat(registry.getIfPresent(1)).isPresent();
        assertThat(registry.evictionCount()).isEqualTo(2);
    }

    @Test
    void whenEveryEntryWasUsedTheHandClearsThemAllAndTakesTheFirst() {
        KeyedRegistry<Integer, Object> registry = registry(3, Duration.ofMinutes(10));
        getAll(registry, 0, 3);
        getAll(registry, 0, 3); // all three used

        registry.get(3);

        assertThat(evicted).containsExactly(0);
        assertThat(registry.size()).isEqualTo(3);
    }

    @Test
    void anIdleEntryGoesBeforeUsedOnesEvenIfItWasUsed() {
        KeyedRegistry<Integer, Object> registry = registry(3, Duration.ofMinutes(1));
        registry.get(1);
        registry.get(1); // used, at 0
        ticker.advance(Duration.ofMinutes(2));
        registry.get(0);
        registry.get(0);
        registry.get(2);
        registry.get(2); // used, now

        registry.get(3); // the hand clears 0's bit, then finds 1 idle

        assertThat(evicted).containsExactly(1);
    }

    @Test
    void anEntryIsIdleOnlyOnceMoreThanTheIdleTimeoutHasPassed() {
        KeyedRegistry<Integer, Object> registry = registry(10, Duration.ofMinutes(1));
        ticker.advance(1_000);
        registry.get(7);

        ticker.advance(Duration.ofMinutes(1));
        registry.cleanUp();
        assertThat(evicted).as("idle for exactly the timeout: kept").isEmpty();

        ticker.advance(1);
        registry.cleanUp();
        assertThat(evicted).containsExactly(7);
        assertThat(registry.size()).isZero();
    }

    /**
     * A hit records its time only when the last recorded access is more than a sixteenth of the idle
     * timeout old (here 1 s of 16 s), so a hot key is not written on every decision: the idle clock of an
     * entry hit again within that sixteenth still runs from the earlier access.
     */
    @Test
    void aHitRecordsItsTimeOnlyOnceASixteenthOfTheIdleTimeoutHasPassed() {
        KeyedRegistry<Integer, Object> registry = registry(10, Duration.ofSeconds(16));
        long sixteenth = Duration.ofSeconds(1).toNanos();
        registry.get(1);
        registry.get(1); // used at 0 (the bit is the stamp's low bit: stamp 1)
        registry.get(2);
        registry.get(2);

        ticker.advance(sixteenth + 1); // 1 ns past the sixteenth after the stamp of 1: not more than it
        registry.get(1);
        ticker.advance(1);
        registry.get(2); // more than a sixteenth: recorded

        ticker.advance(Duration.ofSeconds(15)); // 16 s + 2 ns after the first access
        registry.cleanUp();

        assertThat(evicted).as("1's last recorded access is 0, 2's is 1 s later").containsExactly(1);
        assertThat(registry.getIfPresent(2)).isPresent();
    }

    /**
     * Every 64th new key sweeps the 16 entries under the hand for idle ones. The hand starts over when
     * the map has grown its table since the walk began (here from 64 to 128 entries), so the second sweep
     * looks at the first 16 keys again.
     */
    @Test
    void everySixtyFourthNewKeySweepsSixteenEntriesUnderTheHand() {
        KeyedRegistry<Integer, Object> registry = registry(10_000, Duration.ofSeconds(1));
        getAll(registry, 0, 64); // the 64th sweeps keys 0..15: none idle
        assertThat(evicted).isEmpty();
        ticker.advance(Duration.ofSeconds(2));

        getAll(registry, 64, 127);
        assertThat(evicted).as("no sweep before the 128th new key").isEmpty();
        registry.get(127);

        assertThat(evicted).containsExactlyElementsOf(IntStream.range(0, 16).boxed().toList());
        assertThat(registry.size()).isEqualTo(128 - 16);
    }

    /**
     * The hand began its walk at 64 entries; the map grows its table at 96, so at 96 entries the walk is
     * dropped and the next eviction starts from the first key (a kept walk would go on from key 16).
     */
    @Test
    void theHandStartsOverOnceTheMapReachesItsNextTableSize() {
        KeyedRegistry<Integer, Object> registry = registry(96, Duration.ofMinutes(10));
        getAll(registry, 0, 96);
        assertThat(registry.size()).isEqualTo(96);

        registry.get(96);

        assertThat(evicted).containsExactly(0);
    }

    @Test
    void accessorsAndAFactoryReturningNull() {
        KeyedRegistry<String, Object> registry = KeyedRegistry.builder("tenants").maxEntries(1).ticker(ticker)
                .build(k -> k.equals("none") ? null : new Object());
        assertThat(registry.name()).isEqualTo("tenants");
        assertThat(registry.maxEntries()).isEqualTo(1);

        assertThatThrownBy(() -> registry.get("none")).isInstanceOf(NullPointerException.class)
                .hasMessage("KeyedRegistry 'tenants': factory returned null for none");
        registry.get("a"); // the failed creation gave its slot back
        assertThat(registry.size()).isEqualTo(1);
        assertThat(registry.evictionCount()).isZero();
    }
}

package dev.levee.bulkhead;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.BulkheadFullException;
import dev.levee.core.InvalidConfigException;
import dev.levee.core.ManualTicker;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class KeyedBulkheadTest {
    private final ManualTicker ticker = new ManualTicker();
    private final BulkheadConfig perKey = BulkheadConfig.builder().maxConcurrentCalls(2).ticker(ticker).build();

    @Test
    void eachKeyHasItsOwnSlots() {
        KeyedBulkhead<String> keyed = KeyedBulkhead.of("tenants", KeyedBulkheadConfig.builder().perKey(perKey).build());
        Bulkhead a = keyed.forKey("a");
        assertThat(a.tryAcquire()).isTrue();
        assertThat(a.tryAcquire()).isTrue();
        assertThatThrownBy(() -> keyed.execute("a", () -> "x")).isInstanceOf(BulkheadFullException.class)
                .hasMessageContaining("tenants[a]");
        assertThat(keyed.execute("b", () -> "served")).isEqualTo("served");
        assertThat(keyed.forKey("a")).isSameAs(a);
        assertThat(a.name()).isEqualTo("tenants[a]");
        CompletableFuture<String> pending = new CompletableFuture<>();
        keyed.executeAsync("c", () -> pending);
        assertThat(keyed.forKey("c").activeCount()).isEqualTo(1);
        pending.complete("ok");
        assertThat(keyed.forKey("c").activeCount()).isZero();
    }

    @Test
    void theNumberOfKeysIsBounded() {
        KeyedBulkhead<Integer> keyed = KeyedBulkhead.of("k", KeyedBulkheadConfig.builder().perKey(perKey).maxEntries(10).build());
        for (int i = 0; i < 1_000; i++) {
            keyed.execute(i, () -> null);
            assertThat(keyed.size()).isLessThanOrEqualTo(10);
        }
        assertThat(keyed.evictionCount()).isEqualTo(990);
    }

    @Test
    void idleKeysAreEvicted() {
        KeyedBulkhead<String> keyed = KeyedBulkhead.of("k", KeyedBulkheadConfig.builder().perKey(perKey)
                .idleTimeout(Duration.ofMinutes(1)).build());
        keyed.execute("a", () -> null);
        ticker.advance(Duration.ofMinutes(2));
        keyed.cleanUp();
        assertThat(keyed.size()).isZero();
        assertThat(keyed.evictionCount()).isEqualTo(1);
    }

    @Test
    void anEvictedBulkheadWithCallsInsideIsReinstatedSoTheKeyCannotOverAdmit() {
        KeyedBulkhead<String> keyed = KeyedBulkhead.of("k", KeyedBulkheadConfig.builder().perKey(perKey).maxEntries(1).build());
        Bulkhead a = keyed.forKey("a");
        assertThat(a.tryAcquire()).isTrue();
        assertThat(a.tryAcquire()).isTrue();
        a.tryAcquire(); // one rejection
        keyed.forKey("b"); // evicts "a" while its two calls are inside
        assertThat(keyed.drainingCount()).isEqualTo(1);
        Bulkhead again = keyed.forKey("a"); // evicts "b" (idle, dropped), reinstates "a"
        assertThat(again).isSameAs(a);
        assertThat(keyed.reinstatedCount()).isEqualTo(1);
        assertThat(again.tryAcquire()).as("still full: no fresh quota next to the calls inside").isFalse();
        a.onSuccess(0);
        a.onSuccess(0);
        keyed.forKey("c"); // evicts "a", now idle of calls, so it is not kept
        keyed.forKey("d");
        assertThat(keyed.drainingCount()).isZero();
        assertThat(keyed.retiredRejectedCount()).isEqualTo(2);
    }

    @Test
    void drainedBulkheadsAreDroppedWhenNewKeysArrive() {
        KeyedBulkhead<String> keyed = KeyedBulkhead.of("k", KeyedBulkheadConfig.builder().perKey(perKey).maxEntries(1).build());
        Bulkhead a = keyed.forKey("a");
        a.tryAcquire();
        keyed.forKey("b");
        assertThat(keyed.drainingCount()).isEqualTo(1);
        a.onSuccess(0);
        keyed.forKey("c");
        assertThat(keyed.drainingCount()).isZero();
        assertThat(keyed.forKey("a")).isNotSameAs(a);
    }

    @Test
    void configBoundsAndDefaults() {
        KeyedBulkheadConfig c = KeyedBulkheadConfig.builder().perKey(perKey).build();
        assertThat(c.maxEntries()).isEqualTo(10_000);
        assertThat(c.idleTimeout()).isEqualTo(Duration.ofMinutes(10));
        assertThat(c.perKey()).isSameAs(perKey);
        assertThatThrownBy(() -> KeyedBulkheadConfig.builder().perKey(perKey).maxEntries(0).build())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessage("KeyedBulkhead: maxEntries must be in [1, 10000000] but was 0");
        assertThatThrownBy(() -> KeyedBulkheadConfig.builder().perKey(perKey).idleTimeout(Duration.ZERO).build())
                .hasMessage("KeyedBulkhead: idleTimeout must be > 0 but was PT0S");
        assertThatThrownBy(() -> KeyedBulkheadConfig.builder().perKey(null).build()).hasMessageContaining("perKey");
        assertThatThrownBy(() -> KeyedBulkhead.of(null, c)).isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("name");
        assertThatThrownBy(() -> KeyedBulkhead.of("k", null)).isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("config");
    }

    @Test
    void aKeyedCallReadsTheClockOnce() {
        java.util.concurrent.atomic.AtomicLong reads = new java.util.concurrent.atomic.AtomicLong();
        dev.levee.core.Ticker counting = () -> {
            reads.incrementAndGet();
            return ticker.read();
        };
        KeyedBulkhead<String> keyed = KeyedBulkhead.of("reads", KeyedBulkheadConfig.builder()
                .perKey(BulkheadConfig.builder().maxConcurrentCalls(2).ticker(counting).build()).build());
        keyed.execute("a", () -> "warm"); // creating the key's bulkhead may read the clock for its own set-up
        for (int i = 0; i < 3; i++) {
            long before = reads.get();
            assertThat(keyed.execute("a", () -> "ok")).isEqualTo("ok");
            assertThat(reads.get() - before).as("reads of one keyed call: the registry's; a grant reads none").isEqualTo(1);
        }
    }
}

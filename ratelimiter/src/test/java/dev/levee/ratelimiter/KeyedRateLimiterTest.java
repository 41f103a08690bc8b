package dev.levee.ratelimiter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.InvalidConfigException;
import dev.levee.core.ManualTicker;
import dev.levee.core.Ticker;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class KeyedRateLimiterTest {
    private final ManualTicker ticker = new ManualTicker(1_000L);

    private RateLimiterConfig config(String name, long limit) {
        return RateLimiterConfig.builder().rate(limit, Duration.ofSeconds(1)).ticker(ticker).sleeper(ticker).build();
    }

    @Test
    void aMillionDistinctKeysStayWithinTheEntryBound() {
        KeyedRateLimiter<Integer> keyed = KeyedRateLimiter.<Integer>builder("per-client")
                .defaultConfig(config("default", 5)).maxEntries(10_000).build();
        int maxSeen = 0;
        for (int key = 0; key < 1_000_000; key++) {
            assertThat(keyed.tryAcquire(key)).isTrue(); // a fresh key has its whole budget
            if ((key & 1023) == 0) {
                maxSeen = Math.max(maxSeen, keyed.size());
            }
        }
        assertThat(maxSeen).isLessThanOrEqualTo(10_000);
        assertThat(keyed.size()).isLessThanOrEqualTo(10_000);
        assertThat(keyed.evictionCount()).isGreaterThanOrEqualTo(990_000);
    }

    @Test
    void eachKeyHasItsOwnBudgetAndTierLimit() {
        KeyedRateLimiter<String> keyed = KeyedRateLimiter.<String>builder("per-tenant")
                .defaultConfig(config("free", 2))
                .tier("gold", config("gold", 5))
                .tierOf(tenant -> tenant.startsWith("gold-") ? "gold" : null)
                .build();
        assertThat(grants(keyed, "alice", 10)).isEqualTo(2);
        assertThat(grants(keyed, "bob", 10)).isEqualTo(2);
        assertThat(grants(keyed, "gold-carol", 10)).isEqualTo(5);
        assertThat(keyed.forKey("gold-carol").limit()).isEqualTo(5);
        assertThat(keyed.forKey("alice").name()).isEqualTo("per-tenant");
    }

    @Test
    void aKeyedDecisionReadsTheClockOnce() {
        AtomicLong reads = new AtomicLong();
        Ticker counting = () -> {
            reads.incrementAndGet();
            return ticker.read();
        };
        KeyedRateLimiter<String> keyed = KeyedRateLimiter.<String>builder("reads")
                .defaultConfig(RateLimiterConfig.builder().rate(100, Duration.ofSeconds(1)).ticker(counting).build())
                .build();
        keyed.tryAcquire("warm"); // creating the key's limiter may read the clock for its own set-up
        for (String key : new String[] {"warm", "warm", "warm"}) {
            long before = reads.get();
            keyed.tryAcquire(key);
            assertThat(reads.get() - before).as("reads of one decision on a known key").isEqualTo(1);
        }
        long before = reads.get();
        keyed.tryAcquire("warm", 1, new RateLimitDecision());
        assertThat(reads.get() - before).as("reads of the decision-filling form").isEqualTo(1);
    }

    @Test
    void aKeyFloodKeepsTheBoundAndTheHotKeysOwnLimits() {
        int bound = 1_000;
        KeyedRateLimiter<Integer> keyed = KeyedRateLimiter.<Integer>builder("flood")
                .defaultConfig(config("d", 3)).maxEntries(bound).build();
        int hot = -1; // a hot key used between every few flood keys: the CLOCK hand always finds it referenced
        assertThat(grants(keyed, hot, 2)).isEqualTo(2);
        int maxSize = 0;
        for (int key = 0; key < 200_000; key++) {
            keyed.tryAcquire(key);
            if (key % 8 == 0) {
                keyed.forKey(hot); // a hit: marks the hot key used, takes no permit
            }
            maxSize = Math.max(maxSize, keyed.size());
        }
        assertThat(maxSize).isLessThanOrEqualTo(bound);
        // The hot key kept its state through 200 turns of the flood: one permit left of 3, not a fresh budget.
        assertThat(grants(keyed, hot, 3)).isEqualTo(1);
    }

    @Test
    void idleKeysAreEvicted() {
        KeyedRateLimiter<String> keyed = KeyedRateLimiter.<String>builder("idle")
                .defaultConfig(config("d", 1)).idleTimeout(Duration.ofMinutes(1)).build();
        keyed.tryAcquire("a");
        keyed.tryAcquire("b");
        ticker.advance(Duration.ofMinutes(2));
        keyed.cleanUp();
        assertThat(keyed.size()).isZero();
    }

    @Test
    void theDecisionFormReportsPerKey() {
        KeyedRateLimiter<String> keyed = KeyedRateLimiter.<String>builder("decide")
                .defaultConfig(config("d", 1)).build();
        RateLimitDecision d = new RateLimitDecision();
        assertThat(keyed.tryAcquire("k", 1, d)).isTrue();
        assertThat(keyed.tryAcquire("k", 1, d)).isFalse();
        assertThat(d.retryAfterNanos()).isEqualTo(Duration.ofSeconds(1).toNanos());
    }

    @Test
    void builderBounds() {
        assertThatThrownBy(() -> KeyedRateLimiter.builder("k").build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("defaultConfig");
        assertThatThrownBy(() -> KeyedRateLimiter.builder("k").defaultConfig(config("d", 1)).maxEntries(0).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("maxEntries must be > 0 but was 0");
        assertThatThrownBy(() -> KeyedRateLimiter.builder("k").defaultConfig(config("d", 1))
                        .idleTimeout(Duration.ZERO).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("idleTimeout");
        assertThatThrownBy(() -> KeyedRateLimiter.builder("k").defaultConfig(config("d", 1))
                        .tier("gold", config("g", 2)).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("tierOf");
        assertThatThrownBy(() -> KeyedRateLimiter.builder(" ").defaultConfig(config("d", 1)).build())
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("name");
    }

    private static <K> int grants(KeyedRateLimiter<K> keyed, K key, int tries) {
        int n = 0;
        for (int i = 0; i < tries; i++) {
            if (keyed.tryAcquire(key)) {
                n++;
            }
        }
        return n;
    }

    @Test
    void aNullTierIsAnInvalidConfigNamingThePolicy() {
        assertThatThrownBy(() -> KeyedRateLimiter.<String>builder("per-tenant").tier(null, config("x", 1)))
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("KeyedRateLimiter 'per-tenant'")
                .hasMessageContaining("tier");
        assertThatThrownBy(() -> KeyedRateLimiter.<String>builder("per-tenant").tier("gold", null))
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("tier config");
    }

    @Test
    void forKeyReturnsTheKeysOwnLimiter() {
        KeyedRateLimiter<String> keyed = KeyedRateLimiter.<String>builder("k").defaultConfig(config("d", 1)).build();
        assertThat(keyed.forKey("a")).isSameAs(keyed.forKey("a"));
        assertThat(keyed.forKey("a").tryAcquire(1, ticker.read())).isTrue();
        assertThat(keyed.tryAcquire("a")).isFalse();
        assertThat(keyed.tryAcquire("b")).isTrue();
    }
}

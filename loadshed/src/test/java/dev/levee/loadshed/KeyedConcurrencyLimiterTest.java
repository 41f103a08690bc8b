package dev.levee.loadshed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.InvalidConfigException;
import dev.levee.core.ManualTicker;
import dev.levee.core.ShedException;
import dev.levee.loadshed.limit.FixedLimit;
import org.junit.jupiter.api.Test;

class KeyedConcurrencyLimiterTest {
    private final ManualTicker ticker = new ManualTicker();
    private final ConcurrencyLimiterConfig perKey = ConcurrencyLimiterConfig.builder()
            .algorithm(() -> FixedLimit.of(2)).ticker(ticker).build();

    @Test
    void eachKeyHasItsOwnLimit() {
        KeyedConcurrencyLimiter<String> l = KeyedConcurrencyLimiter.of("tenants", perKey, 100);
        ConcurrencyLimiter a = l.forKey("a");
        assertThat(l.forKey("a")).isSameAs(a);
        assertThat(a.name()).isEqualTo("tenants[a]");
        assertThat(a.tryAcquire(0)).isTrue();
        assertThat(a.tryAcquire(0)).isTrue();
        assertThat(a.tryAcquire(0)).isFalse();
        assertThat(l.forKey("b").tryAcquire(0)).as("tenant b is not shed for tenant a").isTrue();
        assertThatThrownBy(() -> l.execute("a", () -> "x")).isInstanceOf(ShedException.class);
        assertThat(l.execute("c", () -> "ok")).isEqualTo("ok");
    }

    @Test
    void atMostMaxEntriesLimitersExist() {
        KeyedConcurrencyLimiter<Integer> l = KeyedConcurrencyLimiter.of("tenants", perKey, 3);
        for (int i = 0; i < 100; i++) {
            l.forKey(i);
            assertThat(l.size()).isLessThanOrEqualTo(3);
        }
        assertThat(l.maxEntries()).isEqualTo(3);
        assertThat(l.evictionCount()).isEqualTo(97);
    }

    @Test
    void boundsAreChecked() {
        assertThatThrownBy(() -> KeyedConcurrencyLimiter.of("t", perKey, 0)).isInstanceOf(InvalidConfigException.class)
                .hasMessage("KeyedConcurrencyLimiter 't': maxEntries must be > 0 but was 0");
        assertThatThrownBy(() -> KeyedConcurrencyLimiter.of("t", null, 1)).isInstanceOf(InvalidConfigException.class)
                .hasMessage("KeyedConcurrencyLimiter 't': perKey must be set (not null) but was null");
        assertThatThrownBy(() -> KeyedConcurrencyLimiter.of("t", perKey, 1, java.time.Duration.ZERO))
                .hasMessage("KeyedConcurrencyLimiter 't': idleTimeout must be > 0 but was PT0S");
    }

    @Test
    void aKeyedCallReadsTheClockOnceOnTheWayInAndOnceOnTheWayOut() {
        java.util.concurrent.atomic.AtomicLong reads = new java.util.concurrent.atomic.AtomicLong();
        dev.levee.core.Ticker counting = () -> {
            reads.incrementAndGet();
            return ticker.read();
        };
        KeyedConcurrencyLimiter<String> l = KeyedConcurrencyLimiter.of("reads",
                ConcurrencyLimiterConfig.builder().algorithm(() -> FixedLimit.of(2)).ticker(counting).build(), 10);
        l.execute("a", () -> "warm"); // creating the key's limiter may read the clock for its own set-up
        long before = reads.get();
        assertThat(l.execute("a", () -> {
            assertThat(reads.get() - before).as("reads on the way in: registry and limiter share one").isEqualTo(1);
            return "ok";
        })).isEqualTo("ok");
        assertThat(reads.get() - before).as("reads of one keyed call, in and out").isEqualTo(2);
        assertThat(l.forKey("a").inflight()).isZero();
        IllegalStateException boom = new IllegalStateException("boom");
        assertThatThrownBy(() -> l.execute("a", () -> {
            throw boom;
        })).isSameAs(boom);
        assertThat(l.forKey("a").inflight()).isZero();
    }
}

package dev.levee.redis.idempotency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.InvalidConfigException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class RedisIdempotencyStoreConfigTest {

    @Test
    void defaultsAreTheConstants() {
        RedisIdempotencyStoreConfig c = RedisIdempotencyStoreConfig.defaults();
        assertThat(c.keyPrefix()).isEqualTo(RedisIdempotencyStoreConfig.DEFAULT_KEY_PREFIX).isEqualTo("levee:idem:");
        assertThat(c.callTimeoutNanos()).isEqualTo(RedisIdempotencyStoreConfig.DEFAULT_CALL_TIMEOUT.toNanos());
        assertThat(c.maxResponseBytes()).isEqualTo(RedisIdempotencyStoreConfig.DEFAULT_MAX_RESPONSE_BYTES).isEqualTo(1 << 20);
        assertThat(c.storeBreaker()).isSameAs(RedisIdempotencyStoreConfig.DEFAULT_STORE_BREAKER);
        assertThat(c.toBuilder().build().toString()).isEqualTo(c.toString());
    }

    @Test
    void keyPrefixBounds() {
        assertThat(RedisIdempotencyStoreConfig.builder().keyPrefix("").build().keyPrefix()).isEmpty();
        assertThat(RedisIdempotencyStoreConfig.builder().keyPrefix("p".repeat(200)).build().keyPrefix()).hasSize(200);
        refused(b -> b.keyPrefix("p".repeat(201)), "keyPrefix", "at most 200 characters");
        refused(b -> b.keyPrefix(null), "keyPrefix", "null");
    }

    @Test
    void callTimeoutBounds() {
        assertThat(RedisIdempotencyStoreConfig.builder().callTimeout(Duration.ofMillis(1)).build().callTimeoutNanos())
                .isEqualTo(1_000_000L);
        assertThat(RedisIdempotencyStoreConfig.builder().callTimeout(Duration.ofSeconds(60)).build().callTimeoutNanos())
                .isEqualTo(60_000_000_000L);
        refused(b -> b.callTimeout(Duration.ofNanos(999_999)), "callTimeout", "PT0.000999999S");
        refused(b -> b.callTimeout(Duration.ofSeconds(61)), "callTimeout", "PT1M1S");
        refused(b -> b.callTimeout(Duration.ZERO), "callTimeout", "PT0S");
        refused(b -> b.callTimeout(null), "callTimeout", "null");
    }

    @Test
    void maxResponseBytesBounds() {
        assertThat(RedisIdempotencyStoreConfig.builder().maxResponseBytes(64).build().maxResponseBytes()).isEqualTo(64);
        assertThat(RedisIdempotencyStoreConfig.builder().maxResponseBytes(512 << 20).build().maxResponseBytes())
                .isEqualTo(512 << 20);
        refused(b -> b.maxResponseBytes(63), "maxResponseBytes", "63");
        refused(b -> b.maxResponseBytes((512 << 20) + 1), "maxResponseBytes", Integer.toString((512 << 20) + 1));
        refused(b -> b.maxResponseBytes(0), "maxResponseBytes", "0");
    }

    @Test
    void storeBreakerNotNull() {
        refused(b -> b.storeBreaker(null), "storeBreaker", "null");
    }

    private interface Change {
        void apply(RedisIdempotencyStoreConfig.Builder b);
    }

    private static void refused(Change change, String field, String value) {
        RedisIdempotencyStoreConfig.Builder b = RedisIdempotencyStoreConfig.builder();
        change.apply(b);
        assertThatThrownBy(b::build).isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("RedisIdempotencyStore")
                .hasMessageContaining(field)
                .hasMessageContaining(value);
    }
}

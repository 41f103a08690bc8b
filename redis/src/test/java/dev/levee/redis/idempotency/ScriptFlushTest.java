package dev.levee.redis.idempotency;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.idempotency.ClaimResult;
import dev.levee.idempotency.StoredResponse;
import dev.levee.testing.Concurrently;
import io.lettuce.core.api.StatefulRedisConnection;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@code SCRIPT FLUSH} in the middle of a load: every claim, complete and release still answers right
 * (the runner falls back to {@code EVAL}, which reloads the script), and the reloads are counted.
 */
class ScriptFlushTest extends IdempotencyRedisSupport {
    private static final Duration LEASE = Duration.ofSeconds(60);
    private static final Duration TTL = Duration.ofHours(1);

    @Test
    void scriptFlushMidLoad() throws Exception {
        try (StatefulRedisConnection<byte[], byte[]> bytes = connectBytes();
                StatefulRedisConnection<String, String> admin = connect()) {
            // A generous timeout: this test is about answers, not speed, on a shared 2-core machine.
            RedisIdempotencyStore store = RedisIdempotencyStore.of(unique("flush"),
                    RedisIdempotencyStoreConfig.builder().callTimeout(Duration.ofSeconds(10)).build(), bytes);
            int threads = 8;
            int keysPerThread = 100;
            AtomicInteger flushes = new AtomicInteger();
            Concurrently.run(threads, thread -> {
                for (int i = 0; i < keysPerThread; i++) {
                    if (thread == 0 && i % 5 == 0) {
                        admin.sync().scriptFlush(); // while the other threads are mid-sequence
                        flushes.incrementAndGet();
                    }
                    String key = "flush-" + thread + "-" + i;
                    StoredResponse response = StoredResponse.of(200, Map.of("n", List.of(key)),
                            key.getBytes(StandardCharsets.UTF_8));
                    assertThat(store.claim(key, "fp", "owner", LEASE)).isEqualTo(new ClaimResult.Claimed(false));
                    assertThat(store.claim(key, "fp", "dup", LEASE)).isInstanceOf(ClaimResult.InProgress.class);
                    if (i % 3 == 0) {
                        assertThat(store.release(key, "owner")).isTrue();
                        assertThat(store.claim(key, "fp", "retry", LEASE)).isEqualTo(new ClaimResult.Claimed(false));
                        assertThat(store.complete(key, "retry", response, TTL)).isTrue();
                    } else {
                        assertThat(store.complete(key, "dup", response, TTL)).isFalse();
                        assertThat(store.complete(key, "owner", response, TTL)).isTrue();
                    }
                    assertThat(store.claim(key, "fp", "late", LEASE)).isEqualTo(new ClaimResult.Completed("fp", response));
                }
            });
            assertThat(flushes.get()).isEqualTo(keysPerThread / 5);
            assertThat(store.metrics().scriptReloads()).as("NOSCRIPT answered by EVAL").isPositive();
            assertThat(store.metrics().storeErrors()).isZero();
            assertThat(store.storeAvailable()).isTrue();
        }
    }
}

package dev.levee.redis.idempotency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.levee.circuitbreaker.CircuitState;
import dev.levee.core.ManualTicker;
import dev.levee.core.Ticker;
import dev.levee.idempotency.ClaimResult;
import dev.levee.idempotency.IdempotencyStoreException;
import dev.levee.idempotency.StoredResponse;
import dev.levee.redis.RedisServer;
import dev.levee.redis.RedisTestSupport;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.resource.ClientResources;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * Redis down: killed (SIGKILL), or frozen (SIGSTOP, so the connection stays open and only the call
 * timeout ends a call). Every call throws {@link IdempotencyStoreException} within the call timeout
 * (plus 10 s of scheduling slack for a loaded 2-core machine; without the timeout a call would wait for Lettuce's
 * own 60 s), the breaker opens after its failures and then refuses at once, the switch is one event each
 * way, and after a restart the store answers again once the breaker's probe interval has passed (the
 * breaker runs on a manual ticker, so that is one {@code advance}).
 */
class StoreDownTest {
    private static final Duration TIMEOUT = Duration.ofMillis(500);
    private static final long SLACK_NANOS = Duration.ofSeconds(10).toNanos();
    private static final Duration LEASE = Duration.ofSeconds(60);
    private static final Ticker REAL = Ticker.system();

    @Test
    void killedThenRestarted() throws Exception {
        try (RedisServer server = RedisServer.start()) {
            ClientResources resources = RedisTestSupport.newResources();
            RedisClient client = RedisTestSupport.newClient(resources, server.uri());
            try (StatefulRedisConnection<byte[], byte[]> bytes = client.connect(ByteArrayCodec.INSTANCE)) {
                ManualTicker clock = new ManualTicker();
                RedisIdempotencyStore store = store(bytes, clock);
                List<RedisIdempotencyStoreEvent> events = new CopyOnWriteArrayList<>();
                store.onEvent(events::add);
                assertThat(store.claim("before", "fp", "o", LEASE)).isInstanceOf(ClaimResult.Claimed.class);

                server.kill();
                for (int i = 0; i < 10; i++) {
                    long start = REAL.read();
                    int n = i;
                    assertThatThrownBy(() -> store.claim("during-" + n, "fp", "o", LEASE))
                            .isInstanceOf(IdempotencyStoreException.class)
                            .hasMessageContaining("RedisIdempotencyStore");
                    assertThat(REAL.read() - start).isLessThan(TIMEOUT.toNanos() + SLACK_NANOS);
                }
                assertThatThrownBy(() -> store.complete("before", "o", StoredResponse.of(200, Map.of(), new byte[0]), LEASE)).isInstanceOf(IdempotencyStoreException.class);
                assertThatThrownBy(() -> store.release("before", "o")).isInstanceOf(IdempotencyStoreException.class);
                assertThat(store.storeBreaker().state()).isEqualTo(CircuitState.OPEN);
                assertThat(store.storeAvailable()).isFalse();
                assertThat(store.metrics().storeErrors()).isEqualTo(12);
                assertThat(events).hasSize(1).first().isInstanceOf(RedisIdempotencyStoreEvent.OutageBegan.class);

                server.restart();
                // Each attempt first lets the breaker's probe interval pass: a probe that fails while the
                // client is still reconnecting opens the breaker again.
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20)).ignoreExceptions()
                        .until(() -> {
                            clock.advance(Duration.ofSeconds(1));
                            return store.claim("after", "fp", "o", LEASE) instanceof ClaimResult.Claimed;
                        });
                assertThat(store.storeAvailable()).isTrue();
                assertThat(store.storeBreaker().state()).isEqualTo(CircuitState.CLOSED);
                assertThat(events).hasSize(2).last().isInstanceOf(RedisIdempotencyStoreEvent.OutageEnded.class);
            } finally {
                client.shutdown(0, 2, TimeUnit.SECONDS);
                resources.shutdown(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void frozenServerTimesOutWithinTheCallTimeout() throws Exception {
        try (RedisServer server = RedisServer.start()) {
            ClientResources resources = RedisTestSupport.newResources();
            RedisClient client = RedisTestSupport.newClient(resources, server.uri());
            try (StatefulRedisConnection<byte[], byte[]> bytes = client.connect(ByteArrayCodec.INSTANCE)) {
                ManualTicker clock = new ManualTicker();
                RedisIdempotencyStore store = store(bytes, clock);
                store.claim("warm", "fp", "o", LEASE);
                server.signal("STOP");
                try {
                    for (int i = 0; i < 3; i++) {
                        long start = REAL.read();
                        int n = i;
                        assertThatThrownBy(() -> store.claim("frozen-" + n, "fp", "o", LEASE))
                                .isInstanceOf(IdempotencyStoreException.class)
                                .hasRootCauseInstanceOf(TimeoutException.class);
                        long took = REAL.read() - start;
                        assertThat(took).isGreaterThanOrEqualTo(TIMEOUT.toNanos()).isLessThan(TIMEOUT.toNanos() + SLACK_NANOS);
                    }
                    assertThat(store.storeBreaker().state()).isEqualTo(CircuitState.OPEN);
                    // The open breaker answers without a round trip (the server is still frozen).
                    assertThatThrownBy(() -> store.claim("refused", "fp", "o", LEASE))
                            .isInstanceOf(IdempotencyStoreException.class).hasMessageContaining("circuit breaker");
                } finally {
                    server.signal("CONT");
                }
            } finally {
                client.shutdown(0, 2, TimeUnit.SECONDS);
                resources.shutdown(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
            }
        }
    }

    private static RedisIdempotencyStore store(StatefulRedisConnection<byte[], byte[]> bytes, ManualTicker clock) {
        return RedisIdempotencyStore.of("down", RedisIdempotencyStoreConfig.builder()
                .callTimeout(TIMEOUT)
                .storeBreaker(RedisIdempotencyStoreConfig.DEFAULT_STORE_BREAKER.toBuilder()
                        .waitDurationInOpen(Duration.ofSeconds(1)).ticker(clock).build())
                .build(), bytes);
    }
}

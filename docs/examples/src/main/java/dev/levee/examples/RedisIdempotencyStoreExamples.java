package dev.levee.examples;

import dev.levee.idempotency.IdempotencyGuard;
import dev.levee.idempotency.IdempotencyGuardConfig;
import dev.levee.redis.idempotency.RedisIdempotencyStore;
import dev.levee.redis.idempotency.RedisIdempotencyStoreConfig;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import java.time.Duration;

/** The examples of the "Idempotency store" section of docs/redis.md. */
public final class RedisIdempotencyStoreExamples {
    private RedisIdempotencyStoreExamples() {}

    /**
     * The payments service's store config: its own key prefix, and a call timeout well under the
     * request's deadline.
     *
     * @return the config
     */
    public static RedisIdempotencyStoreConfig paymentsConfig() {
        return RedisIdempotencyStoreConfig.builder()
                .keyPrefix("payments:idem:")
                .callTimeout(Duration.ofMillis(50))
                .build();
    }

    /**
     * A {@code byte[]} connection on a client that refuses commands at once while disconnected.
     *
     * @param uri e.g. {@code redis://redis.internal:6379}
     * @return the client (the application owns it and shuts it down)
     */
    public static RedisClient client(String uri) {
        RedisClient client = RedisClient.create(uri);
        client.setOptions(ClientOptions.builder()
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .build());
        return client;
    }

    /**
     * The store on the application's {@code byte[]} connection, for the idempotency guard.
     *
     * @param client the application's client
     * @return the store (its connection stays the application's)
     */
    public static RedisIdempotencyStore paymentsStore(RedisClient client) {
        StatefulRedisConnection<byte[], byte[]> connection = client.connect(ByteArrayCodec.INSTANCE);
        return RedisIdempotencyStore.of("payments", paymentsConfig(), connection);
    }

    /**
     * The charges guard of one service instance, on the shared store: every instance's guard sees the
     * same records, so a retry that reaches another instance is replayed, not executed again.
     *
     * @param store the shared store
     * @return the guard
     */
    public static IdempotencyGuard chargesGuard(RedisIdempotencyStore store) {
        return IdempotencyGuard.of("charges", IdempotencyGuardConfig.builder().store(store).build());
    }
}

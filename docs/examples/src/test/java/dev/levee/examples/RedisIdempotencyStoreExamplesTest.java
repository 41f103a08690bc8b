package dev.levee.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.redis.idempotency.RedisIdempotencyStore;
import dev.levee.redis.idempotency.RedisIdempotencyStoreConfig;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import java.lang.reflect.Proxy;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The Redis idempotency store examples build what the page says (the store itself is tested against a
 * real redis-server in the redis module; this module starts none).
 */
class RedisIdempotencyStoreExamplesTest {

    @Test
    void thePaymentsConfigIsTheOneOnThePage() {
        RedisIdempotencyStoreConfig config = RedisIdempotencyStoreExamples.paymentsConfig();
        assertThat(config.keyPrefix()).isEqualTo("payments:idem:");
        assertThat(config.callTimeoutNanos()).isEqualTo(50_000_000L);
        assertThat(config.maxResponseBytes()).isEqualTo(RedisIdempotencyStoreConfig.DEFAULT_MAX_RESPONSE_BYTES);
    }

    @Test
    // The proxy is made for exactly this interface: the cast cannot fail.
    @SuppressWarnings("unchecked")
    void theGuardUsesTheSharedStore() {
        // No server: building the store and the guard must send no command.
        RedisScriptingAsyncCommands<byte[], byte[]> none = (RedisScriptingAsyncCommands<byte[], byte[]>) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {RedisScriptingAsyncCommands.class}, (proxy, method, args) -> {
                    throw new AssertionError("no command expected: " + method.getName());
                });
        RedisIdempotencyStore store = RedisIdempotencyStore.of("payments", RedisIdempotencyStoreExamples.paymentsConfig(), none);
        assertThat(RedisIdempotencyStoreExamples.chargesGuard(store).config().store()).isSameAs(store);
    }

    @Test
    void theClientRefusesCommandsWhileDisconnected() {
        RedisClient client = RedisIdempotencyStoreExamples.client("redis://127.0.0.1:1");
        try {
            assertThat(client.getOptions().getDisconnectedBehavior()).isEqualTo(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS);
        } finally {
            client.shutdown(0, 1, TimeUnit.SECONDS);
        }
    }
}

package dev.levee.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.redis.idempotency.RedisIdempotencyStoreConfig;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
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
    void theClientRefusesCommandsWhileDisconnected() {
        RedisClient client = RedisIdempotencyStoreExamples.client("redis://127.0.0.1:1");
        try {
            assertThat(client.getOptions().getDisconnectedBehavior()).isEqualTo(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS);
        } finally {
            client.shutdown(0, 1, TimeUnit.SECONDS);
        }
    }
}

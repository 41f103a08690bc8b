package dev.levee.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.redis.ratelimiter.OutagePolicy;
import dev.levee.redis.ratelimiter.RedisRateLimiterConfig;
import io.lettuce.core.RedisClient;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The Redis examples build what the page says (the limiter itself is tested against a real
 * redis-server in the redis module; this module starts none).
 */
class RedisRateLimiterExamplesTest {

    @Test
    void theSearchConfigIsTheOneOnThePage() {
        RedisRateLimiterConfig config = RedisRateLimiterExamples.searchConfig();
        assertThat(config.rate().limit()).isEqualTo(1_000);
        assertThat(config.outagePolicy()).isEqualTo(OutagePolicy.LOCAL_FALLBACK);
        assertThat(config.expectedInstances()).isEqualTo(8);
        assertThat(config.callTimeoutNanos()).isEqualTo(50_000_000L);
    }

    @Test
    void theClientRefusesCommandsWhileDisconnected() {
        RedisClient client = RedisRateLimiterExamples.client("redis://127.0.0.1:1");
        try {
            assertThat(client.getOptions().getDisconnectedBehavior())
                    .isEqualTo(io.lettuce.core.ClientOptions.DisconnectedBehavior.REJECT_COMMANDS);
        } finally {
            client.shutdown(0, 1, TimeUnit.SECONDS);
        }
    }
}

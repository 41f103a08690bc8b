package dev.levee.redis.ratelimiter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.levee.ratelimiter.RateLimitAlgorithm;
import dev.levee.ratelimiter.RateLimiterConfig;
import dev.levee.redis.RedisTestSupport;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * No key leak: every key carries a TTL no longer than the time its state matters, and the server's
 * own {@code DBSIZE} reaches 0 once the TTLs have run out (this class has its own server).
 */
class KeyExpiryTest extends RedisTestSupport {

    @Test
    void everyKeyHasATtlBoundedByItsStateAndExpires() {
        try (StatefulRedisConnection<String, String> c = connect()) {
            RedisCommands<String, String> redis = c.sync();
            redis.flushall();
            // 10 per second: GCRA and the bucket are idle/full again within 1 s of the last grant; a
            // fixed window ends within 1 s; a sliding window's counts matter until the end of the next.
            long[] bounds = {1_001, 1_001, 2_001, 1_001};
            RateLimitAlgorithm[] algorithms = {RateLimitAlgorithm.GCRA, RateLimitAlgorithm.TOKEN_BUCKET,
                RateLimitAlgorithm.SLIDING_WINDOW_COUNTER, RateLimitAlgorithm.FIXED_WINDOW};
            for (int i = 0; i < algorithms.length; i++) {
                RedisRateLimiter limiter = RedisRateLimiter.of(unique("ttl"), RedisRateLimiterConfig.builder()
                        .rate(RateLimiterConfig.builder().algorithm(algorithms[i]).rate(10, Duration.ofSeconds(1)).build())
                        .outagePolicy(OutagePolicy.FAIL_CLOSED)
                        .callTimeout(Duration.ofSeconds(10))
                        .build(), c);
                assertThat(limiter.availablePermits()).as("a peek").isPositive();
                assertThat(redis.exists(limiter.key())).as("a peek writes nothing").isZero();
                assertThat(limiter.tryAcquire(3)).isTrue();
                long pttl = redis.pttl(limiter.key());
                assertThat(pttl).as(algorithms[i] + " PTTL of " + limiter.key()).isBetween(1L, bounds[i]);
                assertThat(limiter.key()).startsWith("levee:rl:{ttl-").endsWith("}:" + RedisScriptNames.suffix(algorithms[i]));
            }
            assertThat(redis.dbsize()).isEqualTo(4);
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> redis.dbsize() == 0);
        }
    }
}

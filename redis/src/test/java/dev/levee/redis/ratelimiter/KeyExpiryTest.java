package dev.levee.redis.ratelimiter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.levee.ratelimiter.RateLimitAlgorithm;
import dev.levee.ratelimiter.RateLimiterConfig;
import dev.levee.redis.RedisTestSupport;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * No key leak: every key carries a TTL no longer than the time its state matters, and the server's
 * own {@code DBSIZE} reaches 0 once the TTLs have run out (this class has its own server).
 */
class KeyExpiryTest extends RedisTestSupport {
    private static final long PERIOD_MICROS = 1_000_000L;

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
            List<String> made = new ArrayList<>();
            for (int i = 0; i < algorithms.length; i++) {
                RedisRateLimiter limiter = RedisRateLimiter.of(unique("ttl"), RedisRateLimiterConfig.builder()
                        .rate(RateLimiterConfig.builder().algorithm(algorithms[i]).rate(10, Duration.ofSeconds(1)).build())
                        .outagePolicy(OutagePolicy.FAIL_CLOSED)
                        .callTimeout(Duration.ofSeconds(10))
                        .build(), c);
                assertThat(limiter.availablePermits()).as("a peek").isPositive();
                assertThat(redis.exists(limiter.key())).as("a peek writes nothing").isZero();
                if (algorithms[i] == RateLimitAlgorithm.FIXED_WINDOW) {
                    // A fixed window ends on the server's second boundary, and so does its key: a decision in
                    // the window's last milliseconds leaves a key that expires before PTTL reads it. Shift
                    // the server's clock (for this limiter only) so the decision lands 50 ms into a window.
                    List<String> time = redis.time();
                    long micros = Long.parseLong(time.get(0)) * 1_000_000L + Long.parseLong(time.get(1));
                    limiter.shiftServerClock(PERIOD_MICROS - micros % PERIOD_MICROS + 50_000L);
                }
                // 9 of 10: GCRA and the bucket stay non-idle ~900 ms, so PTTL reads the key however late
                // this thread runs within that time.
                assertThat(limiter.tryAcquire(9)).isTrue();
                long pttl = redis.pttl(limiter.key());
                assertThat(pttl).as(algorithms[i] + " PTTL of " + limiter.key()).isBetween(1L, bounds[i]);
                assertThat(limiter.key()).startsWith("levee:rl:{ttl-").endsWith("}:" + RedisScriptNames.suffix(algorithms[i]));
                made.add(limiter.key());
                // Nothing but the limiters' own keys (an earlier one may already have expired: a slow
                // run must not turn the expiry this test wants into a failure).
                assertThat(redis.keys("*")).as("keys on the server").isSubsetOf(made);
            }
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50)).until(() -> redis.dbsize() == 0);
        }
    }
}

package dev.levee.redis.ratelimiter;

import dev.levee.redis.RedisTestSupport;
import dev.levee.core.Gate;
import dev.levee.core.ManualTicker;
import dev.levee.ratelimiter.RateLimitAlgorithm;
import dev.levee.ratelimiter.RateLimiterConfig;
import dev.levee.testing.GateContract;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;

/**
 * Every Redis algorithm passes the shared {@link GateContract} against a real server: 5 permits per
 * 30 days (so the server's clock cannot refill anything during a test), a fresh key per gate. The
 * success path goes to Redis, so it does not claim to be allocation-free.
 */
class RedisRateLimiterContractTest extends RedisTestSupport {
    private static final int LIMIT = 5;
    private static StatefulRedisConnection<String, String> connection;

    @BeforeAll
    static void openConnection() {
        connection = connect();
    }

    @AfterAll
    static void closeConnection() {
        connection.close();
    }

    abstract static class AlgorithmContract extends GateContract {
        abstract RateLimitAlgorithm algorithm();

        @Override
        protected Gate newGate(ManualTicker ticker) {
            return RedisRateLimiter.of(unique("contract-" + algorithm()), RedisRateLimiterConfig.builder()
                    .rate(RateLimiterConfig.builder().algorithm(algorithm()).rate(LIMIT, Duration.ofDays(30))
                            .ticker(ticker).sleeper(ticker).build())
                    .outagePolicy(OutagePolicy.FAIL_CLOSED)
                    .callTimeout(Duration.ofSeconds(10))
                    .build(), connection);
        }

        @Override
        protected int permitsAtOnce() {
            return LIMIT;
        }

        @Override
        protected boolean completionReturnsPermit() {
            return false; // a rate limiter's permit is spent, not returned
        }
    }

    @Nested
    class Gcra extends AlgorithmContract {
        @Override
        RateLimitAlgorithm algorithm() {
            return RateLimitAlgorithm.GCRA;
        }
    }

    @Nested
    class TokenBucket extends AlgorithmContract {
        @Override
        RateLimitAlgorithm algorithm() {
            return RateLimitAlgorithm.TOKEN_BUCKET;
        }
    }

    @Nested
    class SlidingWindowCounter extends AlgorithmContract {
        @Override
        RateLimitAlgorithm algorithm() {
            return RateLimitAlgorithm.SLIDING_WINDOW_COUNTER;
        }
    }

    @Nested
    class FixedWindow extends AlgorithmContract {
        @Override
        RateLimitAlgorithm algorithm() {
            return RateLimitAlgorithm.FIXED_WINDOW;
        }
    }
}

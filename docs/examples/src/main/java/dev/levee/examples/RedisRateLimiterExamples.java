package dev.levee.examples;

import dev.levee.ratelimiter.RateLimitAlgorithm;
import dev.levee.ratelimiter.RateLimitDecision;
import dev.levee.ratelimiter.RateLimitHeaders;
import dev.levee.ratelimiter.RateLimiterConfig;
import dev.levee.redis.ratelimiter.OutagePolicy;
import dev.levee.redis.ratelimiter.RedisRateLimiter;
import dev.levee.redis.ratelimiter.RedisRateLimiterConfig;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.function.BiConsumer;

/** The examples of the "Shared limits on Redis" section of docs/ratelimiter.md. */
public final class RedisRateLimiterExamples {
    private RedisRateLimiterExamples() {}

    /**
     * A client set up as the page recommends: commands refused at once while disconnected, so a dead
     * Redis costs a caller nothing beyond the limiter's call timeout.
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
     * 1,000 searches per second for the whole fleet of 8 instances; while Redis is down, each instance
     * limits itself to 125 per second.
     *
     * @return the config
     */
    public static RedisRateLimiterConfig searchConfig() {
        return RedisRateLimiterConfig.builder()
                .rate(RateLimiterConfig.builder().algorithm(RateLimitAlgorithm.GCRA).rate(1_000, Duration.ofSeconds(1)).build())
                .callTimeout(Duration.ofMillis(50))
                .outagePolicy(OutagePolicy.LOCAL_FALLBACK)
                .expectedInstances(8)
                .build();
    }

    /**
     * The shared limiter on the application's connection.
     *
     * @param connection the application's connection
     * @return the limiter
     */
    public static RedisRateLimiter searchLimiter(StatefulRedisConnection<String, String> connection) {
        return RedisRateLimiter.of("search-api", searchConfig(), connection);
    }

    /**
     * A request handler's check: on a refusal, the 429 headers, exactly as for a local limiter.
     *
     * @param limiter the shared limiter
     * @param header where the response headers go
     * @return true if the request may proceed; false means answer 429
     */
    public static boolean admit(RedisRateLimiter limiter, BiConsumer<String, String> header) {
        RateLimitDecision decision = new RateLimitDecision();
        if (limiter.tryAcquire(1, limiter.ticker().read(), decision)) {
            return true;
        }
        RateLimitHeaders.write(limiter, decision, header);
        return false;
    }
}

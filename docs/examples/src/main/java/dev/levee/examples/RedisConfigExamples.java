package dev.levee.examples;

import dev.levee.config.LeveeProperties;
import dev.levee.core.PolicyRegistry;
import dev.levee.core.Subscription;
import dev.levee.micrometer.LeveeMeters;
import dev.levee.redis.idempotency.RedisIdempotencyStore;
import dev.levee.redis.idempotency.RedisIdempotencyStoreConfig;
import dev.levee.redis.ratelimiter.RedisRateLimiter;
import dev.levee.redis.ratelimiter.RedisRateLimiterConfig;
import io.lettuce.core.api.StatefulRedisConnection;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.StringReader;
import java.util.List;
import java.util.Properties;

/**
 * The Redis examples of {@code docs/configuration.md} and {@code docs/redis.md}: the Redis policies from
 * properties (the connection from code) and bound to Micrometer with everything else. Run by
 * {@code RedisConfigExamplesTest}.
 */
public final class RedisConfigExamples {
    private RedisConfigExamples() {}

    /** The properties of the pages, as a file would hold them. */
    static final String FILE = """
            levee.redisratelimiter.default.callTimeout                   = 50ms
            levee.redisratelimiter.default.expectedInstances             = 8
            levee.redisratelimiter.search.rateLimit                      = 1000
            levee.redisratelimiter.search.ratePeriod                     = 1s
            levee.redisratelimiter.search.storeBreakerWaitDurationInOpen = 5s
            levee.redisratelimiter.export.rateLimit                      = 10
            levee.redisratelimiter.export.ratePeriod                     = 1m
            levee.redisratelimiter.export.outagePolicy                   = fail_closed
            levee.redisidempotencystore.payments.keyPrefix               = payments:idem:
            levee.redisidempotencystore.payments.callTimeout             = 50ms
            """;

    /**
     * Reads the file.
     *
     * @return the properties
     * @throws IOException never (the file is a string)
     */
    static LeveeProperties load() throws IOException {
        Properties properties = new Properties();
        properties.load(new StringReader(FILE));
        return LeveeProperties.of(properties);                          // a typo in a key fails here
    }

    /**
     * Every configured shared limit, on the application's connection: the factory closes over it.
     *
     * @param levee the properties
     * @param connection the application's connection ({@code String} keys and values)
     * @return the limiters ({@code search}, {@code export}; any other name gets the default config)
     */
    public static PolicyRegistry<RedisRateLimiterConfig, RedisRateLimiter> limiters(LeveeProperties levee,
            StatefulRedisConnection<String, String> connection) {
        return levee.registry(RedisRateLimiterConfig.class, (name, config) -> RedisRateLimiter.of(name, config, connection));
    }

    /**
     * The idempotency store, on the application's {@code byte[]} connection.
     *
     * @param levee the properties
     * @param connection {@code client.connect(ByteArrayCodec.INSTANCE)}
     * @return the store
     */
    public static RedisIdempotencyStore store(LeveeProperties levee, StatefulRedisConnection<byte[], byte[]> connection) {
        return levee.policy(RedisIdempotencyStoreConfig.class, "payments",
                (name, config) -> RedisIdempotencyStore.of(name, config, connection));
    }

    /**
     * Binds the limiters (now and those the registry creates later) and the store, as any other policy.
     *
     * @param meters the meter registry
     * @param limiters the limiters
     * @param store the store
     * @return the subscription to the registry's creations
     */
    public static List<Subscription> metrics(MeterRegistry meters, PolicyRegistry<RedisRateLimiterConfig, RedisRateLimiter> limiters,
            RedisIdempotencyStore store) {
        return LeveeMeters.of(meters).bindAll(limiters, store);
    }
}

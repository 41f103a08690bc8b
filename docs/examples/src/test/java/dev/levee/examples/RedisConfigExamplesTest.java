package dev.levee.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.config.LeveeProperties;
import dev.levee.core.PolicyRegistry;
import dev.levee.redis.idempotency.RedisIdempotencyStore;
import dev.levee.redis.ratelimiter.OutagePolicy;
import dev.levee.redis.ratelimiter.RedisRateLimiter;
import dev.levee.redis.ratelimiter.RedisRateLimiterConfig;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.reflect.Proxy;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The Redis configuration example builds what the pages say. No server: the connection is a stand-in
 * whose commands are never sent (building and binding the policies sends none).
 */
class RedisConfigExamplesTest {

    @Test
    void thePropertiesBuildTheLimitersAndTheStoreAndLeveeMetersBindsThem() throws Exception {
        LeveeProperties levee = RedisConfigExamples.load();
        PolicyRegistry<RedisRateLimiterConfig, RedisRateLimiter> limiters = RedisConfigExamples.limiters(levee, connection());
        RedisIdempotencyStore store = RedisConfigExamples.store(levee, connection());

        RedisRateLimiter search = limiters.get("search");
        assertThat(search.limit()).isEqualTo(1_000);
        assertThat(search.redisConfig().expectedInstances()).isEqualTo(8);                  // from default
        assertThat(search.redisConfig().callTimeoutNanos()).isEqualTo(Duration.ofMillis(50).toNanos());
        assertThat(search.redisConfig().storeBreaker().waitDurationInOpen()).isEqualTo(Duration.ofSeconds(5));
        RedisRateLimiter export = limiters.get("export");
        assertThat(export.periodNanos()).isEqualTo(Duration.ofMinutes(1).toNanos());
        assertThat(export.redisConfig().outagePolicy()).isEqualTo(OutagePolicy.FAIL_CLOSED);
        assertThat(store.key("k")).isEqualTo("payments:idem:k");

        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        RedisConfigExamples.metrics(meters, limiters, store);
        limiters.get("later");
        assertThat(meters.find("levee.ratelimiter.redis.available").tag("name", "search").gauge()).isNotNull();
        assertThat(meters.find("levee.ratelimiter.redis.available").tag("name", "later").gauge()).isNotNull();
        assertThat(meters.find("levee.idempotency.redis.available").tag("name", "payments").gauge()).isNotNull();
    }

    /** A connection whose {@code async()} commands refuse every call (none is made here). */
    @SuppressWarnings("unchecked")
    private static <K, V> StatefulRedisConnection<K, V> connection() {
        RedisAsyncCommands<K, V> commands = (RedisAsyncCommands<K, V>) Proxy.newProxyInstance(
                RedisConfigExamplesTest.class.getClassLoader(), new Class<?>[] {RedisAsyncCommands.class},
                (proxy, method, args) -> {
                    throw new UnsupportedOperationException(method.getName());
                });
        return (StatefulRedisConnection<K, V>) Proxy.newProxyInstance(RedisConfigExamplesTest.class.getClassLoader(),
                new Class<?>[] {StatefulRedisConnection.class}, (proxy, method, args) -> {
                    if (method.getName().equals("async")) {
                        return commands;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }
}

package dev.levee.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.testing.ClassPathWithout;
import java.lang.reflect.InvocationTargetException;
import java.net.URLClassLoader;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code levee-redis} is an optional dependency: on a classpath without it, {@link LeveeProperties}
 * loads, knows every other pattern, refuses the Redis keys as an unknown pattern and never fails with a
 * {@link NoClassDefFoundError}. The test runs {@code LeveeProperties} in a class loader holding this
 * test's classpath minus {@code levee-redis}.
 */
class WithoutRedisTest {
    @Test
    void leveePropertiesWorksWithoutLeveeRedis() throws Exception {
        try (URLClassLoader loader = withoutRedis()) {
            assertThatThrownBy(() -> loader.loadClass("dev.levee.redis.ratelimiter.RedisRateLimiterConfig"))
                    .as("the loader really lacks levee-redis").isInstanceOf(ClassNotFoundException.class);
            Class<?> properties = loader.loadClass("dev.levee.config.LeveeProperties");

            @SuppressWarnings("unchecked")
            Map<String, Object> patterns = (Map<String, Object>) properties.getMethod("patterns").invoke(null);
            assertThat(patterns).containsKeys("circuitbreaker", "ratelimiter", "idempotencyguard")
                    .doesNotContainKeys("redisratelimiter", "redisidempotencystore");
            assertThat(patterns).hasSize(LeveeProperties.patterns().size() - 2);

            Object levee = properties.getMethod("of", Map.class).invoke(null, Map.of("levee.circuitbreaker.p.failureRateThreshold", "0.3"));
            Object config = properties.getMethod("config", Class.class, String.class)
                    .invoke(levee, loader.loadClass("dev.levee.circuitbreaker.CircuitBreakerConfig"), "p");
            assertThat(config.getClass().getMethod("failureRateThreshold").invoke(config)).isEqualTo(0.3);

            assertThatThrownBy(() -> properties.getMethod("of", Map.class)
                    .invoke(null, Map.of("levee.redisratelimiter.p.rateLimit", "5")))
                    .isInstanceOf(InvocationTargetException.class)
                    .cause().hasMessageContaining("about a known pattern").hasMessageContaining("redisratelimiter");
        }
    }

    /** This test's classpath without levee-redis (its classes directory in the reactor, or its jar). */
    static URLClassLoader withoutRedis() {
        return ClassPathWithout.entriesHolding("dev/levee/redis/ratelimiter/RedisRateLimiterConfig.class");
    }
}

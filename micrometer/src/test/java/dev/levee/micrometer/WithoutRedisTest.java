package dev.levee.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.testing.ClassPathWithout;
import java.net.URLClassLoader;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code levee-redis} is an optional dependency: on a classpath without it, {@link LeveeMeters} loads,
 * binds every other policy and never fails with a {@link NoClassDefFoundError}. The test runs
 * {@code LeveeMeters} in a class loader holding this test's classpath minus {@code levee-redis}.
 */
class WithoutRedisTest {
    @Test
    void leveeMetersWorksWithoutLeveeRedis() throws Exception {
        try (URLClassLoader loader = withoutRedis()) {
            assertThatThrownBy(() -> loader.loadClass("dev.levee.redis.ratelimiter.RedisRateLimiter"))
                    .as("the loader really lacks levee-redis").isInstanceOf(ClassNotFoundException.class);
            Class<?> meters = loader.loadClass("dev.levee.micrometer.LeveeMeters");
            var redisPresent = meters.getDeclaredMethod("redisPresent");
            redisPresent.setAccessible(true);                // package-private, and another loader's package
            assertThat(redisPresent.invoke(null)).isEqualTo(false);

            Object registry = loader.loadClass("io.micrometer.core.instrument.simple.SimpleMeterRegistry")
                    .getConstructor().newInstance();
            Object breaker = loader.loadClass("dev.levee.circuitbreaker.CircuitBreaker")
                    .getMethod("ofDefaults", String.class).invoke(null, "cb");
            Object limiter = loader.loadClass("dev.levee.ratelimiter.RateLimiter")
                    .getMethod("ofDefaults", String.class).invoke(null, "limiter");
            Class<?> meterRegistry = loader.loadClass("io.micrometer.core.instrument.MeterRegistry");
            Object leveeMeters = meters.getMethod("of", meterRegistry).invoke(null, registry);
            assertThat(meters.getMethod("isBindable", Object.class).invoke(null, breaker)).isEqualTo(true);
            assertThat(meters.getMethod("isBindable", Object.class).invoke(null, "not a policy")).isEqualTo(false);
            meters.getMethod("bindAll", Object[].class).invoke(leveeMeters, (Object) new Object[] {breaker, limiter});

            List<?> bound = (List<?>) meterRegistry.getMethod("getMeters").invoke(registry);
            assertThat(bound).isNotEmpty();
        }
    }

    /** This test's classpath without levee-redis (its classes directory in the reactor, or its jar). */
    static URLClassLoader withoutRedis() {
        return ClassPathWithout.entriesHolding("dev/levee/redis/ratelimiter/RedisRateLimiter.class");
    }
}

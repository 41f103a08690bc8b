package dev.levee.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
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
    static URLClassLoader withoutRedis() throws Exception {
        List<URL> urls = new ArrayList<>();
        int dropped = 0;
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path path = Path.of(entry);
            if (holdsLeveeRedis(path)) {
                dropped++;
                continue;
            }
            urls.add(path.toUri().toURL());
        }
        assertThat(dropped).as("levee-redis entries found on the classpath").isPositive();
        return new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
    }

    private static boolean holdsLeveeRedis(Path path) throws Exception {
        String marker = "dev/levee/redis/ratelimiter/RedisRateLimiter.class";
        if (Files.isDirectory(path)) {
            return Files.exists(path.resolve(marker));
        }
        if (Files.isRegularFile(path) && path.toString().endsWith(".jar")) {
            try (JarFile jar = new JarFile(path.toFile())) {
                return jar.getEntry(marker) != null;
            }
        }
        return false;
    }
}

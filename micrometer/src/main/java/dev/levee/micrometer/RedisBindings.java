package dev.levee.micrometer;

import dev.levee.redis.idempotency.RedisIdempotencyStore;
import dev.levee.redis.idempotency.RedisIdempotencyStoreMetricsBinder;
import dev.levee.redis.ratelimiter.KeyedRedisRateLimiter;
import dev.levee.redis.ratelimiter.RedisRateLimiter;
import dev.levee.redis.ratelimiter.RedisRateLimiterMetricsBinder;
import java.util.List;

/**
 * The rows of {@link LeveeMeters}' binder table for {@code levee-redis}, an optional dependency: the only
 * class of this module that names a Redis type, loaded only after {@link LeveeMeters} has checked that
 * {@code levee-redis} is on the classpath, so that without it nothing here is resolved and no
 * {@link NoClassDefFoundError} can occur.
 */
final class RedisBindings {
    private RedisBindings() {}

    /**
     * The Redis rows; {@link RedisRateLimiter} before the {@code RateLimiter} interface it implements.
     *
     * @return the rows
     */
    static List<LeveeMeters.Binding<?>> rows() {
        return List.of(
                new LeveeMeters.Binding<>(RedisRateLimiter.class, "ratelimiter", l -> new RedisRateLimiterMetricsBinder(l)),
                new LeveeMeters.Binding<>(KeyedRedisRateLimiter.class, "ratelimiter",
                        k -> new RedisRateLimiterMetricsBinder((KeyedRedisRateLimiter<?>) k)),
                new LeveeMeters.Binding<>(RedisIdempotencyStore.class, "idempotency", s -> new RedisIdempotencyStoreMetricsBinder(s)));
    }
}

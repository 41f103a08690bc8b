package dev.levee.micrometer;

import dev.levee.bulkhead.Bulkhead;
import dev.levee.circuitbreaker.CircuitBreaker;
import dev.levee.core.LoadSignal;
import dev.levee.degrade.Coalescer;
import dev.levee.degrade.DegradationLevel;
import dev.levee.degrade.Fallback;
import dev.levee.degrade.LastKnownGood;
import dev.levee.health.HealthChecker;
import dev.levee.health.Watchdog;
import dev.levee.idempotency.IdempotencyGuard;
import dev.levee.loadshed.AdaptiveLoadShedder;
import dev.levee.loadshed.ClientThrottle;
import dev.levee.loadshed.ConcurrencyLimiter;
import dev.levee.loadshed.Goodput;
import dev.levee.loadshed.PidShedder;
import dev.levee.loadshed.queue.CoDelQueue;
import dev.levee.ratelimiter.RateLimiter;
import dev.levee.redis.idempotency.RedisIdempotencyStore;
import dev.levee.redis.idempotency.RedisIdempotencyStoreConfig;
import dev.levee.redis.ratelimiter.KeyedRedisRateLimiter;
import dev.levee.redis.ratelimiter.RedisRateLimiter;
import dev.levee.redis.ratelimiter.RedisRateLimiterConfig;
import dev.levee.retry.Hedge;
import dev.levee.retry.ReplicaSet;
import dev.levee.retry.Retry;
import dev.levee.timeout.Timeout;
import java.time.Duration;
import java.util.List;

/**
 * One policy of every type {@link LeveeMeters} binds (the health endpoint, which starts a server, aside);
 * the Redis ones on a {@link FakeRedis}, so no server is needed.
 */
final class AllPolicies {
    private AllPolicies() {}

    static List<Object> create() {
        FakeRedis redis = new FakeRedis();
        return List.of(
                CircuitBreaker.ofDefaults("cb"),
                Retry.ofDefaults("retry"),
                Hedge.ofDefaults("hedge"),
                ReplicaSet.ofDefaults("replicas", List.of("a", "b")),
                Bulkhead.ofDefaults("bulkhead"),
                RateLimiter.ofDefaults("limiter"),
                Timeout.of("timeout", Duration.ofSeconds(1)),
                ConcurrencyLimiter.ofDefaults("concurrency"),
                ClientThrottle.ofDefaults("throttle"),
                PidShedder.ofDefaults("pid"),
                AdaptiveLoadShedder.ofDefaults("adaptive"),
                CoDelQueue.ofDefaults("queue"),
                Goodput.ofDefaults("goodput"),
                Fallback.<String>ofDefaults("fallback", cause -> "fallback"),
                LastKnownGood.<String, String>ofDefaults("lkg"),
                Coalescer.<String, String>ofDefaults("coalescer"),
                DegradationLevel.ofDefaults("level", LoadSignal.constant(0.1)),
                HealthChecker.ofDefaults("health"),
                Watchdog.ofDefaults("watchdog"),
                IdempotencyGuard.ofDefaults("idempotency"),
                RedisRateLimiter.of("redis-limiter", RedisRateLimiterConfig.defaults(), redis.<String, String>commands()),
                KeyedRedisRateLimiter.<String>of("redis-keyed", RedisRateLimiterConfig.defaults(), redis.<String, String>commands(),
                        KeyedRedisRateLimiter.DEFAULT_MAX_ENTRIES),
                RedisIdempotencyStore.of("redis-store", RedisIdempotencyStoreConfig.defaults(), redis.<byte[], byte[]>commands()));
    }
}

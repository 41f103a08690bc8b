package dev.levee.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.Pipeline;
import dev.levee.core.PolicyRegistry;
import dev.levee.core.Subscription;
import dev.levee.idempotency.IdempotencyStoreException;
import dev.levee.ratelimiter.RateLimiterConfig;
import dev.levee.redis.idempotency.RedisIdempotencyStore;
import dev.levee.redis.idempotency.RedisIdempotencyStoreConfig;
import dev.levee.redis.ratelimiter.KeyedRedisRateLimiter;
import dev.levee.redis.ratelimiter.RedisRateLimiter;
import dev.levee.redis.ratelimiter.RedisRateLimiterConfig;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * {@link LeveeMeters} binds the Redis policies of {@code levee-redis} with their own binders: the Redis
 * rate limiter (not with the local limiters' binder, which cannot read it), the keyed Redis rate limiter
 * as a whole, the Redis idempotency store, and those a registry creates later. On a {@link FakeRedis}.
 */
class RedisBindingTest {
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final FakeRedis redis = new FakeRedis();

    private static final RedisRateLimiterConfig CONFIG = RedisRateLimiterConfig.builder()
            .rate(RateLimiterConfig.builder().rate(10, Duration.ofSeconds(1)).build())
            .build();

    @Test
    void aRedisRateLimiterIsBoundWithTheRedisBinder() {
        RedisRateLimiter limiter = RedisRateLimiter.of("search", CONFIG, redis.<String, String>commands());
        assertThat(LeveeMeters.isBindable(limiter)).isTrue();
        LeveeMeters.of(meters).bind(limiter);

        limiter.tryAcquire();
        limiter.tryAcquire();
        redis.answer = FakeRedis.REFUSED;
        limiter.tryAcquire();
        redis.down = true;
        limiter.tryAcquire();                               // decided by the local fallback: granted

        assertThat(names("search")).containsExactlyInAnyOrder(
                "levee.ratelimiter.rejected", "levee.ratelimiter.permits", "levee.ratelimiter.redis.available",
                "levee.ratelimiter.redis.decisions", "levee.ratelimiter.redis.failures",
                "levee.ratelimiter.redis.script.reloads", "levee.ratelimiter.redis.lease.stock");
        assertThat(count("levee.ratelimiter.rejected", "search", "kind", "rate_limited")).isEqualTo(1.0);
        assertThat(count("levee.ratelimiter.permits", "search", "outcome", "granted")).isEqualTo(3.0);
        assertThat(count("levee.ratelimiter.redis.decisions", "search", "outcome", "store")).isEqualTo(3.0);
        assertThat(count("levee.ratelimiter.redis.decisions", "search", "outcome", "outage")).isEqualTo(1.0);
        assertThat(meters.get("levee.ratelimiter.redis.failures").tag("name", "search").functionCounter().count()).isEqualTo(1.0);
        assertThat(meters.get("levee.ratelimiter.redis.available").tag("name", "search").gauge().value()).isZero();
    }

    @Test
    void aKeyedRedisRateLimiterIsBoundAsAWhole() {
        KeyedRedisRateLimiter<String> keyed = KeyedRedisRateLimiter.of("tenants", CONFIG, redis.<String, String>commands(), 100);
        assertThat(LeveeMeters.isBindable(keyed)).isTrue();
        LeveeMeters.of(meters).bind(keyed);

        keyed.tryAcquire("a");
        keyed.tryAcquire("b");
        redis.answer = FakeRedis.REFUSED;
        keyed.tryAcquire("c");

        assertThat(meters.getMeters()).as("one set of meters named after the keyed limiter, none per key")
                .allMatch(m -> "tenants".equals(m.getId().getTag("name")));
        assertThat(names("tenants")).containsExactlyInAnyOrder(
                "levee.ratelimiter.rejected", "levee.ratelimiter.permits", "levee.ratelimiter.redis.available",
                "levee.ratelimiter.redis.decisions", "levee.ratelimiter.redis.failures",
                "levee.ratelimiter.redis.script.reloads", "levee.ratelimiter.keys");
        assertThat(count("levee.ratelimiter.permits", "tenants", "outcome", "granted")).isEqualTo(2.0);
        assertThat(count("levee.ratelimiter.rejected", "tenants", "kind", "rate_limited")).isEqualTo(1.0);
        assertThat(count("levee.ratelimiter.redis.decisions", "tenants", "outcome", "store")).isEqualTo(3.0);
        assertThat(meters.get("levee.ratelimiter.keys").tag("name", "tenants").gauge().value()).isEqualTo(3.0);
        assertThat(meters.get("levee.ratelimiter.redis.available").tag("name", "tenants").gauge().value()).isEqualTo(1.0);
    }

    @Test
    void aRedisIdempotencyStoreIsBound() {
        RedisIdempotencyStore store = RedisIdempotencyStore.of("payments", RedisIdempotencyStoreConfig.defaults(),
                redis.<byte[], byte[]>commands());
        assertThat(LeveeMeters.isBindable(store)).isTrue();
        LeveeMeters.of(meters).bindAll(List.of(store));

        redis.answer = List.of(0L, 0L);                     // the claim script's "claimed, no takeover"
        store.claim("k1", "fp", "owner", Duration.ofSeconds(1));
        redis.down = true;
        assertThatThrownBy(() -> store.claim("k2", "fp", "owner", Duration.ofSeconds(1)))
                .isInstanceOf(IdempotencyStoreException.class);

        assertThat(names("payments")).containsExactlyInAnyOrder("levee.idempotency.redis.available",
                "levee.idempotency.redis.round.trips", "levee.idempotency.redis.errors",
                "levee.idempotency.redis.script.reloads", "levee.idempotency.redis.claims");
        assertThat(count("levee.idempotency.redis.claims", "payments", "outcome", "claimed")).isEqualTo(1.0);
        assertThat(meters.get("levee.idempotency.redis.round.trips").tag("name", "payments").functionCounter().count())
                .isEqualTo(1.0);
        assertThat(meters.get("levee.idempotency.redis.errors").tag("name", "payments").functionCounter().count())
                .isEqualTo(1.0);
        assertThat(meters.get("levee.idempotency.redis.available").tag("name", "payments").gauge().value()).isZero();
    }

    @Test
    void redisPoliciesARegistryCreatesLaterAreBound() {
        PolicyRegistry<RedisRateLimiterConfig, RedisRateLimiter> limiters = PolicyRegistry.create(CONFIG,
                (name, config) -> RedisRateLimiter.of(name, config, redis.<String, String>commands()));
        PolicyRegistry<RedisIdempotencyStoreConfig, RedisIdempotencyStore> stores = PolicyRegistry.create(
                RedisIdempotencyStoreConfig.defaults(),
                (name, config) -> RedisIdempotencyStore.of(name, config, redis.<byte[], byte[]>commands()));
        limiters.get("before");
        List<Subscription> subscriptions = LeveeMeters.of(meters).bindAll(limiters, stores);

        limiters.get("after");
        stores.get("later-store");

        assertThat(meters.find("levee.ratelimiter.redis.available").tag("name", "before").meters()).hasSize(1);
        assertThat(meters.find("levee.ratelimiter.redis.available").tag("name", "after").meters()).hasSize(1);
        assertThat(meters.find("levee.idempotency.redis.available").tag("name", "later-store").meters()).hasSize(1);
        subscriptions.forEach(Subscription::close);
        limiters.get("unsubscribed");
        assertThat(meters.find("levee.ratelimiter.redis.available").tag("name", "unsubscribed").meters()).isEmpty();
    }

    @Test
    void aTimedRedisRateLimiterRecordsUnderTheRateLimiterPattern() {
        RedisRateLimiter limiter = RedisRateLimiter.of("timed", CONFIG, redis.<String, String>commands());
        Pipeline pipeline = Pipeline.of(LeveeMeters.of(meters).timed(limiter));

        assertThat(pipeline.execute(() -> "ok")).isEqualTo("ok");

        assertThat(meters.get("levee.ratelimiter.latency").tags("name", "timed", "outcome", "success").timer().count())
                .isEqualTo(1);
    }

    @Test
    void redisIsPresentHereSoItsRowsAreInTheTable() {
        assertThat(LeveeMeters.redisPresent()).isTrue();
    }

    private Set<String> names(String policy) {
        Set<String> out = new TreeSet<>();
        for (Meter m : meters.getMeters()) {
            if (policy.equals(m.getId().getTag("name"))) {
                out.add(m.getId().getName());
            }
        }
        return out;
    }

    private double count(String meter, String name, String tag, String value) {
        return meters.get(meter).tags("name", name, tag, value).functionCounter().count();
    }
}

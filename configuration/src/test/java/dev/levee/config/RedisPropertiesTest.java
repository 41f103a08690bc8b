package dev.levee.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.circuitbreaker.CircuitBreakerConfig;
import dev.levee.circuitbreaker.SlidingWindowType;
import dev.levee.core.InvalidConfigException;
import dev.levee.core.PolicyRegistry;
import dev.levee.ratelimiter.RateLimitAlgorithm;
import dev.levee.ratelimiter.RateLimiterConfig;
import dev.levee.redis.idempotency.RedisIdempotencyStore;
import dev.levee.redis.idempotency.RedisIdempotencyStoreConfig;
import dev.levee.redis.ratelimiter.OutagePolicy;
import dev.levee.redis.ratelimiter.RedisRateLimiter;
import dev.levee.redis.ratelimiter.RedisRateLimiterConfig;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The Redis configs from properties: patterns {@code redisratelimiter} and {@code redisidempotencystore};
 * every scalar field a key, the nested rate and store breaker as {@code rate<Field>} and
 * {@code storeBreaker<Field>} keys, the connection in code (through the factory).
 */
class RedisPropertiesTest {

    @Test
    void theRedisConfigsArePatterns() {
        assertThat(LeveeProperties.patterns())
                .containsEntry("redisratelimiter", RedisRateLimiterConfig.class)
                .containsEntry("redisidempotencystore", RedisIdempotencyStoreConfig.class);
        assertThat(LeveeProperties.codeOnly(RedisRateLimiterConfig.class)).containsExactly("rate", "storeBreaker");
        assertThat(LeveeProperties.codeOnly(RedisIdempotencyStoreConfig.class)).containsExactly("storeBreaker");
    }

    @Test
    void everyRedisRateLimiterFieldRoundTrips() {
        RedisRateLimiterConfig c = LeveeProperties.of(Map.ofEntries(
                Map.entry("levee.redisratelimiter.search.keyPrefix", "shop:rl:"),
                Map.entry("levee.redisratelimiter.search.callTimeout", "50ms"),
                Map.entry("levee.redisratelimiter.search.outagePolicy", "fail-closed"),
                Map.entry("levee.redisratelimiter.search.expectedInstances", "4"),
                Map.entry("levee.redisratelimiter.search.leaseSize", "10"),
                Map.entry("levee.redisratelimiter.search.leaseRefillThreshold", "0.25"),
                Map.entry("levee.redisratelimiter.search.rateAlgorithm", "token_bucket"),
                Map.entry("levee.redisratelimiter.search.rateLimit", "500"),
                Map.entry("levee.redisratelimiter.search.ratePeriod", "1m"),
                Map.entry("levee.redisratelimiter.search.rateBurst", "50"),
                Map.entry("levee.redisratelimiter.search.rateInitialTokens", "20"),
                Map.entry("levee.redisratelimiter.search.rateMaxWait", "200ms"),
                Map.entry("levee.redisratelimiter.search.storeBreakerConsecutiveFailureThreshold", "5"),
                Map.entry("levee.redisratelimiter.search.storeBreakerWaitDurationInOpen", "10s"),
                Map.entry("levee.redisratelimiter.search.storeBreakerSlidingWindowType", "TIME_BASED"),
                Map.entry("levee.redisratelimiter.search.store-breaker-permitted-calls-in-half-open", "2")))
                .config(RedisRateLimiterConfig.class, "search");

        assertThat(c.keyPrefix()).isEqualTo("shop:rl:");
        assertThat(c.callTimeoutNanos()).isEqualTo(Duration.ofMillis(50).toNanos());
        assertThat(c.outagePolicy()).isEqualTo(OutagePolicy.FAIL_CLOSED);
        assertThat(c.expectedInstances()).isEqualTo(4);
        assertThat(c.leaseSize()).isEqualTo(10);
        assertThat(c.leaseRefillThreshold()).isEqualTo(0.25);
        RateLimiterConfig rate = c.rate();
        assertThat(rate.algorithm()).isEqualTo(RateLimitAlgorithm.TOKEN_BUCKET);
        assertThat(rate.limit()).isEqualTo(500);
        assertThat(rate.period()).isEqualTo(Duration.ofMinutes(1));
        assertThat(rate.burst()).isEqualTo(50);
        assertThat(rate.initialTokens()).isEqualTo(20);
        assertThat(rate.maxWaitNanos()).isEqualTo(Duration.ofMillis(200).toNanos());
        CircuitBreakerConfig breaker = c.storeBreaker();
        assertThat(breaker.consecutiveFailureThreshold()).isEqualTo(5);
        assertThat(breaker.waitDurationInOpen()).isEqualTo(Duration.ofSeconds(10));
        assertThat(breaker.slidingWindowType()).isEqualTo(SlidingWindowType.TIME_BASED);
        assertThat(breaker.permittedCallsInHalfOpen()).isEqualTo(2);
    }

    @Test
    void aNestedConfigStartsFromTheOuterDefaultNotItsOwn() {
        // The store breaker's default opens after 3 consecutive failures (a generic breaker has no such
        // rule): setting one of its fields keeps the others of the Redis default.
        RedisRateLimiterConfig c = LeveeProperties.of(Map.of("levee.redisratelimiter.x.storeBreakerWaitDurationInOpen", "5s"))
                .config(RedisRateLimiterConfig.class, "x");
        CircuitBreakerConfig expected = RedisRateLimiterConfig.DEFAULT_STORE_BREAKER.toBuilder()
                .waitDurationInOpen(Duration.ofSeconds(5)).build();
        assertThat(c.storeBreaker().consecutiveFailureThreshold())
                .isEqualTo(RedisRateLimiterConfig.DEFAULT_STORE_BREAKER.consecutiveFailureThreshold()).isEqualTo(3);
        assertThat(c.storeBreaker().toString()).isEqualTo(expected.toString());
        // No key: the very default objects.
        RedisRateLimiterConfig none = LeveeProperties.of(Map.of()).config(RedisRateLimiterConfig.class, "y");
        assertThat(none.storeBreaker()).isSameAs(RedisRateLimiterConfig.DEFAULT_STORE_BREAKER);
        assertThat(none.rate()).isSameAs(RedisRateLimiterConfig.defaults().rate());
    }

    @Test
    void everyRedisIdempotencyStoreFieldRoundTrips() {
        RedisIdempotencyStoreConfig c = LeveeProperties.of(Map.of(
                "levee.redisidempotencystore.payments.keyPrefix", "pay:idem:",
                "levee.redisidempotencystore.payments.callTimeout", "250ms",
                "levee.redisidempotencystore.payments.maxResponseBytes", "65536",
                "levee.redisidempotencystore.payments.storeBreakerConsecutiveFailureThreshold", "7",
                "levee.redisidempotencystore.payments.storeBreakerWaitDurationInOpen", "2s"))
                .config(RedisIdempotencyStoreConfig.class, "payments");

        assertThat(c.keyPrefix()).isEqualTo("pay:idem:");
        assertThat(c.callTimeoutNanos()).isEqualTo(Duration.ofMillis(250).toNanos());
        assertThat(c.maxResponseBytes()).isEqualTo(65536);
        assertThat(c.storeBreaker().consecutiveFailureThreshold()).isEqualTo(7);
        assertThat(c.storeBreaker().waitDurationInOpen()).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void redisKeysInheritTheDefaultName() {
        LeveeProperties levee = LeveeProperties.of(Map.of(
                "levee.redisratelimiter.default.callTimeout", "20ms",
                "levee.redisratelimiter.default.ratePeriod", "1m",
                "levee.redisratelimiter.default.rateLimit", "600",
                "levee.redisratelimiter.default.storeBreakerWaitDurationInOpen", "3s",
                "levee.redisratelimiter.search.rateLimit", "60",
                "levee.redisidempotencystore.default.keyPrefix", "svc:idem:",
                "levee.redisidempotencystore.orders.maxResponseBytes", "4096"));

        RedisRateLimiterConfig search = levee.config(RedisRateLimiterConfig.class, "search");
        assertThat(search.rate().limit()).isEqualTo(60);                                  // its own
        assertThat(search.rate().period()).isEqualTo(Duration.ofMinutes(1));              // inherited, same nested config
        assertThat(search.callTimeoutNanos()).isEqualTo(Duration.ofMillis(20).toNanos()); // inherited
        assertThat(search.storeBreaker().waitDurationInOpen()).isEqualTo(Duration.ofSeconds(3));
        RedisRateLimiterConfig other = levee.config(RedisRateLimiterConfig.class, "other");
        assertThat(other.rate().limit()).isEqualTo(600);
        assertThat(levee.names(RedisRateLimiterConfig.class)).containsExactly("search");

        RedisIdempotencyStoreConfig orders = levee.config(RedisIdempotencyStoreConfig.class, "orders");
        assertThat(orders.keyPrefix()).isEqualTo("svc:idem:");
        assertThat(orders.maxResponseBytes()).isEqualTo(4096);
        assertThat(levee.validate()).isEqualTo(4);          // default and search; default and orders
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        // wrong kind: refused when read
        "levee.redisratelimiter.p.callTimeout | 30 | a duration | ",
        "levee.redisratelimiter.p.outagePolicy | sometimes | one of [FAIL_OPEN, FAIL_CLOSED, LOCAL_FALLBACK] | ",
        "levee.redisratelimiter.p.leaseSize | ten | an integer | ",
        "levee.redisratelimiter.p.rateLimit | many | an integer | ",
        "levee.redisratelimiter.p.storeBreakerWaitDurationInOpen | 5 | a duration | ",
        "levee.redisidempotencystore.p.maxResponseBytes | 1MB | an integer | ",
        // out of bounds: refused by the outer builder
        "levee.redisratelimiter.p.callTimeout | 0ms | in [PT0.001S, PT60S] | PT0S",
        "levee.redisratelimiter.p.expectedInstances | 0 | in [1, 1000000] | ",
        "levee.redisratelimiter.p.leaseRefillThreshold | 1.5 | in [0.0, 1.0] | ",
        "levee.redisratelimiter.p.keyPrefix | a{b} | no braces | ",
        "levee.redisratelimiter.p.leaseSize | 1000 | in [0, 100] | ",
        "levee.redisidempotencystore.p.maxResponseBytes | 10 | in [64, 536870912] | ",
        "levee.redisidempotencystore.p.callTimeout | 2m | in [PT0.001S, PT60S] | PT2M",
        // refused by the nested builder (the rate, the breaker)
        "levee.redisratelimiter.p.rateLimit | 0 |  | ",
        "levee.redisratelimiter.p.storeBreakerFailureRateThreshold | 1.5 |  | ",
        "levee.redisidempotencystore.p.storeBreakerSlidingWindowSize | 0 |  | ",
        // refused by the outer builder about a nested field ("rate.algorithm", "rate.warmUp")
        "levee.redisratelimiter.p.rateAlgorithm | SLIDING_LOG | GCRA, TOKEN_BUCKET, SLIDING_WINDOW_COUNTER or FIXED_WINDOW | ",
        "levee.redisratelimiter.p.rateWarmUp | 5s | 0 (no warm-up on Redis) | PT5S"})
    void aBadValueNamesItsKey(String key, String value, String bound, String shown) {
        Class<?> type = key.contains("redisratelimiter") ? RedisRateLimiterConfig.class : RedisIdempotencyStoreConfig.class;
        LeveeProperties levee = LeveeProperties.of(Map.of(key, value));
        assertThatThrownBy(() -> levee.config(type, "p"))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining(key + " must be " + (bound == null ? "" : bound))
                .hasMessageContaining(shown == null ? value : shown)   // a duration is shown in ISO-8601 once read
                .satisfies(e -> assertThat(((InvalidConfigException) e).field()).isEqualTo(key));
        assertThatThrownBy(levee::validate).isInstanceOf(InvalidConfigException.class).hasMessageContaining(key);
    }

    @Test
    void aBadDefaultValueNamesTheDefaultKey() {
        LeveeProperties levee = LeveeProperties.of(Map.of("levee.redisratelimiter.default.rateLimit", "0",
                "levee.redisratelimiter.search.callTimeout", "50ms"));
        assertThatThrownBy(() -> levee.config(RedisRateLimiterConfig.class, "search"))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageStartingWith("RedisRateLimiterConfig 'search': levee.redisratelimiter.default.rateLimit must be ");
    }

    @Test
    void theObjectsAreCodeOnlyAndSayWhereTheirFieldsGo() {
        assertThatThrownBy(() -> LeveeProperties.of(Map.of("levee.redisratelimiter.p.rate", "100/s")))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("(rate takes an object: set it in code, or its fields as the keys rate<Field>)")
                .satisfies(e -> assertThat(((InvalidConfigException) e).field()).isEqualTo("levee.redisratelimiter.p.rate"));
        assertThatThrownBy(() -> LeveeProperties.of(Map.of("levee.redisidempotencystore.p.connection", "redis://x")))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("must be a field of RedisIdempotencyStoreConfig");
        assertThatThrownBy(() -> LeveeProperties.of(Map.of("levee.redisratelimiter.p.rateTicker", "system")))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("must be a field of RedisRateLimiterConfig");
    }

    @Test
    void policiesAndRegistriesTakeTheConnectionFromTheFactory() {
        // The connection is the user's object: the factory passed to policy/registry closes over it.
        RedisScriptingAsyncCommands<String, String> limiterCommands = commands();
        RedisScriptingAsyncCommands<byte[], byte[]> storeCommands = commands();
        LeveeProperties levee = LeveeProperties.of(Map.of(
                "levee.redisratelimiter.search.rateLimit", "50",
                "levee.redisratelimiter.checkout.rateLimit", "5",
                "levee.redisidempotencystore.payments.keyPrefix", "pay:"));

        RedisRateLimiter search = levee.policy(RedisRateLimiterConfig.class, "search",
                (name, config) -> RedisRateLimiter.of(name, config, limiterCommands));
        assertThat(search.limit()).isEqualTo(50);
        assertThat(search.key()).isEqualTo("levee:rl:{search}:gcra");

        PolicyRegistry<RedisRateLimiterConfig, RedisRateLimiter> limiters = levee.registry(RedisRateLimiterConfig.class,
                (name, config) -> RedisRateLimiter.of(name, config, limiterCommands));
        assertThat(limiters.all()).extracting(RedisRateLimiter::name).containsExactlyInAnyOrder("search", "checkout");
        assertThat(limiters.get("checkout").limit()).isEqualTo(5);

        RedisIdempotencyStore store = levee.policy(RedisIdempotencyStoreConfig.class, "payments",
                (name, config) -> RedisIdempotencyStore.of(name, config, storeCommands));
        assertThat(store.key("k")).isEqualTo("pay:k");
    }

    @Test
    void theKeyTableNamesEveryRedisField() {
        Map<String, String> defaults = new HashMap<>();
        LeveeProperties.keys(RedisRateLimiterConfig.class).forEach(k -> defaults.put(k.field(), k.defaultValue()));
        assertThat(defaults).containsKeys("keyPrefix", "callTimeout", "outagePolicy", "expectedInstances", "leaseSize",
                "leaseRefillThreshold", "rateAlgorithm", "rateLimit", "ratePeriod", "rateBurst", "storeBreakerWaitDurationInOpen");
        assertThat(defaults).containsEntry("storeBreakerConsecutiveFailureThreshold", "3")   // the Redis default breaker's
                .containsEntry("rateLimit", "100").containsEntry("keyPrefix", "levee:rl:");
    }

    /** Scripting commands that are never called here (building a policy makes no call). */
    @SuppressWarnings("unchecked")
    private static <K, V> RedisScriptingAsyncCommands<K, V> commands() {
        return (RedisScriptingAsyncCommands<K, V>) Proxy.newProxyInstance(RedisPropertiesTest.class.getClassLoader(),
                new Class<?>[] {RedisScriptingAsyncCommands.class}, (proxy, method, args) -> {
                    throw new UnsupportedOperationException(method.getName());
                });
    }
}

package dev.levee.redis.ratelimiter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.circuitbreaker.CircuitState;
import dev.levee.core.ManualTicker;
import dev.levee.ratelimiter.RateLimitDecision;
import dev.levee.ratelimiter.RateLimiterConfig;
import dev.levee.redis.RedisServer;
import dev.levee.redis.RedisTestSupport;
import dev.levee.testing.Concurrently;
import io.lettuce.core.api.StatefulRedisConnection;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;

/** One shared limit per key; the keys of a keyed limiter share one breaker and one outage switch. */
class KeyedRedisRateLimiterTest extends RedisTestSupport {
    private static final long LIMIT = 20;
    private static final Duration LOADED_CALL_TIMEOUT = Duration.ofSeconds(10);
    /** Short, so the dead-server test's timed-out calls end quickly. */
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(2);

    @Test
    void eachKeyHasItsOwnExactSharedLimit() throws Exception {
        try (StatefulRedisConnection<String, String> c1 = connect(); StatefulRedisConnection<String, String> c2 = connect()) {
            String name = unique("api");
            // A call timeout far above the dead-server test's: 16 racing threads share 2 loaded cores, and a
            // call that times out would be decided by FAIL_CLOSED and leave a tenant short of its limit.
            KeyedRedisRateLimiter<String> a = KeyedRedisRateLimiter.of(name, config(new ManualTicker(), LOADED_CALL_TIMEOUT), c1);
            KeyedRedisRateLimiter<String> b = KeyedRedisRateLimiter.of(name, config(new ManualTicker(), LOADED_CALL_TIMEOUT), c2);
            String[] tenants = {"tenant-a", "tenant-b", "tenant-c"};
            AtomicLongArray granted = new AtomicLongArray(tenants.length);
            Concurrently.run(thread -> {
                KeyedRedisRateLimiter<String> keyed = thread % 2 == 0 ? a : b;
                for (int i = 0; i < 12; i++) {
                    int t = (thread + i) % tenants.length;
                    if (keyed.tryAcquire(tenants[t])) {
                        granted.incrementAndGet(t);
                    }
                }
            });
            for (int t = 0; t < tenants.length; t++) {
                assertThat(granted.get(t)).as(tenants[t]).isEqualTo(LIMIT);
            }
            // The keyed limiters' shared tallies count every decision of their keys exactly, under 16 threads.
            assertThat(a.redisMetrics().granted() + b.redisMetrics().granted()).isEqualTo(LIMIT * tenants.length);
            assertThat(a.redisMetrics().granted() + a.redisMetrics().rejected() + b.redisMetrics().granted()
                    + b.redisMetrics().rejected()).isEqualTo(12L * Concurrently.THREADS);
            assertThat(a.forKey("tenant-a").key()).isEqualTo("levee:rl:{" + name + ":tenant-a}:gcra");
            assertThat(a.size()).isEqualTo(3);
            assertThat(a.maxEntries()).isEqualTo(KeyedRedisRateLimiter.DEFAULT_MAX_ENTRIES);
            RateLimitDecision d = new RateLimitDecision();
            assertThat(b.tryAcquire("tenant-d", 1, d)).isTrue();
            assertThat(d.remaining()).isEqualTo(LIMIT - 1);
        }
    }

    @Test
    void aDeadRedisTripsOneBreakerAndSwitchesOnceForAllKeys() {
        try (RedisServer own = RedisServer.start()) {
            var client = newClient(resources, own.uri());
            try (StatefulRedisConnection<String, String> c = client.connect()) {
                ManualTicker clock = new ManualTicker();
                KeyedRedisRateLimiter<Integer> keyed = KeyedRedisRateLimiter.of(unique("dead"), config(clock, CALL_TIMEOUT), c);
                List<RedisRateLimiterEvent> events = new CopyOnWriteArrayList<>();
                keyed.onStoreEvent(events::add);
                for (int key = 0; key < 5; key++) {
                    assertThat(keyed.tryAcquire(key)).isTrue();
                }
                own.kill();
                for (int key = 0; key < 5; key++) {
                    for (int i = 0; i < 3; i++) {
                        assertThat(keyed.tryAcquire(key)).as("FAIL_CLOSED").isFalse();
                    }
                }
                assertThat(keyed.storeAvailable()).isFalse();
                assertThat(keyed.storeBreaker().state()).isEqualTo(CircuitState.OPEN);
                assertThat(events).singleElement().isInstanceOf(RedisRateLimiterEvent.OutageBegan.class);
                // 3 failures (of keys 0) opened the shared breaker: no other key called the dead server.
                // (The store counters belong to the store, so every key reports the same.)
                assertThat(keyed.forKey(4).redisMetrics().storeFailures()).isEqualTo(3);
            } finally {
                client.shutdown();
            }
        }
    }

    @Test
    void theKeyedLimiterIsMeasuredAsAWholeEvictedKeysIncluded() {
        try (StatefulRedisConnection<String, String> c = connect()) {
            String name = unique("metered");
            // At most 2 keys in memory: the third key evicts one, whose decisions must stay counted.
            KeyedRedisRateLimiter<String> keyed = KeyedRedisRateLimiter.of(name,
                    config(new ManualTicker(), LOADED_CALL_TIMEOUT).toBuilder()
                            .rate(RateLimiterConfig.builder().rate(2, Duration.ofDays(30)).build()).build(),
                    c.async(), 2);
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            new RedisRateLimiterMetricsBinder(keyed).bindTo(registry);
            for (String tenant : List.of("a", "b", "c")) {
                for (int i = 0; i < 3; i++) {
                    keyed.tryAcquire(tenant);               // 2 granted, 1 refused per tenant
                }
            }
            assertThat(keyed.size()).isLessThanOrEqualTo(2);
            RedisRateLimiterMetrics m = keyed.redisMetrics();
            assertThat(m.granted()).isEqualTo(6);
            assertThat(m.rejected()).isEqualTo(3);
            assertThat(m.storeCalls()).isEqualTo(9);
            assertThat(m.outageDecisions()).isZero();
            assertThat(registry.get("levee.ratelimiter.rejected").tags("name", name, "kind", "rate_limited")
                    .functionCounter().count()).isEqualTo(3.0);
            assertThat(registry.get("levee.ratelimiter.permits").tags("name", name, "outcome", "granted")
                    .functionCounter().count()).isEqualTo(6.0);
            assertThat(registry.get("levee.ratelimiter.redis.decisions").tags("name", name, "outcome", "store")
                    .functionCounter().count()).isEqualTo(9.0);
            assertThat(registry.get("levee.ratelimiter.redis.available").tag("name", name).gauge().value()).isEqualTo(1.0);
            assertThat(registry.get("levee.ratelimiter.keys").tag("name", name).gauge().value()).isEqualTo(keyed.size());
            assertThat(registry.getMeters()).as("one set of meters, none per key")
                    .allMatch(meter -> name.equals(meter.getId().getTag("name")));
        }
    }

    private static RedisRateLimiterConfig config(ManualTicker clock, Duration callTimeout) {
        return RedisRateLimiterConfig.builder()
                .rate(RateLimiterConfig.builder().rate(LIMIT, Duration.ofDays(30)).ticker(clock).sleeper(clock).build())
                .outagePolicy(OutagePolicy.FAIL_CLOSED)
                .callTimeout(callTimeout)
                .storeBreaker(RedisRateLimiterConfig.DEFAULT_STORE_BREAKER.toBuilder().ticker(clock).build())
                .build();
    }
}

package dev.levee.redis.ratelimiter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.ratelimiter.RateLimitAlgorithm;
import dev.levee.ratelimiter.RateLimiterConfig;
import dev.levee.redis.RedisTestSupport;
import dev.levee.testing.Concurrently;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@code SCRIPT FLUSH} (as after a restart or a failover) never reaches a caller: EVAL reloads the script. */
class ScriptReloadTest extends RedisTestSupport {

    @Test
    void aFlushedScriptIsSentAgainAndLimitingContinues() {
        try (StatefulRedisConnection<String, String> c = connect()) {
            RedisRateLimiter limiter = RedisRateLimiter.of(unique("flush"), config(RateLimitAlgorithm.GCRA, 3), c);
            assertThat(limiter.tryAcquire()).isTrue();
            c.sync().scriptFlush();
            assertThat(limiter.tryAcquire()).isTrue();
            assertThat(limiter.tryAcquire()).isTrue();
            c.sync().scriptFlush();
            assertThat(limiter.tryAcquire()).isFalse();
            RedisRateLimiterMetrics m = limiter.redisMetrics();
            // The first call on a fresh server loads the script the same way; then one reload per flush.
            assertThat(m.scriptReloads()).isEqualTo(3);
            assertThat(m.outageDecisions()).isZero();
            assertThat(m.storeFailures()).isZero();
        }
    }

    @ParameterizedTest
    @EnumSource(value = RateLimitAlgorithm.class, names = {"GCRA", "TOKEN_BUCKET", "SLIDING_WINDOW_COUNTER", "FIXED_WINDOW"})
    void flushesInTheMiddleOfALoadChangeNothing(RateLimitAlgorithm algorithm) throws Exception {
        long limit = 100;
        try (StatefulRedisConnection<String, String> c1 = connect(); StatefulRedisConnection<String, String> c2 = connect();
                StatefulRedisConnection<String, String> admin = connect()) {
            String name = unique("flush-load");
            RedisRateLimiter a = RedisRateLimiter.of(name, config(algorithm, limit), c1);
            RedisRateLimiter b = RedisRateLimiter.of(name, config(algorithm, limit), c2);
            AtomicLong granted = new AtomicLong();
            AtomicBoolean running = new AtomicBoolean(true);
            AtomicLong flushes = new AtomicLong();
            // Both limiters have run their script once; the flush guarantees the load starts on NOSCRIPT.
            granted.addAndGet((a.tryAcquire() ? 1 : 0) + (b.tryAcquire() ? 1 : 0));
            admin.sync().scriptFlush();
            Concurrently.run(Concurrently.THREADS + 1, thread -> {
                if (thread == Concurrently.THREADS) {
                    // The flusher: as many flushes as the deciders leave room for.
                    do {
                        admin.sync().scriptFlush();
                        flushes.incrementAndGet();
                    } while (running.get());
                    return;
                }
                RedisRateLimiter limiter = thread % 2 == 0 ? a : b;
                for (int i = 0; i < 20; i++) {
                    if (limiter.tryAcquire()) {
                        granted.incrementAndGet();
                    }
                }
                if (thread == 0) {
                    running.set(false);
                }
            });
            assertThat(granted.get()).isEqualTo(limit);
            assertThat(flushes.get()).isPositive();
            for (RedisRateLimiter l : new RedisRateLimiter[] {a, b}) {
                assertThat(l.redisMetrics().outageDecisions()).as("decided by the outage policy").isZero();
                assertThat(l.redisMetrics().storeFailures()).isZero();
            }
            assertThat(a.redisMetrics().scriptReloads() + b.redisMetrics().scriptReloads()).isPositive();
        }
    }

    private static RedisRateLimiterConfig config(RateLimitAlgorithm algorithm, long limit) {
        return RedisRateLimiterConfig.builder()
                .rate(RateLimiterConfig.builder().algorithm(algorithm).rate(limit, Duration.ofDays(30)).build())
                .outagePolicy(OutagePolicy.FAIL_CLOSED)
                .callTimeout(Duration.ofSeconds(10))
                .build();
    }
}

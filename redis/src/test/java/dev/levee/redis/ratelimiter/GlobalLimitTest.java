package dev.levee.redis.ratelimiter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualTicker;
import dev.levee.ratelimiter.RateLimitAlgorithm;
import dev.levee.ratelimiter.RateLimitDecision;
import dev.levee.ratelimiter.RateLimiterConfig;
import dev.levee.redis.RedisTestSupport;
import dev.levee.testing.Concurrently;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The shared limit is exact: 4 limiter instances, each on its own connection and with its own clock
 * (two of them an hour off), 16 threads each, against one Redis, grant exactly the configured count
 * in a window, whatever the interleaving. The period is long (30 days; windows are aligned to the epoch, so a boundary falls inside a 1-second test with probability 4e-7) so no refill or window
 * boundary can fall inside the test, which makes the count exact regardless of timing.
 */
class GlobalLimitTest extends RedisTestSupport {
    private static final int INSTANCES = 4;
    private static final int THREADS_PER_INSTANCE = Concurrently.THREADS;
    private static final int ATTEMPTS = 8;
    private static final long LIMIT = 150;

    @ParameterizedTest
    @EnumSource(value = RateLimitAlgorithm.class, names = {"GCRA", "TOKEN_BUCKET", "SLIDING_WINDOW_COUNTER", "FIXED_WINDOW"})
    void fourInstancesTimesSixteenThreadsNeverOverAdmit(RateLimitAlgorithm algorithm) throws Exception {
        String name = unique("global-" + algorithm);
        List<StatefulRedisConnection<String, String>> connections = new ArrayList<>();
        List<RedisRateLimiter> limiters = new ArrayList<>();
        long[] skews = {0L, Duration.ofHours(1).toNanos(), -Duration.ofHours(1).toNanos(), 7L};
        try {
            for (int i = 0; i < INSTANCES; i++) {
                StatefulRedisConnection<String, String> c = connect();
                connections.add(c);
                ManualTicker clock = new ManualTicker(skews[i]);
                limiters.add(RedisRateLimiter.of(name, RedisRateLimiterConfig.builder()
                        .rate(RateLimiterConfig.builder().algorithm(algorithm).rate(LIMIT, Duration.ofDays(30))
                                .ticker(clock).sleeper(clock).build())
                        .outagePolicy(OutagePolicy.FAIL_CLOSED)
                        .callTimeout(Duration.ofSeconds(10))
                        .build(), c));
            }
            AtomicLong granted = new AtomicLong();
            AtomicLong refusedWithRetry = new AtomicLong();
            Concurrently.run(INSTANCES * THREADS_PER_INSTANCE, thread -> {
                RedisRateLimiter limiter = limiters.get(thread % INSTANCES);
                RateLimitDecision decision = new RateLimitDecision();
                for (int i = 0; i < ATTEMPTS; i++) {
                    if (limiter.tryAcquire(1, limiter.ticker().read(), decision)) {
                        granted.incrementAndGet();
                        assertThat(decision.remaining()).isBetween(0L, LIMIT - 1);
                    } else if (decision.retryAfterNanos() > 0) {
                        refusedWithRetry.incrementAndGet();
                    }
                }
            });
            long attempts = (long) INSTANCES * THREADS_PER_INSTANCE * ATTEMPTS;
            assertThat(granted.get()).as("granted by the fleet").isEqualTo(LIMIT);
            assertThat(refusedWithRetry.get()).as("every refusal says when to retry").isEqualTo(attempts - LIMIT);
            for (RedisRateLimiter limiter : limiters) {
                RedisRateLimiterMetrics m = limiter.redisMetrics();
                assertThat(m.outageDecisions()).isZero();
                assertThat(m.storeFailures()).isZero();
            }
            long sum = limiters.stream().mapToLong(l -> l.redisMetrics().granted()).sum();
            assertThat(sum).isEqualTo(LIMIT);
        } finally {
            connections.forEach(StatefulRedisConnection::close);
        }
    }
}

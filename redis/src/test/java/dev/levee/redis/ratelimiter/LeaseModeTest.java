package dev.levee.redis.ratelimiter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.levee.ratelimiter.RateLimitAlgorithm;
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
 * Lease mode's over-admission bound, measured exactly: each of 4 instances holds a full lease of 10
 * permits taken in one window; the window then turns (the server's clock is moved an hour on), so
 * Redis grants the whole limit again while the instances still hold their leases. Under 16 threads per
 * instance the fleet admits in the new window exactly {@code limit + instances × leaseSize} minus what
 * is still held at the end: the documented bound, reached.
 */
class LeaseModeTest extends RedisTestSupport {
    private static final int INSTANCES = 4;
    private static final int LEASE = 10;
    private static final long LIMIT = 100;

    @ParameterizedTest
    @EnumSource(value = RateLimitAlgorithm.class, names = {"GCRA", "FIXED_WINDOW"})
    void overAdmissionIsAtMostInstancesTimesLeaseSize(RateLimitAlgorithm algorithm) throws Exception {
        String name = unique("lease-" + algorithm);
        List<StatefulRedisConnection<String, String>> connections = new ArrayList<>();
        List<RedisRateLimiter> limiters = new ArrayList<>();
        try {
            for (int i = 0; i < INSTANCES; i++) {
                StatefulRedisConnection<String, String> c = connect();
                connections.add(c);
                limiters.add(RedisRateLimiter.of(name, RedisRateLimiterConfig.builder()
                        .rate(RateLimiterConfig.builder().algorithm(algorithm).rate(LIMIT, Duration.ofHours(1)).build())
                        .outagePolicy(OutagePolicy.FAIL_CLOSED)
                        .callTimeout(Duration.ofSeconds(10))
                        .leaseSize(LEASE)
                        .build(), c));
            }
            // Window 1: one decision each (from Redis: the stock is empty) starts a refill to a full lease.
            for (RedisRateLimiter l : limiters) {
                assertThat(l.tryAcquire()).isTrue();
            }
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> limiters.stream().allMatch(l -> l.redisMetrics().leaseStock() == LEASE));

            // Window 2 (GCRA: a fully replenished limiter): Redis has the whole limit again.
            for (RedisRateLimiter l : limiters) {
                l.shiftServerClock(Duration.ofHours(2).toNanos() / 1000);
            }
            AtomicLong granted = new AtomicLong();
            Concurrently.run(INSTANCES * Concurrently.THREADS, thread -> {
                RedisRateLimiter l = limiters.get(thread % INSTANCES);
                int refusedInARow = 0;
                while (refusedInARow < 20) {
                    if (l.tryAcquire()) {
                        granted.incrementAndGet();
                        refusedInARow = 0;
                    } else {
                        refusedInARow++;
                    }
                }
            });
            // Refills still in flight land in the stocks; then nothing is left outstanding.
            await().atMost(Duration.ofSeconds(60)).until(() -> limiters.stream().allMatch(l -> !refilling(l)));
            long held = limiters.stream().mapToLong(l -> l.redisMetrics().leaseStock()).sum();
            assertThat(granted.get() + held).as("admitted + still held in window 2").isEqualTo(LIMIT + INSTANCES * LEASE);
            assertThat(granted.get()).as("over-admission bound").isLessThanOrEqualTo(LIMIT + INSTANCES * LEASE);
            assertThat(granted.get()).as("the held leases were spent").isGreaterThan(LIMIT);
        } finally {
            connections.forEach(StatefulRedisConnection::close);
        }
    }

    private static boolean refilling(RedisRateLimiter limiter) {
        return limiter.leaseRefillInFlight();
    }
}

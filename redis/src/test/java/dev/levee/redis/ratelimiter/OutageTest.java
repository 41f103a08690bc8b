package dev.levee.redis.ratelimiter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.levee.circuitbreaker.CircuitState;
import dev.levee.core.ManualTicker;
import dev.levee.ratelimiter.RateLimitDecision;
import dev.levee.ratelimiter.RateLimiterConfig;
import dev.levee.redis.RedisServer;
import dev.levee.redis.RedisTestSupport;
import dev.levee.testing.Concurrently;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.resource.ClientResources;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The fault test: Redis is killed with SIGKILL in the middle of a load. Each outage policy then decides
 * as documented, no caller waits longer than the call timeout (plus scheduling slack on a shared
 * machine), the switch is one event (and one WARN), no thread or connection is left behind, and once
 * Redis is restarted, decisions come from Redis again as soon as the breaker's probe interval has
 * passed (the breaker runs on a manual ticker, so "the interval has passed" is one {@code advance}).
 */
class OutageTest {
    private static final Duration TIMEOUT = Duration.ofMillis(200);
    /**
     * Scheduling slack for a loaded 2-core machine (a full build runs beside the test, and 8 deciding
     * threads share it with the client's own); the timeout itself is enforced by the limiter. Without the
     * timeout a caller would wait for the client's own command timeout (60 s by default in Lettuce), so
     * the check still tells the two apart; 1 s of slack was within reach of one stalled thread.
     */
    private static final long SLACK_NANOS = Duration.ofSeconds(5).toNanos();
    private static final Duration PROBE_INTERVAL = Duration.ofSeconds(1);
    private static final long LIMIT = 100;
    private static final int INSTANCES = 4;
    /** What {@link RedisTestSupport#newResources()} may start: 2 I/O, 2 computation, 1 timer. */
    private static final int CLIENT_POOL_THREADS = 5;

    @ParameterizedTest
    @EnumSource(OutagePolicy.class)
    void sigkillMidLoadThenRestart(OutagePolicy policy) throws Exception {
        try (RedisServer server = RedisServer.start()) {
            ClientResources resources = RedisTestSupport.newResources();
            RedisClient client = RedisTestSupport.newClient(resources, server.uri());
            try {
                run(policy, server, client);
            } finally {
                client.shutdown(0, 2, TimeUnit.SECONDS);
                resources.shutdown(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
            }
        }
    }

    private static void run(OutagePolicy policy, RedisServer server, RedisClient client) throws Exception {
        ManualTicker clock = new ManualTicker();
        RedisRateLimiterConfig config = RedisRateLimiterConfig.builder()
                .rate(RateLimiterConfig.builder().rate(LIMIT, Duration.ofDays(30)).ticker(clock).sleeper(clock).build())
                .callTimeout(TIMEOUT)
                .outagePolicy(policy)
                .expectedInstances(INSTANCES)
                .storeBreaker(RedisRateLimiterConfig.DEFAULT_STORE_BREAKER.toBuilder()
                        .waitDurationInOpen(PROBE_INTERVAL).ticker(clock).build())
                .build();
        try (StatefulRedisConnection<String, String> connection = client.connect();
                StatefulRedisConnection<String, String> admin = client.connect()) {
            RedisRateLimiter limiter = RedisRateLimiter.of("outage-" + policy, config, connection);
            List<RedisRateLimiterEvent> events = new CopyOnWriteArrayList<>();
            limiter.onStoreEvent(events::add);

            // Warm the decision path (class loading, the first EVAL) before anything is timed.
            for (int i = 0; i < 20; i++) {
                limiter.tryAcquire(1, clock.read());
            }
            // The load: 8 threads deciding until told to stop; the slowest decision that started after
            // the kill is recorded.
            AtomicBoolean stop = new AtomicBoolean();
            AtomicBoolean killed = new AtomicBoolean();
            AtomicLong slowest = new AtomicLong();
            AtomicLong decisions = new AtomicLong();
            Thread killer = new Thread(() -> {
                await().atMost(Duration.ofSeconds(60)).until(() -> decisions.get() >= 200);
                server.kill();
                killed.set(true);
                long before = decisions.get();
                await().atMost(Duration.ofSeconds(60)).until(() -> decisions.get() >= before + 2_000);
                stop.set(true);
            }, "killer");
            killer.start();
            Concurrently.run(8, thread -> {
                RateLimitDecision decision = new RateLimitDecision();
                while (!stop.get()) {
                    boolean timed = killed.get();
                    long start = System.nanoTime();
                    limiter.tryAcquire(1, clock.read(), decision);
                    if (timed) {
                        slowest.accumulateAndGet(System.nanoTime() - start, Math::max);
                    }
                    decisions.incrementAndGet();
                }
            });
            killer.join();
            assertThat(slowest.get()).as("the slowest decision (ns)").isLessThan(TIMEOUT.toNanos() + SLACK_NANOS);

            // During the outage: the breaker is open, the policy decides, one switch was reported.
            assertThat(limiter.storeAvailable()).isFalse();
            assertThat(limiter.storeBreaker().state()).isEqualTo(CircuitState.OPEN);
            assertThat(events).hasSize(1).first().isInstanceOf(RedisRateLimiterEvent.OutageBegan.class);
            assertThat(((RedisRateLimiterEvent.OutageBegan) events.get(0)).policy()).isEqualTo(policy);
            // The client's pools (2 I/O threads, 2 computation threads, its timer; created lazily) are
            // all that runs: neither the outage nor the restart starts a thread of the limiter's own.
            assertThat(lettuceThreads()).as(lettuceThreadNames()).isLessThanOrEqualTo(CLIENT_POOL_THREADS);

            // A limiter that first decides during the outage: exactly what its policy says.
            RedisRateLimiter late = RedisRateLimiter.of("late-" + policy, config, connection);
            RateLimitDecision d = new RateLimitDecision();
            int granted = 0;
            for (int i = 0; i < 30; i++) {
                long start = System.nanoTime();
                if (late.tryAcquire(1, clock.read(), d)) {
                    granted++;
                } else {
                    assertThat(d.retryAfterNanos()).isPositive();
                }
                assertThat(System.nanoTime() - start).isLessThan(TIMEOUT.toNanos() + SLACK_NANOS);
            }
            switch (policy) {
                case FAIL_OPEN -> assertThat(granted).isEqualTo(30);
                case FAIL_CLOSED -> {
                    assertThat(granted).isZero();
                    assertThat(d.retryAfterNanos()).isEqualTo(PROBE_INTERVAL.toNanos());
                }
                case LOCAL_FALLBACK -> assertThat(granted).as("limit / expectedInstances").isEqualTo(LIMIT / INSTANCES);
                default -> throw new AssertionError(policy);
            }

            // Restart: once the client has reconnected and the probe interval has passed, Redis decides.
            server.restart();
            // Both connections reconnect on their own schedule; the admin's is used for the checks below.
            await().atMost(Duration.ofSeconds(60)).until(() -> connection.isOpen() && admin.isOpen());
            long storeCalls = limiter.redisMetrics().storeCalls();
            clock.advance(PROBE_INTERVAL);
            assertThat(limiter.tryAcquire(1, clock.read(), d)).isTrue();
            assertThat(limiter.redisMetrics().storeCalls()).isEqualTo(storeCalls + 1);
            assertThat(limiter.storeAvailable()).isTrue();
            assertThat(d.remaining()).as("the restarted Redis starts empty").isEqualTo(LIMIT - 1);
            assertThat(events).hasSize(2);
            assertThat(events.get(1)).isInstanceOf(RedisRateLimiterEvent.OutageEnded.class);
            assertThat(admin.sync().exists(limiter.key())).isEqualTo(1);
            // Connections: the limiter's and the admin's, nothing else.
            assertThat(admin.sync().clientList().lines().count()).isEqualTo(2);
            assertThat(lettuceThreads()).as(lettuceThreadNames()).isLessThanOrEqualTo(CLIENT_POOL_THREADS);
        }
    }

    /**
     * A frozen Redis (SIGSTOP: the connection stays open, nothing answers) is the case the call timeout
     * exists for: every caller gets its answer from the outage policy within the timeout, the breaker
     * opens after three timeouts and stops sending; after SIGCONT and the probe interval, Redis decides.
     */
    @org.junit.jupiter.api.Test
    void aFrozenRedisCostsEachCallerAtMostTheTimeout() throws Exception {
        try (RedisServer server = RedisServer.start()) {
            ClientResources resources = RedisTestSupport.newResources();
            RedisClient client = RedisTestSupport.newClient(resources, server.uri());
            try (StatefulRedisConnection<String, String> connection = client.connect()) {
                ManualTicker clock = new ManualTicker();
                RedisRateLimiter limiter = RedisRateLimiter.of("frozen", RedisRateLimiterConfig.builder()
                        .rate(RateLimiterConfig.builder().rate(LIMIT, Duration.ofDays(30)).ticker(clock).sleeper(clock).build())
                        .callTimeout(TIMEOUT)
                        .outagePolicy(OutagePolicy.FAIL_CLOSED)
                        .storeBreaker(RedisRateLimiterConfig.DEFAULT_STORE_BREAKER.toBuilder()
                                .waitDurationInOpen(PROBE_INTERVAL).ticker(clock).build())
                        .build(), connection);
                for (int i = 0; i < 20; i++) {
                    assertThat(limiter.tryAcquire(1, clock.read())).isTrue(); // warms the path before timing
                }
                server.signal("STOP");
                AtomicLong slowest = new AtomicLong();
                AtomicLong granted = new AtomicLong();
                Concurrently.run(8, thread -> {
                    for (int i = 0; i < 3; i++) {
                        long start = System.nanoTime();
                        if (limiter.tryAcquire(1, clock.read())) {
                            granted.incrementAndGet();
                        }
                        slowest.accumulateAndGet(System.nanoTime() - start, Math::max);
                    }
                });
                assertThat(granted.get()).as("FAIL_CLOSED grants nothing Redis did not count").isZero();
                assertThat(slowest.get()).isLessThan(TIMEOUT.toNanos() + SLACK_NANOS);
                assertThat(limiter.storeBreaker().state()).isEqualTo(CircuitState.OPEN);
                long failures = limiter.redisMetrics().storeFailures();
                // At least the 3 that open the breaker; calls already in flight when it opened also time out.
                assertThat(failures).as("timeouts before the breaker opened").isBetween(3L, 24L);
                for (int i = 0; i < 100; i++) {
                    assertThat(limiter.tryAcquire(1, clock.read())).isFalse();
                }
                assertThat(limiter.redisMetrics().storeFailures()).as("an open breaker sends nothing").isEqualTo(failures);
                server.signal("CONT");
                clock.advance(PROBE_INTERVAL);
                RateLimitDecision d = new RateLimitDecision();
                assertThat(limiter.tryAcquire(1, clock.read(), d)).isTrue();
                assertThat(limiter.storeAvailable()).isTrue();
                // Redis kept its state. The commands that timed out had been sent: the resumed server ran
                // them, so refused callers may have used permits (under-admission, never over).
                assertThat(d.remaining()).as("Redis kept its state").isBetween(LIMIT - 21 - failures, LIMIT - 21);
            } finally {
                client.shutdown(0, 2, TimeUnit.SECONDS);
                resources.shutdown(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
            }
        }
    }

    private static String lettuceThreadNames() {
        return Thread.getAllStackTraces().keySet().stream().map(Thread::getName).filter(n -> n.startsWith("lettuce"))
                .sorted().toList().toString();
    }

    private static long lettuceThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("lettuce")).count();
    }
}

package dev.levee.redis.idempotency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.levee.circuitbreaker.CircuitState;
import dev.levee.core.ManualTicker;
import dev.levee.idempotency.IdempotencyGuard;
import dev.levee.idempotency.IdempotencyGuardConfig;
import dev.levee.idempotency.IdempotencyRequest;
import dev.levee.idempotency.IdempotencyResult;
import dev.levee.idempotency.OutagePolicy;
import dev.levee.idempotency.StoredResponse;
import dev.levee.redis.RedisServer;
import dev.levee.redis.RedisTestSupport;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.resource.ClientResources;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 23's first done-when point on Redis: 1,000 concurrent duplicates of one keyed POST, spread over 4
 * {@link IdempotencyGuard} instances (each with its own {@link RedisIdempotencyStore} on its own
 * connection, as 4 service instances would be) sharing one real {@code redis-server}, execute the
 * handler exactly once and all end with the same response — in the 409 mode (a duplicate that arrives
 * while the first runs gets 409 and its client's retry gets the replay) and in the waiting mode (every
 * duplicate waits for the first outcome and gets it). Then the store down under each outage policy,
 * with the real guard.
 */
class GuardFleetTest extends IdempotencyRedisSupport {
    private static final int INSTANCES = 4;
    private static final int DUPLICATES = 1_000;
    private static final IdempotencyRequest CHARGE = new IdempotencyRequest("POST", "/charges",
            "{\"amount\":100,\"currency\":\"EUR\"}".getBytes(StandardCharsets.UTF_8));

    @Test
    void conflictMode() throws Exception {
        Map<IdempotencyResult.Kind, Integer> kinds = run(Duration.ZERO, true);
        assertThat(kinds.get(IdempotencyResult.Kind.EXECUTED)).isEqualTo(1);
        assertThat(kinds.get(IdempotencyResult.Kind.IN_PROGRESS)).isPositive();
        assertThat(kinds.keySet()).containsOnly(IdempotencyResult.Kind.EXECUTED, IdempotencyResult.Kind.IN_PROGRESS,
                IdempotencyResult.Kind.REPLAYED);
    }

    @Test
    void waitingMode() throws Exception {
        Map<IdempotencyResult.Kind, Integer> kinds = run(Duration.ofSeconds(30), false);
        assertThat(kinds).isEqualTo(Map.of(IdempotencyResult.Kind.EXECUTED, 1, IdempotencyResult.Kind.REPLAYED, DUPLICATES - 1));
    }

    /**
     * Runs the duplicates; in the 409 mode, each duplicate answered 409 retries (as its client would,
     * after the {@code Retry-After}) until it gets the replay. Asserts one execution and one response
     * for all, and returns the kinds of the first answers. With {@code holdUntilADuplicateIsAnswered}
     * the handler does not return until some duplicate has been answered 409, so the run always shows
     * the in-progress answer instead of depending on how fast the first request finishes.
     */
    private Map<IdempotencyResult.Kind, Integer> run(Duration maxWait, boolean holdUntilADuplicateIsAnswered)
            throws Exception {
        List<StatefulRedisConnection<byte[], byte[]>> connections = new ArrayList<>();
        List<IdempotencyGuard> fleet = new ArrayList<>();
        String prefix = unique("fleet") + ":";
        for (int i = 0; i < INSTANCES; i++) {
            StatefulRedisConnection<byte[], byte[]> c = connectBytes();
            connections.add(c);
            RedisIdempotencyStore store = RedisIdempotencyStore.of("instance-" + i, RedisIdempotencyStoreConfig.builder()
                    .keyPrefix(prefix).callTimeout(Duration.ofSeconds(10)).build(), c);
            fleet.add(IdempotencyGuard.of("charges-" + i, IdempotencyGuardConfig.builder().store(store).maxWait(maxWait).build()));
        }
        AtomicInteger executions = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        CountDownLatch duplicateAnswered = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(32);
        try {
            List<Future<IdempotencyResult>> firsts = new ArrayList<>();
            for (int r = 0; r < DUPLICATES; r++) {
                IdempotencyGuard guard = fleet.get(r % INSTANCES);
                firsts.add(pool.submit(() -> {
                    start.await();
                    IdempotencyResult result = guard.handle("tenant-1", "key-4f2a", CHARGE, () -> {
                        int n = executions.incrementAndGet();
                        if (holdUntilADuplicateIsAnswered) {
                            assertThat(duplicateAnswered.await(60, TimeUnit.SECONDS)).as("a duplicate answered 409").isTrue();
                        }
                        return StoredResponse.of(201, Map.of("Location", List.of("/charges/ch_" + n)),
                                ("charged ch_" + n).getBytes(StandardCharsets.UTF_8));
                    });
                    if (result.kind() == IdempotencyResult.Kind.IN_PROGRESS) {
                        duplicateAnswered.countDown();
                    }
                    return result;
                }));
            }
            start.countDown();
            Map<IdempotencyResult.Kind, Integer> kinds = new EnumMap<>(IdempotencyResult.Kind.class);
            List<IdempotencyResult> finals = new ArrayList<>();
            int r = 0;
            for (Future<IdempotencyResult> f : firsts) {
                IdempotencyResult result = f.get(120, TimeUnit.SECONDS);
                kinds.merge(result.kind(), 1, Integer::sum);
                IdempotencyGuard guard = fleet.get(r++ % INSTANCES);
                while (result.kind() == IdempotencyResult.Kind.IN_PROGRESS) {
                    assertThat(result.response().status()).isEqualTo(409);
                    result = guard.handle("tenant-1", "key-4f2a", CHARGE, () -> {
                        throw new AssertionError("a retry must not execute");
                    });
                }
                finals.add(result);
            }
            assertThat(executions.get()).as("handler executions").isEqualTo(1);
            for (IdempotencyResult result : finals) {
                assertThat(result.kind()).isIn(IdempotencyResult.Kind.EXECUTED, IdempotencyResult.Kind.REPLAYED);
                assertThat(result.response().status()).isEqualTo(201);
                assertThat(result.response().body()).isEqualTo("charged ch_1".getBytes(StandardCharsets.UTF_8));
                assertThat(result.response().headers().get("location")).containsExactly("/charges/ch_1");
                if (result.kind() == IdempotencyResult.Kind.REPLAYED) {
                    assertThat(result.response().headers().get("idempotent-replayed")).containsExactly("true");
                }
            }
            return kinds;
        } finally {
            pool.shutdownNow();
            connections.forEach(StatefulRedisConnection::close);
        }
    }

    @ParameterizedTest
    @EnumSource(OutagePolicy.class)
    void storeDownUnderEachOutagePolicy(OutagePolicy policy) throws Exception {
        try (RedisServer server = RedisServer.start()) {
            ClientResources resources = RedisTestSupport.newResources();
            RedisClient down = RedisTestSupport.newClient(resources, server.uri());
            try (StatefulRedisConnection<byte[], byte[]> c = down.connect(ByteArrayCodec.INSTANCE)) {
                ManualTicker breakerClock = new ManualTicker();
                RedisIdempotencyStore store = RedisIdempotencyStore.of("down-" + policy, RedisIdempotencyStoreConfig.builder()
                        .callTimeout(Duration.ofSeconds(2))
                        .storeBreaker(RedisIdempotencyStoreConfig.DEFAULT_STORE_BREAKER.toBuilder().ticker(breakerClock).build())
                        .build(), c);
                IdempotencyGuard guard = IdempotencyGuard.of("down-" + policy,
                        IdempotencyGuardConfig.builder().store(store).outagePolicy(policy).build());
                AtomicInteger executions = new AtomicInteger();
                IdempotencyResult before = guard.handle("t", "k-before", CHARGE, () -> ok(executions));
                assertThat(before.kind()).isEqualTo(IdempotencyResult.Kind.EXECUTED);

                server.kill();
                for (int i = 0; i < 5; i++) {
                    IdempotencyResult during = guard.handle("t", "k-during-" + i, CHARGE, () -> ok(executions));
                    if (policy == OutagePolicy.FAIL_CLOSED) {
                        assertThat(during.kind()).isEqualTo(IdempotencyResult.Kind.STORE_UNAVAILABLE);
                        assertThat(during.response().status()).isEqualTo(503);
                        assertThat(during.executed()).isFalse();
                    } else {
                        assertThat(during.kind()).isEqualTo(IdempotencyResult.Kind.FAILED_OPEN);
                        assertThat(during.executed()).isTrue();
                    }
                }
                assertThat(executions.get()).isEqualTo(policy == OutagePolicy.FAIL_CLOSED ? 1 : 6);
                assertThat(store.storeBreaker().state()).isEqualTo(CircuitState.OPEN);

                server.restart();
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20))
                        .until(() -> {
                            breakerClock.advance(Duration.ofSeconds(1));
                            return guard.handle("t", "k-after", CHARGE, () -> ok(executions)).kind()
                                    == IdempotencyResult.Kind.EXECUTED;
                        });
                assertThat(guard.handle("t", "k-after", CHARGE, () -> ok(executions)).kind())
                        .isEqualTo(IdempotencyResult.Kind.REPLAYED);
            } finally {
                down.shutdown(0, 2, TimeUnit.SECONDS);
                resources.shutdown(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
            }
        }
    }

    private static StoredResponse ok(AtomicInteger executions) {
        executions.incrementAndGet();
        return StoredResponse.of(200, Map.of(), "ok".getBytes(StandardCharsets.UTF_8));
    }
}

package dev.levee.redis.idempotency;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.idempotency.ClaimResult;
import dev.levee.idempotency.StoredResponse;
import io.lettuce.core.api.StatefulRedisConnection;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The store's half of issue 23's first done-when point: 1,000 concurrent duplicates of one keyed request,
 * spread over 4 instances (4 stores, each on its own connection) sharing one {@code redis-server},
 * execute once. The handler holds its claim until every duplicate has been answered, so all 999 others
 * find it in progress (what a guard answers with 409 and {@code Retry-After}); then each duplicate asks
 * again, as its client's retry would, and gets the stored response. The guard's own test of the same
 * point drives the guard with these stores.
 */
class FleetDuplicatesTest extends IdempotencyRedisSupport {
    private static final int INSTANCES = 4;
    private static final int DUPLICATES = 1_000;
    private static final Duration LEASE = Duration.ofSeconds(60);

    @Test
    void aThousandDuplicatesAcrossFourInstancesExecuteOnce() throws Exception {
        List<StatefulRedisConnection<byte[], byte[]>> connections = new ArrayList<>();
        List<RedisIdempotencyStore> fleet = new ArrayList<>();
        for (int i = 0; i < INSTANCES; i++) {
            StatefulRedisConnection<byte[], byte[]> c = connectBytes();
            connections.add(c);
            fleet.add(RedisIdempotencyStore.of("instance-" + i, RedisIdempotencyStoreConfig.builder()
                    .keyPrefix("fleet:").callTimeout(Duration.ofSeconds(10)).build(), c));
        }
        String key = unique("tenant-1:charge");
        AtomicInteger executions = new AtomicInteger();
        CountDownLatch everyoneAnswered = new CountDownLatch(DUPLICATES - 1);
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(32);
        try {
            List<Future<StoredResponse>> answers = new ArrayList<>();
            for (int r = 0; r < DUPLICATES; r++) {
                RedisIdempotencyStore store = fleet.get(r % INSTANCES);
                String owner = "request-" + r;
                answers.add(pool.submit(() -> {
                    start.await();
                    ClaimResult first = store.claim(key, "POST /charges 100 EUR", owner, LEASE);
                    if (first instanceof ClaimResult.Claimed) {
                        executions.incrementAndGet();
                        assertThat(everyoneAnswered.await(60, TimeUnit.SECONDS)).isTrue();
                        StoredResponse charged = StoredResponse.of(201, Map.of("location", List.of("/charges/ch_1")),
                                ("charged by " + owner).getBytes(StandardCharsets.UTF_8));
                        assertThat(store.complete(key, owner, charged, Duration.ofHours(24))).isTrue();
                        return charged;
                    }
                    assertThat(first).isInstanceOf(ClaimResult.InProgress.class);
                    everyoneAnswered.countDown();
                    return null;
                }));
            }
            start.countDown();
            List<StoredResponse> executed = new ArrayList<>();
            for (Future<StoredResponse> f : answers) {
                StoredResponse r = f.get(120, TimeUnit.SECONDS);
                if (r != null) {
                    executed.add(r);
                }
            }
            assertThat(executions.get()).isEqualTo(1);
            assertThat(executed).hasSize(1);
            StoredResponse theResponse = executed.get(0);

            // Every duplicate's retry, on whichever instance, replays the one stored response.
            List<Future<ClaimResult>> retries = new ArrayList<>();
            for (int r = 0; r < DUPLICATES; r++) {
                RedisIdempotencyStore store = fleet.get((r + 1) % INSTANCES);
                String owner = "retry-" + r;
                retries.add(pool.submit(() -> store.claim(key, "POST /charges 100 EUR", owner, LEASE)));
            }
            for (Future<ClaimResult> f : retries) {
                assertThat(f.get(120, TimeUnit.SECONDS))
                        .isEqualTo(new ClaimResult.Completed("POST /charges 100 EUR", theResponse));
            }
            long claimed = fleet.stream().mapToLong(s -> s.metrics().claimed()).sum();
            long inProgress = fleet.stream().mapToLong(s -> s.metrics().inProgress()).sum();
            long replays = fleet.stream().mapToLong(s -> s.metrics().completedFound()).sum();
            assertThat(claimed).isEqualTo(1);
            assertThat(inProgress).isEqualTo(DUPLICATES - 1);
            assertThat(replays).isEqualTo(DUPLICATES);
        } finally {
            pool.shutdownNow();
            connections.forEach(StatefulRedisConnection::close);
        }
    }
}

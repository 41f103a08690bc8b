package dev.levee.idempotency;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualTicker;
import dev.levee.core.RandomSource;
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

/**
 * 1,000 concurrent duplicates of one keyed POST against the in-memory store: the handler runs exactly
 * once, and every duplicate gets the same response (waiting mode) or 409 and then the same replay.
 * The ticker is manual, so no lease lapses however slow the machine; the threads are real.
 */
class IdempotencyGuardConcurrencyTest {
    private static final int DUPLICATES = 1_000;
    private static final IdempotencyRequest POST =
            new IdempotencyRequest("POST", "/charges", "{\"amount\":1000}".getBytes(StandardCharsets.UTF_8));

    private final ManualTicker ticker = new ManualTicker();
    private final AtomicInteger runs = new AtomicInteger();

    /** How many claims found the key in progress: each duplicate's first look counts once. */
    private final AtomicInteger seenInProgress = new AtomicInteger();

    private IdempotencyGuard guard(Duration maxWait) {
        InMemoryIdempotencyStore memory = InMemoryIdempotencyStore.builder().ticker(ticker).build();
        IdempotencyStore counting = new IdempotencyStore() {
            @Override
            public ClaimResult claim(String recordKey, String fingerprint, String ownerToken, Duration lease) {
                ClaimResult r = memory.claim(recordKey, fingerprint, ownerToken, lease);
                if (r instanceof ClaimResult.InProgress) {
                    seenInProgress.incrementAndGet();
                }
                return r;
            }

            @Override
            public boolean complete(String recordKey, String ownerToken, StoredResponse response, Duration timeToLive) {
                return memory.complete(recordKey, ownerToken, response, timeToLive);
            }

            @Override
            public boolean release(String recordKey, String ownerToken) {
                return memory.release(recordKey, ownerToken);
            }
        };
        return IdempotencyGuard.of("stress", IdempotencyGuardConfig.builder()
                .store(counting)
                .ticker(ticker)
                .random(RandomSource.seeded(42))
                .maxWait(maxWait)
                .build());
    }

    /** Runs DUPLICATES requests at once; the handler holds until `release` opens. */
    private List<IdempotencyResult> race(IdempotencyGuard guard, CountDownLatch release) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(DUPLICATES);
        try {
            CountDownLatch ready = new CountDownLatch(DUPLICATES);
            CountDownLatch go = new CountDownLatch(1);
            List<Future<IdempotencyResult>> futures = new ArrayList<>();
            for (int i = 0; i < DUPLICATES; i++) {
                futures.add(pool.submit(() -> {
                    ready.countDown();
                    go.await();
                    return guard.handle("tenant", "charge-42", POST, () -> {
                        runs.incrementAndGet();
                        assertThat(release.await(60, TimeUnit.SECONDS)).isTrue();
                        return StoredResponse.of(201, Map.of("content-type", List.of("application/json")),
                                "{\"id\":\"ch_1\"}".getBytes(StandardCharsets.UTF_8));
                    });
                }));
            }
            assertThat(ready.await(60, TimeUnit.SECONDS)).isTrue();
            go.countDown();
            onAllStarted(guard, release);
            List<IdempotencyResult> results = new ArrayList<>();
            for (Future<IdempotencyResult> f : futures) {
                results.add(f.get(60, TimeUnit.SECONDS));
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    private Runnable afterStart = () -> { };

    private void onAllStarted(IdempotencyGuard guard, CountDownLatch release) {
        afterStart.run();
    }

    private static Map<IdempotencyResult.Kind, Integer> count(List<IdempotencyResult> results) {
        Map<IdempotencyResult.Kind, Integer> counts = new EnumMap<>(IdempotencyResult.Kind.class);
        results.forEach(r -> counts.merge(r.kind(), 1, Integer::sum));
        return counts;
    }

    @Test
    void inConflictModeOneRunsAndTheOthersGet409ThenTheSameReplay() throws Exception {
        IdempotencyGuard guard = guard(Duration.ZERO);
        CountDownLatch release = new CountDownLatch(1);
        // Hold the first request until every other has been answered 409: they really overlapped.
        afterStart = () -> {
            while (guard.metrics().inProgress() < DUPLICATES - 1) {
                Thread.onSpinWait();
            }
            release.countDown();
        };
        List<IdempotencyResult> results = race(guard, release);
        assertThat(runs).hasValue(1);
        assertThat(count(results)).containsEntry(IdempotencyResult.Kind.EXECUTED, 1)
                .containsEntry(IdempotencyResult.Kind.IN_PROGRESS, DUPLICATES - 1).hasSize(2);
        StoredResponse executed = results.stream().filter(IdempotencyResult::executed).findFirst().orElseThrow().response();
        for (IdempotencyResult r : results) {
            if (r.kind() == IdempotencyResult.Kind.IN_PROGRESS) {
                assertThat(r.response().status()).isEqualTo(409);
                assertThat(r.response().headers()).containsEntry("retry-after", List.of("60"));
                IdempotencyResult retry = guard.handle("tenant", "charge-42", POST, () -> {
                    throw new AssertionError("a retry must not run");
                });
                assertThat(retry.kind()).isEqualTo(IdempotencyResult.Kind.REPLAYED);
                assertThat(retry.response().status()).isEqualTo(executed.status());
                assertThat(retry.response().body()).isEqualTo(executed.body());
            }
        }
        assertThat(runs).hasValue(1);
    }

    @Test
    void inWaitingModeOneRunsAndEveryDuplicateGetsItsResponse() throws Exception {
        IdempotencyGuard guard = guard(Duration.ofSeconds(60));
        CountDownLatch release = new CountDownLatch(1);
        // Hold the first request until every other thread has entered the guard and found it running.
        afterStart = () -> {
            // Each duplicate looks once before it waits: when all have found the first running, release it.
            while (seenInProgress.get() < DUPLICATES - 1) {
                Thread.onSpinWait();
            }
            release.countDown();
        };
        List<IdempotencyResult> results = race(guard, release);
        assertThat(runs).hasValue(1);
        assertThat(count(results)).containsEntry(IdempotencyResult.Kind.EXECUTED, 1)
                .containsEntry(IdempotencyResult.Kind.REPLAYED, DUPLICATES - 1).hasSize(2);
        byte[] body = "{\"id\":\"ch_1\"}".getBytes(StandardCharsets.UTF_8);
        for (IdempotencyResult r : results) {
            assertThat(r.response().status()).isEqualTo(201);
            assertThat(r.response().body()).isEqualTo(body);
        }
        assertThat(guard.metrics().claims()).isEqualTo(1);
        assertThat(guard.metrics().replays()).isEqualTo(DUPLICATES - 1);
    }
}

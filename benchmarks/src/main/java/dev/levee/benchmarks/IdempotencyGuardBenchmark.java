package dev.levee.benchmarks;

import dev.levee.idempotency.IdempotencyGuard;
import dev.levee.idempotency.IdempotencyGuardConfig;
import dev.levee.idempotency.IdempotencyRequest;
import dev.levee.idempotency.IdempotencyResult;
import dev.levee.idempotency.InMemoryIdempotencyStore;
import dev.levee.idempotency.StoredResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What the server-side idempotency guard adds to a request, with the bounded in-memory store (the
 * Redis store's round trips are measured by {@link RedisIdempotencyStoreBenchmark}); the handler returns
 * a prepared 201 with a 64-byte body, so the figures are the guard's own work:
 * <ul>
 *   <li>{@code firstRequest}: a key never seen (from a per-thread counter): key validation, the SHA-256
 *       fingerprint of method, path and a 256-byte body, the claim, the handler, storing the response;</li>
 *   <li>{@code replay}: a duplicate of a completed request: validation, fingerprint, the claim that finds
 *       the record and answers its response marked as a replay;</li>
 *   <li>{@code bareHandler}: the handler alone, the floor.</li>
 * </ul>
 * No library of the JVM field has a guard of this kind, so there is no peer row. The store is bounded to
 * 1,000,000 keys, so a long {@code firstRequest} run measures a full store evicting its oldest record.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class IdempotencyGuardBenchmark {
    private static final StoredResponse CREATED = StoredResponse.of(201, Map.of("location", List.of("/charges/1")),
            new byte[64]);
    private static final IdempotencyRequest REQUEST = new IdempotencyRequest("POST", "/charges",
            "{\"amount\":1000,\"currency\":\"eur\",\"description\":\"a 256-byte body\"}".repeat(4)
                    .substring(0, 256).getBytes(StandardCharsets.UTF_8));

    private IdempotencyGuard guard;

    /** One guard on a bounded in-memory store, with one completed key for the replays. */
    @Setup(Level.Trial)
    public void setUp() throws Exception {
        guard = IdempotencyGuard.of("bench", IdempotencyGuardConfig.builder()
                .store(InMemoryIdempotencyStore.builder().maxEntries(1_000_000).build()).build());
        IdempotencyResult first = guard.handle("tenant-1", "replayed-key", REQUEST, () -> CREATED);
        if (!first.executed()) {
            throw new IllegalStateException("the setup request did not execute: " + first);
        }
    }

    /** Per-thread key source: a distinct key per call without a shared write. */
    @State(Scope.Thread)
    public static class Keys {
        private final String prefix = "key-" + Thread.currentThread().getId() + "-";
        private long next;

        String nextKey() {
            return prefix + next++;
        }
    }

    /**
     * A first request: executes and stores.
     *
     * @param keys the thread's key source
     * @return the result
     * @throws Exception never (the handler does not throw)
     */
    @Benchmark
    public IdempotencyResult firstRequest(Keys keys) throws Exception {
        return guard.handle("tenant-1", keys.nextKey(), REQUEST, () -> CREATED);
    }

    /**
     * A duplicate of a completed request: answered from the record.
     *
     * @return the result
     * @throws Exception never
     */
    @Benchmark
    public IdempotencyResult replay() throws Exception {
        return guard.handle("tenant-1", "replayed-key", REQUEST, () -> CREATED);
    }

    /**
     * The handler alone.
     *
     * @return the response
     */
    @Benchmark
    public StoredResponse bareHandler() {
        return CREATED;
    }
}

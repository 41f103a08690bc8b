package dev.levee.redis.idempotency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.idempotency.ClaimResult;
import dev.levee.idempotency.IdempotencyStoreException;
import dev.levee.idempotency.ResponseTooLargeException;
import dev.levee.idempotency.StoredResponse;
import dev.levee.testing.Concurrently;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.event.command.CommandListener;
import io.lettuce.core.event.command.CommandStartedEvent;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every clause of the {@link dev.levee.idempotency.IdempotencyStore} contract, and the round trips, on a
 * real {@code redis-server}. Leases lapse by the store's test-only clock shift (the claim script adds it
 * to the server's {@code TIME}), so no test waits for real time to pass.
 */
class RedisIdempotencyStoreTest extends IdempotencyRedisSupport {
    private static final Duration LEASE = Duration.ofSeconds(60);
    private static final Duration TTL = Duration.ofHours(24);
    private static final StoredResponse CREATED = StoredResponse.of(201, Map.of("Location", List.of("/charges/1")),
            new byte[] {0, (byte) 0xFF, 'o', 'k', (byte) 0x80});

    /** Far above the default 100 ms: these tests are about answers, on a shared, loaded 2-core machine. */
    private static final Duration PATIENT = Duration.ofSeconds(10);

    private StatefulRedisConnection<byte[], byte[]> bytes;
    private StatefulRedisConnection<String, String> admin;
    private RedisIdempotencyStore store;

    @BeforeEach
    void open() {
        bytes = connectBytes();
        admin = connect();
        store = RedisIdempotencyStore.of(unique("idem"), RedisIdempotencyStoreConfig.builder().callTimeout(PATIENT).build(), bytes);
    }

    @AfterEach
    void close() {
        bytes.close();
        admin.close();
    }

    @Test
    void aFreeKeyIsClaimedThenDuplicatesSeeTheRecord() {
        String key = unique("k");
        assertThat(store.claim(key, "fp-1", "owner-1", LEASE)).isEqualTo(new ClaimResult.Claimed(false));

        ClaimResult second = store.claim(key, "fp-2", "owner-2", LEASE);
        assertThat(second).isInstanceOf(ClaimResult.InProgress.class);
        ClaimResult.InProgress running = (ClaimResult.InProgress) second;
        assertThat(running.fingerprint()).isEqualTo("fp-1");
        assertThat(running.leaseRemaining()).isPositive().isLessThanOrEqualTo(LEASE);

        assertThat(store.complete(key, "owner-1", CREATED, TTL)).isTrue();
        assertThat(store.claim(key, "fp-3", "owner-3", LEASE)).isEqualTo(new ClaimResult.Completed("fp-1", CREATED));
        assertThat(store.claim(key, "fp-1", "owner-4", LEASE)).isEqualTo(new ClaimResult.Completed("fp-1", CREATED));
        assertThat(store.metrics().claimed()).isEqualTo(1);
        assertThat(store.metrics().inProgress()).isEqualTo(1);
        assertThat(store.metrics().completedFound()).isEqualTo(2);
        assertThat(store.metrics().completed()).isEqualTo(1);
    }

    @Test
    void completeAndReleaseActOnlyForTheOwner() {
        String key = unique("k");
        store.claim(key, "fp", "owner", LEASE);
        assertThat(store.complete(key, "intruder", CREATED, TTL)).isFalse();
        assertThat(store.release(key, "intruder")).isFalse();
        assertThat(store.claim(key, "fp", "other", LEASE)).isInstanceOf(ClaimResult.InProgress.class);

        assertThat(store.release(key, "owner")).isTrue();
        assertThat(store.release(key, "owner")).as("released twice").isFalse();
        assertThat(store.complete(key, "owner", CREATED, TTL)).as("completed after release").isFalse();
        assertThat(admin.sync().exists(store.key(key))).isZero();

        assertThat(store.claim(key, "fp", "retry", LEASE)).isEqualTo(new ClaimResult.Claimed(false));
        assertThat(store.complete(key, "retry", CREATED, TTL)).isTrue();
        assertThat(store.complete(key, "retry", CREATED, TTL)).as("a completed record is no claim").isFalse();
        assertThat(store.release(key, "retry")).as("a completed record cannot be released").isFalse();
        assertThat(store.claim(key, "fp", "late", LEASE)).isInstanceOf(ClaimResult.Completed.class);
        assertThat(store.metrics().lostClaims()).isEqualTo(6);
    }

    @Test
    void aLapsedLeaseIsTakenOverAndTheOldOwnerLosesTheRecord() {
        String key = unique("k");
        Duration lease = Duration.ofSeconds(30);
        store.claim(key, "fp", "crashed", lease);
        store.shiftServerClock(lease.toMillis() - 5_000); // 5 s short of the lease: the real server clock also moves while the test runs
        assertThat(store.claim(key, "fp", "early", lease)).isInstanceOf(ClaimResult.InProgress.class);
        store.shiftServerClock(lease.toMillis());
        assertThat(store.claim(key, "fp", "next", lease)).isEqualTo(new ClaimResult.Claimed(true));
        assertThat(store.metrics().takeovers()).isEqualTo(1);

        assertThat(store.complete(key, "crashed", CREATED, TTL)).isFalse();
        assertThat(store.release(key, "crashed")).isFalse();
        assertThat(store.complete(key, "next", CREATED, TTL)).isTrue();
        assertThat(store.claim(key, "fp", "dup", lease)).isEqualTo(new ClaimResult.Completed("fp", CREATED));
    }

    @Test
    void anOwnerWhoseLeaseLapsedWithNobodyTakingOverMayStillComplete() {
        String key = unique("k");
        store.claim(key, "fp", "slow", Duration.ofSeconds(10));
        store.shiftServerClock(Duration.ofSeconds(15).toMillis());
        assertThat(store.complete(key, "slow", CREATED, TTL)).isTrue();
        assertThat(store.claim(key, "fp", "dup", LEASE)).isEqualTo(new ClaimResult.Completed("fp", CREATED));
    }

    @Test
    void everyKeyHasATtl() {
        String key = unique("k");
        store.claim(key, "fp", "owner", LEASE);
        long inProgress = admin.sync().pttl(store.key(key));
        assertThat(inProgress).as("in progress: twice the lease").isGreaterThan(LEASE.toMillis())
                .isLessThanOrEqualTo(2 * LEASE.toMillis());
        store.complete(key, "owner", CREATED, Duration.ofMinutes(5));
        assertThat(admin.sync().pttl(store.key(key))).as("completed: the ttl").isPositive()
                .isLessThanOrEqualTo(Duration.ofMinutes(5).toMillis());

        String released = unique("k");
        store.claim(released, "fp", "owner", LEASE);
        store.release(released, "owner");
        assertThat(admin.sync().pttl(store.key(released))).as("released: gone").isEqualTo(-2);

        String taken = unique("k");
        store.claim(taken, "fp", "a", Duration.ofSeconds(1));
        store.shiftServerClock(1_000);
        store.claim(taken, "fp", "b", Duration.ofSeconds(20));
        assertThat(admin.sync().pttl(store.key(taken))).isGreaterThan(20_000).isLessThanOrEqualTo(40_000);
        // Every key under the prefix, this class's other tests' too (they share the server): a key of
        // theirs with a short lease may expire between KEYS and PTTL (-2, gone); only -1 is a key without one.
        for (String k : admin.sync().keys(store.config().keyPrefix() + "*")) {
            assertThat(admin.sync().pttl(k)).as(k + ": -1 is a key without a TTL").isNotEqualTo(-1L);
        }
    }

    @Test
    void subMillisecondDurationsRoundUp() {
        String key = unique("k");
        store.claim(key, "fp", "owner", Duration.ofMillis(1_500).plusNanos(1));
        // The rounding itself is checked on the conversion (exact); the key's PTTL only bounds it, because the
        // server's clock moves between the claim and the PTTL (by many milliseconds on a loaded machine).
        assertThat(new String(RedisIdempotencyStore.millis("lease", Duration.ofMillis(1_500).plusNanos(1)),
                StandardCharsets.US_ASCII)).isEqualTo("1501");
        assertThat(new String(RedisIdempotencyStore.millis("lease", Duration.ofMillis(1_500)),
                StandardCharsets.US_ASCII)).isEqualTo("1500");
        assertThat(new String(RedisIdempotencyStore.millis("lease", Duration.ofNanos(1)),
                StandardCharsets.US_ASCII)).isEqualTo("1");
        assertThat(admin.sync().pttl(store.key(key))).as("1,501 ms, twice").isGreaterThan(2_000L).isLessThanOrEqualTo(3_002L);
        assertThatThrownBy(() -> store.claim(unique("k"), "fp", "o", Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store.complete(key, "owner", CREATED, Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store.claim("", "fp", "o", LEASE)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void recordsLiveUnderTheConfiguredPrefix() {
        RedisIdempotencyStore tenantA = RedisIdempotencyStore.of(unique("a"),
                RedisIdempotencyStoreConfig.builder().callTimeout(PATIENT).keyPrefix("svc-a:idem:").build(), bytes);
        RedisIdempotencyStore tenantB = RedisIdempotencyStore.of(unique("b"),
                RedisIdempotencyStoreConfig.builder().callTimeout(PATIENT).keyPrefix("svc-b:idem:").build(), bytes);
        assertThat(tenantA.key("t1:key")).isEqualTo("svc-a:idem:t1:key");
        assertThat(tenantA.claim("t1:key", "fp", "a", LEASE)).isEqualTo(new ClaimResult.Claimed(false));
        assertThat(tenantB.claim("t1:key", "fp", "b", LEASE)).as("another prefix, another record")
                .isEqualTo(new ClaimResult.Claimed(false));
        assertThat(admin.sync().exists("svc-a:idem:t1:key", "svc-b:idem:t1:key")).isEqualTo(2);
        assertThat(admin.sync().hget("svc-a:idem:t1:key", "s")).isEqualTo("p");
    }

    @Test
    void exactlyOneOfManyConcurrentClaimsWins() throws Exception {
        int rounds = 20;
        for (int round = 0; round < rounds; round++) {
            String key = unique("race");
            AtomicInteger winners = new AtomicInteger();
            ConcurrentLinkedQueue<ClaimResult> others = new ConcurrentLinkedQueue<>();
            Concurrently.run(Concurrently.THREADS, thread -> {
                ClaimResult r = store.claim(key, "fp", "owner-" + thread, LEASE);
                if (r instanceof ClaimResult.Claimed) {
                    winners.incrementAndGet();
                } else {
                    others.add(r);
                }
            });
            assertThat(winners.get()).as("round %d", round).isEqualTo(1);
            assertThat(others).hasSize(Concurrently.THREADS - 1)
                    .allSatisfy(r -> assertThat(r).isInstanceOf(ClaimResult.InProgress.class));
        }
    }

    @Test
    void exactlyOneOfManyConcurrentTakeoversWins() throws Exception {
        String key = unique("race");
        store.claim(key, "fp", "crashed", Duration.ofSeconds(5));
        store.shiftServerClock(5_000);
        AtomicInteger winners = new AtomicInteger();
        AtomicInteger completes = new AtomicInteger();
        Concurrently.run(Concurrently.THREADS, thread -> {
            if (store.claim(key, "fp", "owner-" + thread, LEASE) instanceof ClaimResult.Claimed c) {
                assertThat(c.tookOverLapsedLease()).isTrue();
                winners.incrementAndGet();
            }
            if (store.complete(key, "owner-" + thread, CREATED, TTL)) {
                completes.incrementAndGet();
            }
        });
        assertThat(winners.get()).isEqualTo(1);
        assertThat(completes.get()).isEqualTo(1);
    }

    @Test
    void oneRoundTripToClaimOneToCompleteOneForAReplay() {
        // Counted twice: by the client (every command Lettuce writes on the store's connection) and by the
        // server (INFO commandstats: EVALSHA calls, and no EVAL, so no fallback round trip).
        List<String> sent = new CopyOnWriteArrayList<>();
        CommandListener listener = new CommandListener() {
            @Override
            public void commandStarted(CommandStartedEvent event) {
                sent.add(event.getCommand().getType().toString());
            }
        };
        client.addListener(listener);
        try (StatefulRedisConnection<byte[], byte[]> counted = connectBytes()) {
            RedisIdempotencyStore s = RedisIdempotencyStore.of(unique("rt"), RedisIdempotencyStoreConfig.builder().callTimeout(PATIENT).build(), counted);
            s.claim(unique("warm"), "fp", "o", LEASE); // loads the scripts if another test has not
            s.complete(unique("warm"), "o", CREATED, TTL);
            s.release(unique("warm"), "o");
            String key = unique("k");
            long before = s.metrics().roundTrips();

            sent.clear();
            admin.sync().configResetstat();
            assertThat(s.claim(key, "fp", "owner", LEASE)).isInstanceOf(ClaimResult.Claimed.class);
            assertThat(sent).as("claim, client side").containsExactly("EVALSHA");
            assertThat(scriptCalls()).as("claim, server side").isEqualTo(List.of(1L, 0L));

            sent.clear();
            assertThat(s.complete(key, "owner", CREATED, TTL)).isTrue();
            assertThat(sent).as("complete").containsExactly("EVALSHA");
            assertThat(scriptCalls()).isEqualTo(List.of(2L, 0L));

            sent.clear();
            admin.sync().configResetstat();
            assertThat(s.claim(key, "fp", "dup", LEASE)).isEqualTo(new ClaimResult.Completed("fp", CREATED));
            assertThat(sent).as("replay").containsExactly("EVALSHA");
            assertThat(scriptCalls()).isEqualTo(List.of(1L, 0L));

            sent.clear();
            assertThat(s.claim(unique("k"), "fp", "o", LEASE)).isInstanceOf(ClaimResult.Claimed.class);
            assertThat(s.release(key + "-none", "o")).isFalse();
            assertThat(sent).as("claim + release").containsExactly("EVALSHA", "EVALSHA");
            assertThat(s.metrics().roundTrips() - before).isEqualTo(5);
        } finally {
            client.removeListener(listener);
        }
    }

    /** EVALSHA and EVAL calls the server counted since the last CONFIG RESETSTAT. */
    private List<Long> scriptCalls() {
        Map<String, Long> calls = commandCalls(admin);
        return List.of(calls.getOrDefault("evalsha", 0L), calls.getOrDefault("eval", 0L));
    }

    @Test
    void aResponseOverTheBoundIsRefusedAndNothingIsWritten() {
        RedisIdempotencyStore small = RedisIdempotencyStore.of(unique("small"),
                RedisIdempotencyStoreConfig.builder().callTimeout(PATIENT).maxResponseBytes(64).build(), bytes);
        String key = unique("k");
        small.claim(key, "fp", "owner", LEASE);
        assertThat(small.complete(key, "owner", StoredResponse.of(200, Map.of(), new byte[59]), TTL)).isTrue();
        String big = unique("k");
        small.claim(big, "fp", "owner", LEASE);
        assertThatThrownBy(() -> small.complete(big, "owner", StoredResponse.of(200, Map.of(), new byte[60]), TTL))
                .isInstanceOf(ResponseTooLargeException.class).hasMessageContaining("65 bytes, over maxResponseBytes 64");
        assertThat(admin.sync().hget(small.key(big), "s")).isEqualTo("p");
        assertThat(small.storeAvailable()).isTrue();
    }

    @Test
    void aRecordTheStoreCannotReadIsAStoreError() {
        String key = unique("k");
        admin.sync().hset(store.key(key), Map.of("s", "c", "f", "fp", "r", "not a response"));
        admin.sync().pexpire(store.key(key), 60_000);
        assertThatThrownBy(() -> store.claim(key, "fp", "o", LEASE)).isInstanceOf(IdempotencyStoreException.class)
                .hasMessageContaining("unexpected answer to claim");
        String partial = unique("k");
        admin.sync().hset(store.key(partial), Map.of("s", "c", "f", "fp"));
        admin.sync().pexpire(store.key(partial), 60_000);
        assertThatThrownBy(() -> store.claim(partial, "fp", "o", LEASE)).isInstanceOf(IdempotencyStoreException.class);
        assertThat(store.metrics().storeErrors()).isEqualTo(2);
    }

    @Test
    void fingerprintsAndTokensAreBinarySafeUtf8() {
        String key = unique("clé-☃");
        store.claim(key, "sha256:ü☃\u0000x", "owner-☃", LEASE);
        assertThat(store.claim(key, "other", "o2", LEASE)).isInstanceOfSatisfying(ClaimResult.InProgress.class,
                r -> assertThat(r.fingerprint()).isEqualTo("sha256:ü☃\u0000x"));
        assertThat(store.complete(key, "owner-☃", CREATED, TTL)).isTrue();
    }
}

package dev.levee.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.idempotency.ClaimResult;
import dev.levee.idempotency.IdempotencyStore;
import dev.levee.idempotency.StoredResponse;
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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract every {@link IdempotencyStore} keeps (its Javadoc's guarantees), as tests. A store's
 * test class extends this and says how to make an empty store and how to let time pass for it:
 *
 * <pre>{@code
 * class InMemoryIdempotencyStoreContractTest extends IdempotencyStoreContract {
 *     final ManualTicker ticker = new ManualTicker();
 *     protected IdempotencyStore newStore() { return InMemoryIdempotencyStore.builder().ticker(ticker).build(); }
 *     protected void elapse(Duration d) { ticker.advance(d); }
 * }
 * }</pre>
 *
 * A store on a server's clock (Redis) lets real time pass in {@link #elapse} and may lengthen
 * {@link #shortTime()}. Each test uses its own keys, so a shared server needs no cleaning between tests
 * as long as {@link #newStore()} gives a fresh key prefix.
 */
public abstract class IdempotencyStoreContract {
    /** A lease or time to live that the contract never waits out. */
    protected static final Duration LONG = Duration.ofHours(1);

    private IdempotencyStore store;

    /** For subclasses. */
    protected IdempotencyStoreContract() {}

    /**
     * A new, empty store (or a fresh key space on a shared server).
     *
     * @return the store under test
     * @throws Exception if it cannot be made
     */
    protected abstract IdempotencyStore newStore() throws Exception;

    /**
     * Lets at least {@code amount} pass on the store's clock: advance a manual ticker, or sleep for a
     * store on a server's clock.
     *
     * @param amount how much time must pass
     * @throws InterruptedException if interrupted while waiting
     */
    protected abstract void elapse(Duration amount) throws InterruptedException;

    /**
     * A lease or time to live the contract waits out with {@link #elapse}: 1 s by default (free on a
     * manual ticker); a store on real time may shorten it, one that rounds may lengthen it.
     *
     * @return a short positive duration
     */
    protected Duration shortTime() {
        return Duration.ofSeconds(1);
    }

    /**
     * How many threads race for one key in the concurrency test.
     *
     * @return the thread count (default 32)
     */
    protected int racingThreads() {
        return 32;
    }

    @BeforeEach
    final void makeStore() throws Exception {
        store = newStore();
    }

    /**
     * The store under test.
     *
     * @return the store made for this test
     */
    protected final IdempotencyStore store() {
        return store;
    }

    private static StoredResponse response(int status, String body) {
        return StoredResponse.of(status, Map.of("content-type", List.of("text/plain")), body.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aFreeKeyIsClaimed() {
        assertThat(store.claim("k-free", "fp", "owner-1", LONG)).isEqualTo(new ClaimResult.Claimed(false));
    }

    @Test
    void aSecondClaimSeesTheHolderInProgressWithItsFingerprintAndLease() {
        store.claim("k-held", "fp-1", "owner-1", LONG);
        ClaimResult second = store.claim("k-held", "fp-2", "owner-2", LONG);
        assertThat(second).isInstanceOf(ClaimResult.InProgress.class);
        ClaimResult.InProgress inProgress = (ClaimResult.InProgress) second;
        assertThat(inProgress.fingerprint()).isEqualTo("fp-1");
        assertThat(inProgress.leaseRemaining()).isPositive().isLessThanOrEqualTo(LONG);
    }

    @Test
    void theOwnerCompletesAndEveryLaterClaimSeesTheStoredResponse() {
        store.claim("k-done", "fp-1", "owner-1", LONG);
        StoredResponse response = response(201, "charged");
        assertThat(store.complete("k-done", "owner-1", response, LONG)).isTrue();
        for (int i = 0; i < 3; i++) {
            assertThat(store.claim("k-done", "fp-other", "owner-" + (i + 2), LONG))
                    .isEqualTo(new ClaimResult.Completed("fp-1", response));
        }
    }

    @Test
    void theResponseComesBackExactly() {
        byte[] body = new byte[256];
        for (int i = 0; i < body.length; i++) {
            body[i] = (byte) i;
        }
        StoredResponse response = StoredResponse.of(422, Map.of(
                "Location", List.of("/charges/1"),
                "x-multi", List.of("a", "b, c", ""),
                "content-type", List.of("application/octet-stream")), body);
        store.claim("k-bytes", "", "owner-1", LONG);
        assertThat(store.complete("k-bytes", "owner-1", response, LONG)).isTrue();
        ClaimResult.Completed completed = (ClaimResult.Completed) store.claim("k-bytes", "", "owner-2", LONG);
        assertThat(completed.fingerprint()).isEmpty();
        assertThat(completed.response()).isEqualTo(response);
        assertThat(completed.response().body()).containsExactly(body);

        StoredResponse empty = StoredResponse.of(204, Map.of(), new byte[0]);
        store.claim("k-empty", "fp", "owner-1", LONG);
        store.complete("k-empty", "owner-1", empty, LONG);
        assertThat(store.claim("k-empty", "fp", "owner-2", LONG)).isEqualTo(new ClaimResult.Completed("fp", empty));
    }

    @Test
    void onlyTheOwnerCompletes() {
        store.claim("k-thief", "fp-1", "owner-1", LONG);
        assertThat(store.complete("k-thief", "owner-2", response(200, "stolen"), LONG)).isFalse();
        assertThat(store.claim("k-thief", "fp-1", "owner-3", LONG)).isInstanceOf(ClaimResult.InProgress.class);
        assertThat(store.complete("k-thief", "owner-1", response(200, "mine"), LONG)).isTrue();
        assertThat(store.claim("k-thief", "fp-1", "owner-3", LONG))
                .isEqualTo(new ClaimResult.Completed("fp-1", response(200, "mine")));
    }

    @Test
    void theOwnerReleasesAndTheNextClaimTakesTheKey() {
        store.claim("k-release", "fp-1", "owner-1", LONG);
        assertThat(store.release("k-release", "owner-1")).isTrue();
        assertThat(store.claim("k-release", "fp-2", "owner-2", LONG)).isEqualTo(new ClaimResult.Claimed(false));
        assertThat(store.release("k-release", "owner-1")).as("a second release by the old owner").isFalse();
        assertThat(store.claim("k-release", "fp-3", "owner-3", LONG)).isInstanceOf(ClaimResult.InProgress.class);
    }

    @Test
    void onlyTheOwnerReleases() {
        store.claim("k-rel-thief", "fp-1", "owner-1", LONG);
        assertThat(store.release("k-rel-thief", "owner-2")).isFalse();
        assertThat(store.claim("k-rel-thief", "fp-1", "owner-3", LONG)).isInstanceOf(ClaimResult.InProgress.class);
    }

    @Test
    void aCompletedRecordIsNotReleased() {
        store.claim("k-rel-done", "fp-1", "owner-1", LONG);
        store.complete("k-rel-done", "owner-1", response(200, "ok"), LONG);
        assertThat(store.release("k-rel-done", "owner-1")).isFalse();
        assertThat(store.complete("k-rel-done", "owner-1", response(500, "again"), LONG)).isFalse();
        assertThat(store.claim("k-rel-done", "fp-1", "owner-2", LONG))
                .isEqualTo(new ClaimResult.Completed("fp-1", response(200, "ok")));
    }

    @Test
    void unknownKeysAreNeitherCompletedNorReleased() {
        assertThat(store.complete("k-unknown", "owner-1", response(200, "ok"), LONG)).isFalse();
        assertThat(store.release("k-unknown", "owner-1")).isFalse();
        assertThat(store.claim("k-unknown", "fp", "owner-2", LONG)).isEqualTo(new ClaimResult.Claimed(false));
    }

    @Test
    void aLapsedLeaseIsTakenOverAndTheCrashedOwnerCanNoLongerWrite() throws InterruptedException {
        store.claim("k-crash", "fp-1", "owner-1", shortTime());
        elapse(shortTime().multipliedBy(2));
        assertThat(store.claim("k-crash", "fp-2", "owner-2", LONG)).isIn(new ClaimResult.Claimed(true), new ClaimResult.Claimed(false));
        assertThat(store.complete("k-crash", "owner-1", response(200, "late"), LONG)).isFalse();
        assertThat(store.release("k-crash", "owner-1")).isFalse();
        ClaimResult third = store.claim("k-crash", "fp-3", "owner-3", LONG);
        assertThat(third).isInstanceOf(ClaimResult.InProgress.class);
        assertThat(((ClaimResult.InProgress) third).fingerprint()).isEqualTo("fp-2");
        assertThat(store.complete("k-crash", "owner-2", response(201, "new owner"), LONG)).isTrue();
    }

    @Test
    void aLeaseHoldsUntilItLapses() throws InterruptedException {
        store.claim("k-lease", "fp-1", "owner-1", LONG);
        elapse(shortTime());
        assertThat(store.claim("k-lease", "fp-1", "owner-2", LONG)).isInstanceOf(ClaimResult.InProgress.class);
    }

    @Test
    void aCompletedRecordExpiresAfterItsTimeToLive() throws InterruptedException {
        store.claim("k-ttl", "fp-1", "owner-1", LONG);
        store.complete("k-ttl", "owner-1", response(200, "ok"), shortTime());
        elapse(shortTime().multipliedBy(2));
        assertThat(store.claim("k-ttl", "fp-2", "owner-2", LONG)).isEqualTo(new ClaimResult.Claimed(false));
    }

    @Test
    void aCompletedRecordLivesForItsTimeToLive() throws InterruptedException {
        store.claim("k-ttl-live", "fp-1", "owner-1", shortTime());
        store.complete("k-ttl-live", "owner-1", response(200, "ok"), LONG);
        elapse(shortTime().multipliedBy(2));
        assertThat(store.claim("k-ttl-live", "fp-1", "owner-2", LONG))
                .as("the lease no longer matters once completed")
                .isEqualTo(new ClaimResult.Completed("fp-1", response(200, "ok")));
    }

    @Test
    void keysAreIndependentAndAnyCharactersWork() {
        String[] keys = {"tenant-a\u0000k", "tenant-b\u0000k", "{braces}:colon", "ключ-\uD83D\uDE00", "x".repeat(300)};
        for (String key : keys) {
            assertThat(store.claim(key, "fp", "owner", LONG)).as(key).isEqualTo(new ClaimResult.Claimed(false));
        }
        assertThat(store.complete(keys[0], "owner", response(200, "a"), LONG)).isTrue();
        assertThat(store.claim(keys[1], "fp", "other", LONG)).isInstanceOf(ClaimResult.InProgress.class);
        assertThat(store.claim(keys[0], "fp", "other", LONG)).isEqualTo(new ClaimResult.Completed("fp", response(200, "a")));
    }

    @Test
    void ofManyConcurrentClaimsOfAFreeKeyExactlyOneWins() throws Exception {
        int threads = racingThreads();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < 20; round++) {
                String key = "k-race-" + round;
                CountDownLatch start = new CountDownLatch(1);
                List<Future<ClaimResult>> results = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    String owner = "owner-" + t;
                    results.add(pool.submit(() -> {
                        start.await();
                        return store.claim(key, "fp", owner, LONG);
                    }));
                }
                start.countDown();
                int winners = 0;
                for (Future<ClaimResult> f : results) {
                    ClaimResult r = f.get(60, TimeUnit.SECONDS);
                    if (r instanceof ClaimResult.Claimed) {
                        winners++;
                    } else {
                        assertThat(r).isInstanceOf(ClaimResult.InProgress.class);
                    }
                }
                assertThat(winners).as("round %d", round).isEqualTo(1);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void ofConcurrentCompletionsAndReleasesOnlyTheOwnersActs() throws Exception {
        int threads = racingThreads();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            store.claim("k-race-owner", "fp", "owner-0", LONG);
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Boolean>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                String owner = "owner-" + t;
                boolean release = t % 2 == 1;
                results.add(pool.submit(() -> {
                    start.await();
                    return release ? store.release("k-race-owner", owner)
                            : store.complete("k-race-owner", owner, response(200, owner), LONG);
                }));
            }
            start.countDown();
            int acted = 0;
            for (Future<Boolean> f : results) {
                acted += f.get(60, TimeUnit.SECONDS) ? 1 : 0;
            }
            assertThat(acted).isEqualTo(1);
            assertThat(store.claim("k-race-owner", "fp", "later", LONG))
                    .isEqualTo(new ClaimResult.Completed("fp", response(200, "owner-0")));
        } finally {
            pool.shutdownNow();
        }
    }
}

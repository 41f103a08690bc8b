package dev.levee.idempotency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.BulkheadFullException;
import dev.levee.core.ContextScope;
import dev.levee.core.Deadline;
import dev.levee.core.ManualTicker;
import dev.levee.core.RandomSource;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Each rule of the guard, on a manual ticker with seeded owner tokens. */
class IdempotencyGuardTest {
    private final ManualTicker ticker = new ManualTicker();
    private final InMemoryIdempotencyStore store = InMemoryIdempotencyStore.builder().ticker(ticker).build();
    private final AtomicInteger runs = new AtomicInteger();
    private final List<IdempotencyGuardEvent> events = new ArrayList<>();

    private IdempotencyGuardConfig.Builder config() {
        return IdempotencyGuardConfig.builder().store(store).ticker(ticker).sleeper(ticker).random(RandomSource.seeded(7));
    }

    private IdempotencyGuard guard(IdempotencyGuardConfig.Builder b) {
        IdempotencyGuard g = IdempotencyGuard.of("payments", b.build());
        g.onEvent(events::add);
        return g;
    }

    private static IdempotencyRequest post(String body) {
        return new IdempotencyRequest("POST", "/charges", body.getBytes(StandardCharsets.UTF_8));
    }

    private GuardedHandler answering(int status, String body) {
        return () -> {
            runs.incrementAndGet();
            return StoredResponse.of(status, Map.of("Content-Type", List.of("text/plain"), "X-Secret", List.of("s3")),
                    body.getBytes(StandardCharsets.UTF_8));
        };
    }

    private static String body(IdempotencyResult r) {
        return new String(r.response().body(), StandardCharsets.UTF_8);
    }

    @Test
    void theFirstRequestRunsAndADuplicateGetsTheStoredResponseMarkedAsReplay() throws Exception {
        IdempotencyGuard g = guard(config());
        IdempotencyResult first = g.handle("t1", "key-1", post("{\"amount\":10}"), answering(201, "charge ch_1"));
        assertThat(first.kind()).isEqualTo(IdempotencyResult.Kind.EXECUTED);
        assertThat(first.stored()).isTrue();
        assertThat(first.response().headers()).containsKey("x-secret"); // the first caller gets everything

        IdempotencyResult second = g.handle("t1", "key-1", post("{\"amount\":10}"), answering(201, "charge ch_2"));
        assertThat(second.kind()).isEqualTo(IdempotencyResult.Kind.REPLAYED);
        assertThat(second.executed()).isFalse();
        assertThat(second.response().status()).isEqualTo(201);
        assertThat(body(second)).isEqualTo("charge ch_1");
        assertThat(second.response().headers()).containsEntry("idempotent-replayed", List.of("true"))
                .containsEntry("content-type", List.of("text/plain"))
                .doesNotContainKey("x-secret"); // only the selected headers are stored
        assertThat(runs).hasValue(1);
        assertThat(g.metrics().claims()).isEqualTo(1);
        assertThat(g.metrics().replays()).isEqualTo(1);
        assertThat(g.metrics().stored()).isEqualTo(1);
        assertThat(events).extracting(e -> e.getClass().getSimpleName()).containsExactly("Claimed", "Stored", "Replayed");
    }

    @Test
    void aDuplicateWhileTheFirstRunsGets409WithRetryAfterFromTheLease() throws Exception {
        IdempotencyGuard g = guard(config().lease(Duration.ofSeconds(60)));
        IdempotencyResult[] duplicate = new IdempotencyResult[1];
        g.handle("t1", "key-1", post("a"), () -> {
            ticker.advance(Duration.ofSeconds(15));
            duplicate[0] = g.handle("t1", "key-1", post("a"), answering(200, "never"));
            return StoredResponse.of(200, Map.of(), new byte[0]);
        });
        assertThat(duplicate[0].kind()).isEqualTo(IdempotencyResult.Kind.IN_PROGRESS);
        assertThat(duplicate[0].response().status()).isEqualTo(409);
        assertThat(duplicate[0].response().headers()).containsEntry("retry-after", List.of("45"));
        assertThat(runs).hasValue(0);
        assertThat(g.metrics().inProgress()).isEqualTo(1);
    }

    @Test
    void theLeaseIsTheRequestsDeadlineWhenOneIsCurrent() throws Exception {
        IdempotencyGuard g = guard(config());
        IdempotencyResult[] duplicate = new IdempotencyResult[1];
        try (ContextScope ignored = Deadline.after(Duration.ofSeconds(5), ticker).attach()) {
            g.handle("t1", "key-1", post("a"), () -> {
                duplicate[0] = g.handle("t1", "key-1", post("a"), answering(200, "never"));
                return StoredResponse.of(500, Map.of(), new byte[0]);
            });
        }
        assertThat(duplicate[0].response().headers()).containsEntry("retry-after", List.of("5"));
    }

    @Test
    void theLeaseIgnoresTheDeadlineWhenToldTo() throws Exception {
        IdempotencyGuard g = guard(config().leaseFromDeadline(false).lease(Duration.ofSeconds(90)));
        IdempotencyResult[] duplicate = new IdempotencyResult[1];
        try (ContextScope ignored = Deadline.after(Duration.ofSeconds(5), ticker).attach()) {
            g.handle("t1", "key-1", post("a"), () -> {
                duplicate[0] = g.handle("t1", "key-1", post("a"), answering(200, "never"));
                return StoredResponse.of(500, Map.of(), new byte[0]);
            });
        }
        assertThat(duplicate[0].response().headers()).containsEntry("retry-after", List.of("90"));
    }

    @Test
    void anExpiredDeadlineStillLeasesBrieflyAndNeverWedgesTheKey() throws Exception {
        IdempotencyGuard g = guard(config());
        try (ContextScope ignored = Deadline.after(Duration.ZERO, ticker).attach()) {
            store.claim("x", "", "y", Duration.ofSeconds(1)); // unrelated key: the store works
            IdempotencyResult[] duplicate = new IdempotencyResult[1];
            g.handle("t1", "key-1", post("a"), () -> {
                duplicate[0] = g.handle("t1", "key-1", post("a"), answering(200, "never"));
                throw new java.util.concurrent.TimeoutException("the deadline had passed");
            });
        } catch (java.util.concurrent.TimeoutException expected) {
            // the handler's own exception, unchanged
        }
        ticker.advance(Duration.ofMillis(1));
        assertThat(g.handle("t1", "key-1", post("a"), answering(201, "ok")).kind()).isEqualTo(IdempotencyResult.Kind.EXECUTED);
    }

    @Test
    void aWaitingDuplicateGetsTheFirstOutcomeFromAnyStore() throws Exception {
        // The first request runs elsewhere (another instance): the duplicate polls the store.
        String recordKey = IdempotencyGuard.recordKey("t1", "key-1");
        IdempotencyGuard probe = guard(config());
        String fingerprint = probe.fingerprint(post("a"));
        store.claim(recordKey, fingerprint, "other-instance", Duration.ofSeconds(60));
        AtomicInteger sleeps = new AtomicInteger();
        IdempotencyGuard g = guard(config().maxWait(Duration.ofSeconds(30)).sleeper(nanos -> {
            ticker.advance(nanos);
            if (sleeps.incrementAndGet() == 3) {
                store.complete(recordKey, "other-instance", StoredResponse.of(201, Map.of(), "ch_1".getBytes(StandardCharsets.UTF_8)),
                        Duration.ofHours(1));
            }
        }));
        IdempotencyResult r = g.handle("t1", "key-1", post("a"), answering(201, "ch_2"));
        assertThat(r.kind()).isEqualTo(IdempotencyResult.Kind.REPLAYED);
        assertThat(body(r)).isEqualTo("ch_1");
        assertThat(sleeps).hasValue(3);
        assertThat(ticker.read()).as("10 + 20 + 40 ms of backoff").isEqualTo(Duration.ofMillis(70).toNanos());
        assertThat(runs).hasValue(0);
    }

    @Test
    void aWaitingDuplicateGives409WhenItsWaitRunsOut() throws Exception {
        String recordKey = IdempotencyGuard.recordKey("t1", "key-1");
        IdempotencyGuard g = guard(config().maxWait(Duration.ofSeconds(3)));
        store.claim(recordKey, g.fingerprint(post("a")), "other-instance", Duration.ofSeconds(60));
        IdempotencyResult r = g.handle("t1", "key-1", post("a"), answering(201, "never"));
        assertThat(r.kind()).isEqualTo(IdempotencyResult.Kind.IN_PROGRESS);
        assertThat(ticker.read()).isEqualTo(Duration.ofSeconds(3).toNanos());
        assertThat(r.response().headers()).containsEntry("retry-after", List.of("57"));
        assertThat(runs).hasValue(0);
    }

    @Test
    void aWaitingDuplicateStopsAtItsDeadline() throws Exception {
        String recordKey = IdempotencyGuard.recordKey("t1", "key-1");
        IdempotencyGuard g = guard(config().maxWait(Duration.ofSeconds(30)));
        store.claim(recordKey, g.fingerprint(post("a")), "other-instance", Duration.ofSeconds(60));
        try (ContextScope ignored = Deadline.after(Duration.ofMillis(500), ticker).attach()) {
            assertThat(g.handle("t1", "key-1", post("a"), answering(201, "never")).kind()).isEqualTo(IdempotencyResult.Kind.IN_PROGRESS);
        }
        assertThat(ticker.read()).isEqualTo(Duration.ofMillis(500).toNanos());
    }

    @Test
    void aWaitingDuplicateRunsItselfWhenTheFirstIsReleasedOrItsLeaseLapses() throws Exception {
        String recordKey = IdempotencyGuard.recordKey("t1", "key-1");
        IdempotencyGuard g = guard(config().maxWait(Duration.ofSeconds(30)));
        store.claim(recordKey, g.fingerprint(post("a")), "crashed", Duration.ofSeconds(2));
        IdempotencyResult r = g.handle("t1", "key-1", post("a"), answering(201, "mine"));
        assertThat(r.kind()).isEqualTo(IdempotencyResult.Kind.EXECUTED);
        assertThat(ticker.read()).as("looked again as the lease lapsed").isEqualTo(Duration.ofSeconds(2).toNanos());
        assertThat(g.metrics().leaseTakeovers()).isEqualTo(1);
    }

    @Test
    void anInterruptedWaitAnswers409AndKeepsTheFlag() throws Exception {
        String recordKey = IdempotencyGuard.recordKey("t1", "key-1");
        IdempotencyGuard g = guard(config().maxWait(Duration.ofSeconds(30)));
        store.claim(recordKey, g.fingerprint(post("a")), "other", Duration.ofSeconds(60));
        Thread.currentThread().interrupt();
        try {
            assertThat(g.handle("t1", "key-1", post("a"), answering(201, "never")).kind()).isEqualTo(IdempotencyResult.Kind.IN_PROGRESS);
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void theSameKeyWithADifferentRequestGets422AndNeverTheOtherResponse() throws Exception {
        IdempotencyGuard g = guard(config());
        g.handle("t1", "key-1", post("{\"amount\":10}"), answering(201, "charged 10"));
        for (IdempotencyRequest other : List.of(post("{\"amount\":99}"),
                new IdempotencyRequest("PUT", "/charges", "{\"amount\":10}".getBytes(StandardCharsets.UTF_8)),
                new IdempotencyRequest("POST", "/refunds", "{\"amount\":10}".getBytes(StandardCharsets.UTF_8)))) {
            IdempotencyResult r = g.handle("t1", "key-1", other, answering(201, "charged 99"));
            assertThat(r.kind()).isEqualTo(IdempotencyResult.Kind.MISMATCH);
            assertThat(r.response().status()).isEqualTo(422);
            assertThat(body(r)).doesNotContain("charged");
        }
        assertThat(runs).hasValue(1);
        assertThat(g.metrics().mismatches()).isEqualTo(3);
    }

    @Test
    void aDifferentRequestWhileTheFirstRunsGets422Too() throws Exception {
        IdempotencyGuard g = guard(config());
        IdempotencyResult[] other = new IdempotencyResult[1];
        g.handle("t1", "key-1", post("a"), () -> {
            other[0] = g.handle("t1", "key-1", post("b"), answering(200, "never"));
            return StoredResponse.of(200, Map.of(), new byte[0]);
        });
        assertThat(other[0].kind()).isEqualTo(IdempotencyResult.Kind.MISMATCH);
    }

    @Test
    void partsLeftOutOfTheFingerprintDoNotCount() throws Exception {
        IdempotencyGuard g = guard(config().fingerprintParts(java.util.Set.of(FingerprintPart.BODY)));
        g.handle("t1", "key-1", post("a"), answering(201, "one"));
        IdempotencyRequest otherPath = new IdempotencyRequest("POST", "/elsewhere", "a".getBytes(StandardCharsets.UTF_8));
        assertThat(g.handle("t1", "key-1", otherPath, answering(201, "two")).kind()).isEqualTo(IdempotencyResult.Kind.REPLAYED);
        IdempotencyGuard unchecked = guard(config().checkFingerprint(false));
        assertThat(unchecked.handle("t1", "key-1", post("zzz"), answering(201, "three")).kind())
                .isEqualTo(IdempotencyResult.Kind.REPLAYED);
    }

    @Test
    void fingerprintsSeparateTheirPartsUnambiguously() {
        IdempotencyGuard g = guard(config());
        assertThat(g.fingerprint(new IdempotencyRequest("POST", "/ab", new byte[0])))
                .isNotEqualTo(g.fingerprint(new IdempotencyRequest("POST", "/a", "b".getBytes(StandardCharsets.UTF_8))))
                .hasSize(64);
    }

    @Test
    void transientOutcomesReleaseTheKeySoARetryRuns() throws Exception {
        IdempotencyGuard g = guard(config());
        int i = 0;
        for (int status : new int[] {500, 502, 503, 504, 408, 409, 429}) {
            IdempotencyResult r = g.handle("t1", "key-" + i, post("a"), answering(status, "transient"));
            assertThat(r.kind()).isEqualTo(IdempotencyResult.Kind.EXECUTED);
            assertThat(r.stored()).isFalse();
            assertThat(r.response().status()).isEqualTo(status);
            IdempotencyResult retry = g.handle("t1", "key-" + i, post("a"), answering(201, "ok"));
            assertThat(retry.kind()).as("retry after %d", status).isEqualTo(IdempotencyResult.Kind.EXECUTED);
            i++;
        }
        assertThat(runs).hasValue(14);
        assertThat(g.metrics().released()).isEqualTo(7);
    }

    @Test
    void anExceptionComesOutUnchangedAndReleasesTheKey() throws Exception {
        IdempotencyGuard g = guard(config());
        IOException checked = new IOException("downstream reset");
        assertThatThrownBy(() -> g.handle("t1", "k", post("a"), () -> {
            throw checked;
        })).isSameAs(checked);
        BulkheadFullException rejected = new BulkheadFullException("pool", "full", 0);
        assertThatThrownBy(() -> g.handle("t1", "k", post("a"), () -> {
            throw rejected;
        })).isSameAs(rejected);
        StackOverflowError error = new StackOverflowError();
        assertThatThrownBy(() -> g.handle("t1", "k", post("a"), () -> {
            throw error;
        })).isSameAs(error);
        assertThat(g.handle("t1", "k", post("a"), answering(201, "ok")).kind()).isEqualTo(IdempotencyResult.Kind.EXECUTED);
        assertThat(g.metrics().released()).isEqualTo(3);
        assertThat(events).filteredOn(e -> e instanceof IdempotencyGuardEvent.Released).hasSize(3);
    }

    @Test
    void deterministicOutcomesAreStored() throws Exception {
        IdempotencyGuard g = guard(config());
        int i = 0;
        for (int status : new int[] {200, 201, 400, 402, 404, 422}) {
            g.handle("t1", "key-" + i, post("a"), answering(status, "final " + status));
            IdempotencyResult again = g.handle("t1", "key-" + i, post("a"), answering(201, "second"));
            assertThat(again.kind()).isEqualTo(IdempotencyResult.Kind.REPLAYED);
            assertThat(again.response().status()).isEqualTo(status);
            assertThat(body(again)).isEqualTo("final " + status);
            i++;
        }
        assertThat(runs).hasValue(6);
    }

    @Test
    void theStoreRuleIsConfigurable() throws Exception {
        IdempotencyGuard g = guard(config().storeRule(r -> r.status() < 300));
        g.handle("t1", "k", post("a"), answering(400, "bad"));
        assertThat(g.handle("t1", "k", post("a"), answering(201, "ok")).kind()).isEqualTo(IdempotencyResult.Kind.EXECUTED);
        IdempotencyGuard throwing = guard(config().storeRule(r -> {
            throw new IllegalStateException("buggy rule");
        }));
        IdempotencyResult r = throwing.handle("t1", "k2", post("a"), answering(201, "ok"));
        assertThat(r.stored()).isFalse();
    }

    @Test
    void recordsExpireAfterTheirTimeToLive() throws Exception {
        IdempotencyGuard g = guard(config());
        g.handle("t1", "k", post("a"), answering(201, "one"));
        ticker.advance(Duration.ofHours(24).minusNanos(1));
        assertThat(g.handle("t1", "k", post("a"), answering(201, "two")).kind()).isEqualTo(IdempotencyResult.Kind.REPLAYED);
        ticker.advance(Duration.ofNanos(1));
        assertThat(g.handle("t1", "k", post("a"), answering(201, "two")).kind()).isEqualTo(IdempotencyResult.Kind.EXECUTED);
        assertThat(runs).hasValue(2);
    }

    @Test
    void aCrashedExecutorsClaimLapsesWithItsLease() throws Exception {
        IdempotencyGuard g = guard(config());
        // The process that claimed it died mid-request: its claim is in the store, nobody will release it.
        store.claim(IdempotencyGuard.recordKey("t1", "k"), g.fingerprint(post("a")), "crashed-owner", g.config().lease());
        assertThat(g.handle("t1", "k", post("a"), answering(201, "x")).kind()).isEqualTo(IdempotencyResult.Kind.IN_PROGRESS);
        ticker.advance(Duration.ofSeconds(60));
        IdempotencyResult r = g.handle("t1", "k", post("a"), answering(201, "after the crash"));
        assertThat(r.kind()).isEqualTo(IdempotencyResult.Kind.EXECUTED);
        assertThat(g.metrics().leaseTakeovers()).isEqualTo(1);
        assertThat(events).contains(new IdempotencyGuardEvent.Claimed("payments", ticker.read(), true));
        // The crashed owner cannot overwrite the new record if it comes back.
        assertThat(store.complete(IdempotencyGuard.recordKey("t1", "k"), "crashed-owner", StoredResponse.of(500, Map.of(), new byte[0]),
                Duration.ofHours(1))).isFalse();
    }

    @Test
    void aMissingOrMalformedKeyGets400WithAMessage() throws Exception {
        IdempotencyGuard g = guard(config());
        for (String bad : new String[] {null, "", "x".repeat(256), "a\nb", "tab\there", "nul\u0000", "del\u007f", "é", "\uD83D\uDE00"}) {
            IdempotencyResult r = g.handle("t1", bad, post("a"), answering(201, "never"));
            assertThat(r.kind()).as(String.valueOf(bad)).isEqualTo(IdempotencyResult.Kind.BAD_KEY);
            assertThat(r.response().status()).isEqualTo(400);
            assertThat(body(r)).startsWith("Idempotency-Key ");
        }
        assertThat(body(g.handle("t1", null, post("a"), answering(201, "never")))).isEqualTo("Idempotency-Key missing.");
        assertThat(runs).hasValue(0);
        assertThat(g.handle("t1", "x".repeat(255), post("a"), answering(201, "ok")).kind()).isEqualTo(IdempotencyResult.Kind.EXECUTED);
        assertThat(g.handle("t1", " ~!\"#", post("a"), answering(201, "ok")).kind()).isEqualTo(IdempotencyResult.Kind.EXECUTED);
        assertThat(g.metrics().badKeys()).isEqualTo(10);
    }

    @Test
    void twoScopesKeysNeverCollide() throws Exception {
        IdempotencyGuard g = guard(config());
        assertThat(g.handle("tenant-a", "k", post("a"), answering(201, "a")).kind()).isEqualTo(IdempotencyResult.Kind.EXECUTED);
        assertThat(g.handle("tenant-b", "k", post("a"), answering(201, "b")).kind()).isEqualTo(IdempotencyResult.Kind.EXECUTED);
        // "a:b" + "c" must not be "a" + "b:c".
        assertThat(g.handle("a:b", "c", post("a"), answering(201, "1")).kind()).isEqualTo(IdempotencyResult.Kind.EXECUTED);
        assertThat(g.handle("a", "b:c", post("a"), answering(201, "2")).kind()).isEqualTo(IdempotencyResult.Kind.EXECUTED);
        assertThat(IdempotencyGuard.recordKey("a:b", "c")).isNotEqualTo(IdempotencyGuard.recordKey("a", "b:c"));
    }

    @Test
    void ownerTokensAreUniqueAndSeeded() throws Exception {
        FlakyStore recording = new FlakyStore(store);
        IdempotencyGuard g = guard(config().store(recording));
        g.handle("t", "k1", post("a"), answering(201, "x"));
        g.handle("t", "k2", post("a"), answering(201, "x"));
        IdempotencyGuard other = guard(config().store(recording).random(RandomSource.seeded(8)));
        other.handle("t", "k3", post("a"), answering(201, "x"));
        IdempotencyGuard sameSeed = guard(config().store(recording));
        sameSeed.handle("t", "k4", post("a"), answering(201, "x"));
        assertThat(recording.owners).hasSize(4);
        assertThat(recording.owners.subList(0, 3)).doesNotHaveDuplicates().allMatch(t -> t.matches("[0-9a-f]{32}-[0-9a-f]+"));
        assertThat(recording.owners.get(3)).as("reproducible from the seed").isEqualTo(recording.owners.get(0));
    }

    @Test
    void aStoreOutageFailsClosedByDefaultWithOneWarnPerSwitch() throws Exception {
        FlakyStore flaky = new FlakyStore(store);
        IdempotencyGuard g = guard(config().store(flaky));
        flaky.down = true;
        for (int i = 0; i < 3; i++) {
            IdempotencyResult r = g.handle("t", "k", post("a"), answering(201, "never"));
            assertThat(r.kind()).isEqualTo(IdempotencyResult.Kind.STORE_UNAVAILABLE);
            assertThat(r.response().status()).isEqualTo(503);
            assertThat(r.response().headers()).containsEntry("retry-after", List.of("1"));
        }
        assertThat(runs).hasValue(0);
        assertThat(g.metrics().storeAvailable()).isFalse();
        assertThat(g.metrics().storeErrors()).isEqualTo(3);
        flaky.down = false;
        assertThat(g.handle("t", "k", post("a"), answering(201, "ok")).kind()).isEqualTo(IdempotencyResult.Kind.EXECUTED);
        assertThat(g.metrics().storeAvailable()).isTrue();
        assertThat(events).filteredOn(e -> e instanceof IdempotencyGuardEvent.OutageBegan).hasSize(1);
        assertThat(events).filteredOn(e -> e instanceof IdempotencyGuardEvent.OutageEnded).hasSize(1);
    }

    @Test
    void aStoreOutageRunsTheRequestWithoutARecordWhenFailingOpen() throws Exception {
        FlakyStore flaky = new FlakyStore(store);
        IdempotencyGuard g = guard(config().store(flaky).outagePolicy(OutagePolicy.FAIL_OPEN));
        flaky.down = true;
        IdempotencyResult r = g.handle("t", "k", post("a"), answering(201, "ran"));
        assertThat(r.kind()).isEqualTo(IdempotencyResult.Kind.FAILED_OPEN);
        assertThat(r.executed()).isTrue();
        assertThat(body(r)).isEqualTo("ran");
        assertThat(g.metrics().failedOpen()).isEqualTo(1);
        assertThat(events).filteredOn(e -> e instanceof IdempotencyGuardEvent.OutageBegan)
                .singleElement().extracting(e -> ((IdempotencyGuardEvent.OutageBegan) e).policy()).isEqualTo(OutagePolicy.FAIL_OPEN);
    }

    @Test
    void aStoreThatFailsToCompleteLeavesTheResponseWithTheCallerAndTheClaimToLapse() throws Exception {
        FlakyStore flaky = new FlakyStore(store);
        IdempotencyGuard g = guard(config().store(flaky));
        flaky.failComplete = true;
        IdempotencyResult r = g.handle("t", "k", post("a"), answering(201, "ran"));
        assertThat(r.kind()).isEqualTo(IdempotencyResult.Kind.EXECUTED);
        assertThat(r.stored()).isFalse();
        assertThat(g.metrics().storeErrors()).isEqualTo(1);
        flaky.failComplete = false;
        assertThat(g.handle("t", "k", post("a"), answering(201, "x")).kind()).isEqualTo(IdempotencyResult.Kind.IN_PROGRESS);
        ticker.advance(Duration.ofSeconds(60));
        assertThat(g.handle("t", "k", post("a"), answering(201, "x")).kind()).isEqualTo(IdempotencyResult.Kind.EXECUTED);
    }

    @Test
    void aResponseTooLargeToStoreIsNoOutage() throws Exception {
        FlakyStore flaky = new FlakyStore(store);
        IdempotencyGuard g = guard(config().store(flaky));
        flaky.tooLarge = true;
        IdempotencyResult r = g.handle("t", "k", post("a"), answering(201, "a large body"));
        assertThat(r.kind()).isEqualTo(IdempotencyResult.Kind.EXECUTED);
        assertThat(body(r)).isEqualTo("a large body");
        assertThat(r.stored()).isFalse();
        assertThat(g.metrics().storeErrors()).isEqualTo(1);
        assertThat(g.metrics().storeAvailable()).as("the store answered: it is up").isTrue();
        assertThat(events).noneMatch(e -> e instanceof IdempotencyGuardEvent.OutageBegan);
        flaky.tooLarge = false;
        assertThat(g.handle("t", "other", post("a"), answering(201, "x")).kind())
                .as("other keys are still guarded (no fail-closed 503)").isEqualTo(IdempotencyResult.Kind.EXECUTED);
        assertThat(g.handle("t", "k", post("a"), answering(201, "x")).kind())
                .as("the claim lapses with its lease").isEqualTo(IdempotencyResult.Kind.IN_PROGRESS);
    }

    @Test
    void aHandlerReturningNullIsAnErrorAndReleases() {
        IdempotencyGuard g = guard(config());
        assertThatThrownBy(() -> g.handle("t", "k", post("a"), () -> null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("payments");
        assertThat(g.metrics().released()).isEqualTo(1);
    }

    @Test
    void ofDefaultsMakesItsOwnStore() throws Exception {
        IdempotencyGuard g = IdempotencyGuard.ofDefaults("defaults");
        assertThat(g.store()).isInstanceOf(InMemoryIdempotencyStore.class);
        assertThat(g.handle("t", "k", post("a"), answering(201, "x")).kind()).isEqualTo(IdempotencyResult.Kind.EXECUTED);
        assertThat(g.handle("t", "k", post("a"), answering(201, "x")).kind()).isEqualTo(IdempotencyResult.Kind.REPLAYED);
        assertThat(g.name()).isEqualTo("defaults");
        assertThat(g.toString()).contains("defaults");
    }

    /** A store that can be made to fail, and that records owner tokens. */
    static final class FlakyStore implements IdempotencyStore {
        final IdempotencyStore delegate;
        final List<String> owners = new java.util.concurrent.CopyOnWriteArrayList<>();
        volatile boolean down;
        volatile boolean failComplete;
        volatile boolean tooLarge;

        FlakyStore(IdempotencyStore delegate) {
            this.delegate = delegate;
        }

        @Override
        public ClaimResult claim(String recordKey, String fingerprint, String ownerToken, Duration lease) {
            if (down) {
                throw new IdempotencyStoreException("store down", new IOException("connection refused"));
            }
            owners.add(ownerToken);
            return delegate.claim(recordKey, fingerprint, ownerToken, lease);
        }

        @Override
        public boolean complete(String recordKey, String ownerToken, StoredResponse response, Duration timeToLive) {
            if (down || failComplete) {
                throw new IdempotencyStoreException("store down", null);
            }
            if (tooLarge) {
                throw new ResponseTooLargeException("flaky: too large", response.bodyLength(), 1);
            }
            return delegate.complete(recordKey, ownerToken, response, timeToLive);
        }

        @Override
        public boolean release(String recordKey, String ownerToken) {
            if (down) {
                throw new IdempotencyStoreException("store down", null);
            }
            return delegate.release(recordKey, ownerToken);
        }
    }
}

package dev.levee.examples;

import dev.levee.core.ManualTicker;
import dev.levee.core.RandomSource;
import dev.levee.idempotency.ClaimResult;
import dev.levee.idempotency.IdempotencyGuard;
import dev.levee.idempotency.IdempotencyGuardConfig;
import dev.levee.idempotency.IdempotencyRequest;
import dev.levee.idempotency.IdempotencyResult;
import dev.levee.idempotency.IdempotencyStore;
import dev.levee.idempotency.IdempotencyStoreException;
import dev.levee.idempotency.InMemoryIdempotencyStore;
import dev.levee.idempotency.StoredResponse;
import java.io.PrintStream;
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

/**
 * The idempotency guard in front of a charge endpoint (seed 000's payment gateway): a retried charge
 * is replayed, not charged again; a reused key with another amount is refused; a duplicate of a running
 * charge gets 409 (or waits); a 503 releases the key; a crashed executor's claim lapses; bad keys get
 * 400; a store outage fails closed. Manual time and seeded tokens: the output is deterministic.
 */
public final class IdempotencyDemo {
    private IdempotencyDemo() {}

    /**
     * Runs the demo.
     *
     * @param args ignored
     */
    public static void main(String[] args) {
        run(System.out);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static StoredResponse never() {
        throw new AssertionError("a duplicate must not run");
    }

    private static IdempotencyResult charge(IdempotencyGuard guard, IdempotencyExamples.Charges charges, String tenant, String key,
            String amount) throws Exception {
        return IdempotencyExamples.chargeOnce(guard, charges, tenant, key, bytes(amount));
    }

    private static String describe(IdempotencyResult r) {
        String replayed = r.response().headers().containsKey("idempotent-replayed") ? " [Idempotent-Replayed: true]" : "";
        List<String> retryAfter = r.response().headers().get("retry-after");
        String hint = retryAfter == null ? "" : " [Retry-After: " + retryAfter.get(0) + "]";
        return r.kind() + " " + r.response().status() + " " + new String(r.response().body(), StandardCharsets.UTF_8) + replayed + hint;
    }

    /**
     * Runs every part.
     *
     * @param out where to print
     */
    public static void run(PrintStream out) {
        try {
            story(out);
            concurrentDuplicates(out);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void story(PrintStream out) throws Exception {
        ManualTicker ticker = new ManualTicker();
        IdempotencyExamples.Charges charges = new IdempotencyExamples.Charges();
        IdempotencyGuard guard = IdempotencyExamples.deterministic(ticker);

        out.println("POST /charges {10 EUR} key k-1      -> " + describe(charge(guard, charges, "shop", "k-1", "10")));
        out.println("retry, same key (response was lost) -> " + describe(charge(guard, charges, "shop", "k-1", "10")));
        out.println("same key, another amount {99 EUR}   -> " + describe(charge(guard, charges, "shop", "k-1", "99")));
        out.println("same key, another tenant            -> " + describe(charge(guard, charges, "other-shop", "k-1", "10")));

        IdempotencyRequest post = new IdempotencyRequest("POST", "/charges", bytes("20"));
        IdempotencyResult[] duplicate = new IdempotencyResult[1];
        guard.handle("shop", "k-2", post, () -> {
            ticker.advance(Duration.ofSeconds(15));
            duplicate[0] = guard.handle("shop", "k-2", post, IdempotencyDemo::never);
            return StoredResponse.of(201, Map.of(), charges.charge(bytes("20")));
        });
        out.println("duplicate while k-2 runs (15 s in)  -> " + describe(duplicate[0]));

        IdempotencyResult failed = guard.handle("shop", "k-3", post, () -> StoredResponse.of(503, Map.of(), bytes("bank unavailable")));
        out.println("k-3 answered 503, stored: " + failed.stored() + " -> retry "
                + describe(charge(guard, charges, "shop", "k-3", "20")));

        // A process claimed k-4 and died: nobody releases it, its lease (60 s) lapses.
        IdempotencyRequest crashed = new IdempotencyRequest("POST", "/charges", bytes("30"));
        guard.store().claim("4:shop:k-4", "", "crashed-process", Duration.ofSeconds(60));
        IdempotencyGuard unfingerprinted = IdempotencyGuard.of("charges", guard.config().toBuilder().checkFingerprint(false).build());
        out.println("k-4 held by a crashed process       -> "
                + describe(unfingerprinted.handle("shop", "k-4", crashed, IdempotencyDemo::never)));
        ticker.advance(Duration.ofSeconds(60));
        out.println("60 s later, the lease has lapsed    -> " + describe(unfingerprinted.handle("shop", "k-4", crashed,
                () -> StoredResponse.of(201, Map.of(), charges.charge(bytes("30"))))) + " (lease takeovers: "
                + unfingerprinted.metrics().leaseTakeovers() + ")");

        out.println("no key                              -> " + describe(guard.handle("shop", null, post, IdempotencyDemo::never)));
        out.println("key with a newline                  -> " + describe(guard.handle("shop", "a\nb", post, IdempotencyDemo::never)));
        ticker.advance(Duration.ofHours(24));
        out.println("k-1 after 24 h (record expired)     -> " + describe(charge(guard, charges, "shop", "k-1", "10")));

        IdempotencyStore down = new IdempotencyStore() {
            @Override
            public ClaimResult claim(String recordKey, String fingerprint, String ownerToken, Duration lease) {
                throw new IdempotencyStoreException("connection refused", null);
            }

            @Override
            public boolean complete(String recordKey, String ownerToken, StoredResponse response, Duration timeToLive) {
                throw new IdempotencyStoreException("connection refused", null);
            }

            @Override
            public boolean release(String recordKey, String ownerToken) {
                throw new IdempotencyStoreException("connection refused", null);
            }
        };
        IdempotencyGuard closed = IdempotencyGuard.of("charges", guard.config().toBuilder().store(down).build());
        out.println("store down, fail closed (default)   -> " + describe(charge(closed, charges, "shop", "k-5", "10")));
        out.println("charges made: " + charges.made() + " (k-1, other tenant's k-1, k-2, k-3 retry, k-4 after the crash, k-1 after expiry)");
    }

    private static void concurrentDuplicates(PrintStream out) throws Exception {
        int duplicates = 100;
        ManualTicker ticker = new ManualTicker();
        IdempotencyGuard guard = IdempotencyGuard.of("charges", IdempotencyGuardConfig.builder()
                .store(InMemoryIdempotencyStore.builder().ticker(ticker).build())
                .ticker(ticker).random(RandomSource.seeded(5))
                .maxWait(Duration.ofSeconds(10))
                .build());
        IdempotencyExamples.Charges charges = new IdempotencyExamples.Charges();
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(duplicates);
        try {
            List<Future<IdempotencyResult>> results = new ArrayList<>();
            for (int i = 0; i < duplicates; i++) {
                results.add(pool.submit(() -> {
                    go.await();
                    return IdempotencyExamples.chargeOnce(guard, charges, "shop", "k-burst", bytes("50"));
                }));
            }
            go.countDown();
            java.util.Set<String> bodies = new java.util.TreeSet<>();
            for (Future<IdempotencyResult> f : results) {
                bodies.add(new String(f.get(30, TimeUnit.SECONDS).response().body(), StandardCharsets.UTF_8));
            }
            out.println(duplicates + " concurrent duplicates (waiting mode): " + charges.made() + " charge, "
                    + bodies.size() + " distinct response " + bodies);
        } finally {
            pool.shutdownNow();
        }
    }
}

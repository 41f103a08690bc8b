package dev.levee.ratelimiter.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualTicker;
import dev.levee.ratelimiter.RateLimitAlgorithm;
import dev.levee.ratelimiter.RateLimitDecision;
import dev.levee.ratelimiter.RateLimiter;
import dev.levee.ratelimiter.RateLimiterConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The keyed state table: the bound, exact budgets under 16 threads while keys are inserted, evicted
 * and moved by rebuilds in the same probe chain, the eviction order, and a returning key's fresh start.
 * The clock stands still unless a test moves it, so nothing refills and every count is exact.
 */
class KeyedStateTableTest {
    private static final int THREADS = 16;
    private static final long IDLE = Duration.ofSeconds(10).toNanos();

    private final ManualTicker ticker = new ManualTicker(1_000L);
    private final ExecutorService pool = Executors.newFixedThreadPool(THREADS);

    @AfterEach
    void stopPool() throws InterruptedException {
        pool.shutdownNow();
        assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
    }

    /** A key whose hash the test chooses: keys of one hash share one probe chain. */
    private static final class Colliding {
        final int id;
        final int hash;

        Colliding(int id, int hash) {
            this.id = id;
            this.hash = hash;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Colliding && ((Colliding) o).id == id;
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public String toString() {
            return "k" + id;
        }
    }

    private RateLimiterConfig config(RateLimitAlgorithm algorithm, long burst) {
        return RateLimiterConfig.builder().algorithm(algorithm).rate(burst, Duration.ofHours(1))
                .burst(algorithm == RateLimitAlgorithm.LEAKY_BUCKET ? 1 : burst).ticker(ticker).sleeper(ticker).build();
    }

    private <K> KeyedStateTable<K> table(long burst, int maxEntries) {
        return table(RateLimitAlgorithm.GCRA, burst, maxEntries);
    }

    private <K> KeyedStateTable<K> table(RateLimitAlgorithm algorithm, long burst, int maxEntries) {
        LimiterContext ctx = new LimiterContext("table", ticker, ticker);
        RateLimiterConfig config = config(algorithm, burst);
        AbstractRateLimiter prototype = Limiters.create(ctx, config);
        return new KeyedStateTable<>(ctx, new AbstractRateLimiter[] {prototype}, k -> 0, maxEntries, IDLE);
    }

    private <K> boolean take(KeyedStateTable<K> table, K key) {
        return table.tryAcquire(key, 1, ticker.read(), null);
    }

    private <K> int grants(KeyedStateTable<K> table, K key, int attempts) {
        int n = 0;
        for (int i = 0; i < attempts; i++) {
            n += take(table, key) ? 1 : 0;
        }
        return n;
    }

    @Test
    void aKeyARebuildHasMovedIsDecidedInTheNewArrayWithoutWaitingForTheRebuild() throws Exception {
        KeyedStateTable<String> table = table(10, 100);
        RateLimitDecision decision = new RateLimitDecision();
        assertThat(grants(table, "hot", 3)).isEqualTo(3); // 7 of 10 left
        for (int k = 0; table.size() < table.capacity() / 2; k++) {
            take(table, "cold-" + k); // fill to half: the next new key rebuilds into twice the capacity
        }
        int before = table.capacity();
        CompletableFuture<Long> duringRebuild = new CompletableFuture<>();
        table.onRebuildCopy(key -> {
            if (key.equals("hot")) { // copied, the rebuild still holding the lock and the new array unpublished
                pool.execute(() -> {
                    RateLimitDecision d = new RateLimitDecision();
                    duringRebuild.complete(table.tryAcquire("hot", 1, ticker.read(), d) ? d.remaining() : -1L);
                });
                try {
                    // Waiting on the lock (the old behaviour) would never complete before this returns.
                    duringRebuild.get(60, TimeUnit.SECONDS);
                } catch (Exception e) {
                    duringRebuild.completeExceptionally(e);
                }
            }
        });

        take(table, "new-key");

        assertThat(table.capacity()).as("rebuilt").isEqualTo(2 * before);
        assertThat(duringRebuild.getNow(-2L)).as("decided in the new array during the rebuild").isEqualTo(6L);
        assertThat(table.tryAcquire("hot", 1, ticker.read(), decision)).isTrue();
        assertThat(decision.remaining()).as("the decision made during the rebuild counts").isEqualTo(5L);
    }

    @Test
    void eachKeyHasItsOwnStateAndTheDecisionIsFilledIn() {
        KeyedStateTable<String> table = table(3, 100);
        assertThat(grants(table, "a", 5)).isEqualTo(3);
        assertThat(grants(table, "b", 5)).isEqualTo(3);
        RateLimitDecision decision = new RateLimitDecision();
        assertThat(table.tryAcquire("c", 1, ticker.read(), decision)).isTrue();
        assertThat(decision.allowed()).isTrue();
        assertThat(decision.remaining()).isEqualTo(2);
        assertThat(table.tryAcquire("a", 1, ticker.read(), decision)).isFalse();
        assertThat(decision.retryAfterNanos()).isEqualTo(Duration.ofHours(1).toNanos() / 3);
        ticker.advance(Duration.ofMinutes(20));
        assertThat(grants(table, "a", 5)).isEqualTo(1); // one permit per 20 minutes
        assertThat(table.size()).isEqualTo(3);
    }

    @Test
    void theTableGrowsByDoublingUpToTwiceTheBoundAndKeepsEveryState() {
        KeyedStateTable<Integer> table = table(2, 1_000);
        assertThat(table.capacity()).isEqualTo(16);
        for (int key = 0; key < 1_000; key++) {
            assertThat(take(table, key)).isTrue();
        }
        assertThat(table.capacity()).isEqualTo(2_048); // nextPowerOfTwo(2 · 1,000)
        for (int key = 0; key < 1_000; key++) {
            assertThat(grants(table, key, 3)).as("key %d after the rebuilds", key).isEqualTo(1);
        }
        assertThat(table.size()).isEqualTo(1_000);
        assertThat(table.evictionCount()).isZero();
    }

    @Test
    void theBoundHoldsWithSixteenThreadsInsertingFreshKeys() throws Exception {
        int bound = 100;
        KeyedStateTable<Integer> table = table(5, bound);
        AtomicInteger maxSeen = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int thread = t;
            done.add(pool.submit(() -> {
                start.await();
                for (int i = 0; i < 2_000; i++) {
                    assertThat(table.tryAcquire(thread * 1_000_000 + i, 1, 1_000L, null)).isTrue(); // fresh: granted
                    maxSeen.accumulateAndGet(table.size(), Math::max);
                }
                return null;
            }));
        }
        start.countDown();
        for (Future<?> f : done) {
            f.get(30, TimeUnit.SECONDS);
        }
        assertThat(maxSeen.get()).isLessThanOrEqualTo(bound);
        assertThat(table.size()).isEqualTo(bound);
        assertThat(table.evictionCount()).isEqualTo(THREADS * 2_000L - bound);
        int present = 0;
        for (int t = 0; t < THREADS; t++) {
            for (int i = 0; i < 2_000; i++) {
                present += table.contains(t * 1_000_000 + i) ? 1 : 0;
            }
        }
        assertThat(present).isEqualTo(bound);
    }

    /**
     * Hot keys and a flood share one probe chain (every key has the same hash): while flood keys are
     * inserted, evicted idle and moved by rebuilds, each hot key grants exactly its budget. A decision
     * landing on another key's slot, a state lost in a move, or a state duplicated would break it.
     */
    @ParameterizedTest
    @EnumSource(value = RateLimitAlgorithm.class, names = {"GCRA", "TOKEN_BUCKET"})
    void hotKeysGrantExactlyTheirBudgetWhileTheirProbeChainChurns(RateLimitAlgorithm algorithm) throws Exception {
        int budget = 50;
        int hotKeys = 4;
        KeyedStateTable<Colliding> table = table(algorithm, budget, 4_096);
        SplittableRandom seeds = new SplittableRandom(25);
        // Old flood keys, idle by the time the threads start: cleanUp retires them meanwhile.
        for (int i = 0; i < 300; i++) {
            take(table, new Colliding(1_000 + i, 7));
        }
        ticker.advance(Duration.ofSeconds(11));
        Colliding[] hot = new Colliding[hotKeys];
        for (int h = 0; h < hotKeys; h++) {
            hot[h] = new Colliding(h, 7);
        }
        AtomicLongArray granted = new AtomicLongArray(hotKeys);
        Object evicted = new Object();
        ConcurrentHashMap<Object, Object> evictedKeys = new ConcurrentHashMap<>();
        table.onEviction(k -> evictedKeys.put(k, evicted));
        AtomicInteger nextFlood = new AtomicInteger(100_000);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int role = t % 4;
            long seed = seeds.nextLong();
            done.add(pool.submit(() -> {
                SplittableRandom random = new SplittableRandom(seed);
                start.await();
                for (int i = 0; i < 400; i++) {
                    if (role <= 1) { // deciders on hot keys
                        int h = random.nextInt(hotKeys);
                        // Equal but not the same object: the probe must fall back to the hash and equals.
                        Colliding key = random.nextBoolean() ? hot[h] : new Colliding(h, 7);
                        if (take(table, key)) {
                            granted.incrementAndGet(h);
                        }
                    } else if (role == 2) { // inserters: new keys in the same chain, forcing rebuilds
                        take(table, new Colliding(nextFlood.getAndIncrement(), 7));
                    } else if (i % 40 == 0) { // retire idle old keys: tombstones in the chain
                        table.cleanUp(ticker.read());
                    } else { // deciders on old keys racing their eviction
                        take(table, new Colliding(1_000 + random.nextInt(300), 7));
                    }
                }
                return null;
            }));
        }
        start.countDown();
        for (Future<?> f : done) {
            f.get(60, TimeUnit.SECONDS);
        }
        for (int h = 0; h < hotKeys; h++) {
            assertThat(evictedKeys).doesNotContainKey(hot[h]);
            assertThat(granted.get(h)).as("grants of hot key %d", h).isEqualTo(budget);
            assertThat(grants(table, hot[h], 1)).isZero();
        }
        assertThat(table.size()).isLessThanOrEqualTo(4_096);
    }

    /**
     * A flood of fresh keys evicts cold ones while 16 threads hammer hot keys: a hot key grants at most
     * its budget per lifetime (it may be evicted between a thread's touches and return fresh), and
     * exactly its budget when it never was.
     */
    @ParameterizedTest
    @EnumSource(value = RateLimitAlgorithm.class, names = {"GCRA", "TOKEN_BUCKET"})
    void aFloodNeverLetsAHotKeyOverAdmit(RateLimitAlgorithm algorithm) throws Exception {
        int budget = 20;
        int hotKeys = 8;
        int bound = 64;
        KeyedStateTable<Integer> table = table(algorithm, budget, bound);
        ConcurrentHashMap<Integer, AtomicInteger> evictionsOf = new ConcurrentHashMap<>();
        table.onEviction(k -> evictionsOf.computeIfAbsent((Integer) k, x -> new AtomicInteger()).incrementAndGet());
        AtomicLongArray granted = new AtomicLongArray(hotKeys);
        AtomicInteger nextFlood = new AtomicInteger(1_000);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int thread = t;
            done.add(pool.submit(() -> {
                start.await();
                for (int i = 0; i < 1_000; i++) {
                    if (thread % 2 == 0) {
                        int h = (thread / 2 + i) % hotKeys;
                        if (take(table, h)) {
                            granted.incrementAndGet(h);
                        }
                    } else {
                        take(table, nextFlood.getAndIncrement());
                    }
                    assertThat(table.size()).isLessThanOrEqualTo(bound);
                }
                return null;
            }));
        }
        start.countDown();
        for (Future<?> f : done) {
            f.get(60, TimeUnit.SECONDS);
        }
        for (int h = 0; h < hotKeys; h++) {
            AtomicInteger evictions = evictionsOf.get(h);
            long lifetimes = 1 + (evictions == null ? 0 : evictions.get());
            assertThat(granted.get(h)).as("hot key %d, %d lifetime(s)", h, lifetimes).isLessThanOrEqualTo(budget * lifetimes);
            if (lifetimes == 1) {
                assertThat(granted.get(h)).isEqualTo(budget);
            }
        }
        assertThat(table.size()).isEqualTo(bound);
    }

    @Test
    void anIdleKeyGoesFirstEvenIfUsedSinceTheHandPassed() {
        KeyedStateTable<Colliding> table = table(5, 3);
        Colliding a = new Colliding(1, 3);
        Colliding b = new Colliding(2, 3);
        Colliding c = new Colliding(3, 3);
        for (Colliding k : new Colliding[] {a, b, c}) {
            take(table, k);
            take(table, k); // the second decision marks it used
        }
        ticker.advance(Duration.ofSeconds(11));
        take(table, b);
        take(table, c);
        take(table, new Colliding(4, 3)); // full: a is idle, so it goes although its bit is set
        assertThat(table.contains(a)).isFalse();
        assertThat(table.contains(b)).isTrue();
        assertThat(table.contains(c)).isTrue();
    }

    @Test
    void theClockHandGivesAUsedKeyASecondChance() {
        KeyedStateTable<Colliding> table = table(5, 3);
        Colliding a = new Colliding(1, 3);
        Colliding b = new Colliding(2, 3);
        Colliding c = new Colliding(3, 3);
        Colliding d = new Colliding(4, 3);
        Colliding e = new Colliding(5, 3);
        take(table, a);
        take(table, b);
        take(table, c);
        take(table, a); // used: a and c get a second chance, whatever the hand's order
        take(table, c);
        take(table, d); // the hand clears what it passes and evicts b, seen once
        assertThat(table.contains(b)).isFalse();
        take(table, a); // used again since the hand passed
        take(table, c);
        take(table, e); // d, seen once, goes
        assertThat(table.contains(a)).isTrue();
        assertThat(table.contains(c)).isTrue();
        assertThat(table.contains(d)).isFalse();
        assertThat(table.contains(e)).isTrue();
        assertThat(table.evictionCount()).isEqualTo(2);
    }

    @Test
    void aFloodOfFreshKeysKeepsProbesShort() {
        KeyedStateTable<Integer> table = table(5, 1_000);
        for (int key = 0; key < 200_000; key++) {
            assertThat(take(table, key)).isTrue();
        }
        assertThat(table.size()).isEqualTo(1_000);
        assertThat(table.longestRun()).as("longest run of occupied slots").isLessThan(200);
    }

    /** Inserts fresh keys until {@code key} is evicted (it goes within two turns of the hand). */
    private void floodUntilGone(KeyedStateTable<String> table, String key) {
        for (int i = 0; i < 100 && table.contains(key); i++) {
            take(table, "flood-" + i);
        }
        assertThat(table.contains(key)).isFalse();
    }

    @Test
    void anEvictedKeyThatReturnsStartsFresh() {
        KeyedStateTable<String> table = table(2, 2);
        assertThat(grants(table, "a", 3)).isEqualTo(2);
        floodUntilGone(table, "a");
        assertThat(grants(table, "a", 3)).as("a back, fresh").isEqualTo(2);
    }

    @Test
    void idleKeysAreCleanedUpAndTheirSlotsReclaimedByARebuild() {
        KeyedStateTable<Integer> table = table(1, 8);
        for (int round = 0; round < 50; round++) {
            for (int key = 0; key < 8; key++) {
                take(table, round * 8 + key);
            }
            ticker.advance(Duration.ofSeconds(11));
            table.cleanUp(ticker.read());
            assertThat(table.size()).isZero();
        }
        assertThat(table.evictionCount()).isEqualTo(400);
        assertThat(table.capacity()).isEqualTo(16); // tombstones dropped by same-size rebuilds, never grown
    }

    @Test
    void aPromotedKeyCarriesItsStateAndKeepsItsOwnLimiterUntilEvicted() {
        KeyedStateTable<String> table = table(3, 2);
        take(table, "a");
        RateLimiter own = table.promote("a", ticker.read());
        assertThat(table.promote("a", ticker.read())).isSameAs(own);
        assertThat(own.availablePermits(ticker.read())).isEqualTo(2); // the table's decision carried
        assertThat(grants(table, "a", 5)).isEqualTo(2); // decisions go to the promoted limiter
        assertThat(own.availablePermits(ticker.read())).isZero();
        own.setRate(30, Duration.ofHours(1)); // this key alone
        assertThat(table.promote("a", ticker.read()).limit()).isEqualTo(30);
        assertThat(grants(table, "b", 5)).isEqualTo(3);
        assertThat(table.promotedCount()).isEqualTo(1);
        floodUntilGone(table, "a");
        assertThat(table.promotedCount()).isZero();
        assertThat(table.promote("a", ticker.read())).isNotSameAs(own);
        assertThat(grants(table, "a", 5)).as("a back, fresh, at the tier's rate").isEqualTo(3);
    }

    @Test
    void theTokenBucketRefillsOnItsExactCurveInASlot() {
        LimiterContext ctx = new LimiterContext("table", ticker, ticker);
        AbstractRateLimiter prototype = Limiters.create(ctx, RateLimiterConfig.builder().algorithm(RateLimitAlgorithm.TOKEN_BUCKET)
                .rate(7, Duration.ofSeconds(10)).burst(7).ticker(ticker).sleeper(ticker).build()); // 10 s / 7: counting curve
        KeyedStateTable<String> table = new KeyedStateTable<>(ctx, new AbstractRateLimiter[] {prototype}, k -> 0, 10, IDLE);
        assertThat(grants(table, "a", 10)).isEqualTo(7);
        ticker.advance(Duration.ofSeconds(10));
        assertThat(grants(table, "a", 10)).isEqualTo(7); // exactly 7 per 10 s, no drift
        ticker.advance(Duration.ofMillis(1_428)); // 0.9996 of one token's 10/7 s
        assertThat(grants(table, "a", 1)).isZero();
        ticker.advance(Duration.ofMillis(1));
        assertThat(grants(table, "a", 1)).isEqualTo(1);
        RateLimiter own = table.promote("a", ticker.read());
        assertThat(own.availablePermits(ticker.read())).isZero(); // the slot's state carried
    }

    @Test
    void theLeakyBucketQueueAdmitsOneAtATime() {
        KeyedStateTable<String> table = table(RateLimitAlgorithm.LEAKY_BUCKET, 6, 10);
        assertThat(grants(table, "a", 3)).isEqualTo(1);
        ticker.advance(Duration.ofMinutes(10));
        assertThat(grants(table, "a", 3)).isEqualTo(1);
        assertThat(grants(table, "b", 3)).isEqualTo(1);
    }

    @Test
    void aHitReadsOnlyTheTimeItIsGiven() {
        AtomicLong reads = new AtomicLong();
        LimiterContext ctx = new LimiterContext("table", () -> {
            reads.incrementAndGet();
            return ticker.read();
        }, ticker);
        AbstractRateLimiter prototype = Limiters.create(ctx, RateLimiterConfig.builder()
                .rate(1_000_000, Duration.ofSeconds(1)).burst(1_000_000).ticker(ctx.ticker()).sleeper(ticker).build());
        KeyedStateTable<String> table = new KeyedStateTable<>(ctx, new AbstractRateLimiter[] {prototype}, k -> 0, 10, IDLE);
        table.tryAcquire("k", 1, 1_000L, null);
        long before = reads.get();
        for (int i = 0; i < 1_000; i++) {
            assertThat(table.tryAcquire("k", 1, 1_000L, null)).isTrue();
        }
        assertThat(reads.get()).isEqualTo(before);
    }
}

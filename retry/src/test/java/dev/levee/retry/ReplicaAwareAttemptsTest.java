package dev.levee.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import dev.levee.core.RandomSource;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Hedge and Retry across a {@link ReplicaSet}: where each attempt goes, and what the set records. */
class ReplicaAwareAttemptsTest {
    private static final long MS = 1_000_000L;
    private final ManualTicker ticker = new ManualTicker();
    private final ManualScheduler scheduler = new ManualScheduler(ticker);

    private ReplicaSet<String> replicas(int n, SelectionRule rule) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            names.add("r" + i);
        }
        return ReplicaSet.of("set", ReplicaSetConfig.builder().selectionRule(rule).ticker(ticker)
                .random(RandomSource.seeded(1)).build(), names);
    }

    private Hedge hedge(int maxHedges) {
        return Hedge.of("hedge", HedgeConfig.builder().ticker(ticker).scheduler(scheduler).asyncExecutor(Runnable::run)
                .delay(Duration.ofMillis(50)).maxHedges(maxHedges).withoutBudget().build());
    }

    @Test
    void everyHedgeOfACallGoesToADistinctReplicaOverTenThousandCalls() {
        ReplicaSet<String> set = replicas(3, SelectionRule.PEAK_EWMA);
        Hedge hedge = hedge(2);
        Random random = new Random(5);
        for (int call = 0; call < 10_000; call++) {
            List<String> used = new ArrayList<>();
            List<CompletableFuture<String>> attempts = new ArrayList<>();
            CompletableFuture<String> result = hedge.executeAsync(set, replica -> {
                used.add(replica);
                CompletableFuture<String> attempt = new CompletableFuture<>();
                attempts.add(attempt);
                return attempt;
            }).toCompletableFuture();
            scheduler.advance(Duration.ofMillis(50));
            scheduler.advance(Duration.ofMillis(50));
            assertThat(used).hasSize(3).doesNotHaveDuplicates();
            int winner = random.nextInt(3);
            attempts.get(winner).complete(used.get(winner));
            assertThat(result.getNow(null)).isEqualTo(used.get(winner));
            assertThat(attempts).allMatch(CompletableFuture::isDone); // the losers were cancelled
        }
        ReplicaSetMetrics m = set.metrics();
        assertThat(m.picks()).isEqualTo(30_000);
        assertThat(m.outstanding()).isZero();
        assertThat(m.successes()).isEqualTo(10_000);
        assertThat(m.failures()).isZero();
    }

    @Test
    void withMoreHedgesThanReplicasTheExtraHedgeReusesATriedReplica() {
        ReplicaSet<String> set = replicas(2, SelectionRule.ROUND_ROBIN);
        Hedge hedge = hedge(2);
        List<String> used = new ArrayList<>();
        List<CompletableFuture<String>> attempts = new ArrayList<>();
        hedge.executeAsync(set, replica -> {
            used.add(replica);
            CompletableFuture<String> attempt = new CompletableFuture<>();
            attempts.add(attempt);
            return attempt;
        });
        scheduler.advance(Duration.ofMillis(100));
        assertThat(used).hasSize(3);
        assertThat(new HashSet<>(used.subList(0, 2))).containsExactlyInAnyOrder("r0", "r1");
        attempts.get(0).complete("done");
        assertThat(set.metrics().outstanding()).isZero();
    }

    @Test
    void theReplicaIsInTheEventsAndTheLosersTimeRaisesItsEstimate() {
        ReplicaSet<String> set = replicas(3, SelectionRule.PEAK_EWMA);
        Hedge hedge = hedge(1);
        List<HedgeEvent> events = new ArrayList<>();
        hedge.onEvent(events::add);
        List<CompletableFuture<String>> attempts = new ArrayList<>();
        List<String> used = new ArrayList<>();
        hedge.executeAsync(set, replica -> {
            used.add(replica);
            CompletableFuture<String> attempt = new CompletableFuture<>();
            attempts.add(attempt);
            return attempt;
        });
        scheduler.advance(Duration.ofMillis(50));
        scheduler.advance(Duration.ofMillis(10));
        attempts.get(1).complete("hedge won");
        assertThat(events).filteredOn(e -> e instanceof HedgeEvent.ReplicaPicked).extracting(
                e -> ((HedgeEvent.ReplicaPicked) e).replica()).containsExactlyElementsOf(used);
        HedgeEvent.ReplicaPicked first = (HedgeEvent.ReplicaPicked) events.get(0);
        assertThat(first.attempt()).isEqualTo(1);
        int loser = set.replicas().indexOf(used.get(0));
        int winner = set.replicas().indexOf(used.get(1));
        assertThat(set.metrics(loser).latencyEstimateNanos()).isEqualTo(60.0 * MS); // cancelled after 60 ms
        assertThat(set.metrics(winner).latencyEstimateNanos()).isEqualTo(10.0 * MS);
        assertThat(set.metrics(loser).successes() + set.metrics(loser).failures()).isZero();
        assertThat(set.metrics(winner).successes()).isEqualTo(1);
    }

    @Test
    void theSynchronousHedgeSendsConcurrentAttemptsToDistinctReplicas() throws Exception {
        ExecutorService pool = Executors.newCachedThreadPool();
        try {
            ReplicaSet<String> set = replicas(3, SelectionRule.RANDOM);
            Hedge hedge = Hedge.of("sync", HedgeConfig.builder().ticker(ticker).scheduler(scheduler).executor(pool)
                    .delay(Duration.ofMillis(50)).maxHedges(2).withoutBudget().build());
            for (int call = 0; call < 50; call++) {
                CountDownLatch three = new CountDownLatch(3);
                CountDownLatch release = new CountDownLatch(1);
                Set<String> used = java.util.concurrent.ConcurrentHashMap.newKeySet();
                AtomicInteger attempt = new AtomicInteger();
                CompletableFuture<String> result = CompletableFuture.supplyAsync(() -> {
                    try {
                        return hedge.execute(set, replica -> {
                            used.add(replica);
                            three.countDown();
                            if (attempt.incrementAndGet() < 3) {
                                release.await(); // interrupted when the third wins
                            }
                            return replica;
                        });
                    } catch (InterruptedException e) {
                        throw new java.util.concurrent.CompletionException(e);
                    }
                }, pool);
                while (three.getCount() > 0) {
                    scheduler.advance(Duration.ofMillis(50));
                    three.await(10, TimeUnit.MILLISECONDS);
                }
                assertThat(result.get(10, TimeUnit.SECONDS)).isIn(used);
                assertThat(used).hasSize(3);
                release.countDown();
            }
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
                    .until(() -> set.metrics().outstanding() == 0);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aRetryPrefersAReplicaItHasNotTried() {
        ReplicaSet<String> set = replicas(3, SelectionRule.PEAK_EWMA);
        Retry retry = Retry.of("retry", RetryConfig.builder().maxAttempts(4).retryAll().backoff(Backoff.none()).withoutBudget()
                .ticker(ticker).sleeper(ticker).build());
        List<RetryEvent> events = new ArrayList<>();
        retry.onEvent(events::add);
        IOException boom = new IOException("boom");
        for (int call = 0; call < 1_000; call++) {
            List<String> used = new ArrayList<>();
            assertThatThrownBy(() -> retry.execute(set, replica -> {
                used.add(replica);
                throw boom;
            })).isSameAs(boom);
            assertThat(used).hasSize(4);
            assertThat(new HashSet<>(used.subList(0, 3))).hasSize(3); // the first three distinct
            if (set.metrics().ejected() > 0) {
                break;
            }
        }
        assertThat(events).filteredOn(e -> e instanceof RetryEvent.ReplicaPicked).isNotEmpty();
        assertThat(set.metrics().outstanding()).isZero();
    }

    @Test
    void aRetrySkipsAnEjectedReplicaAndSucceedsElsewhere() throws Exception {
        ReplicaSet<String> set = replicas(10, SelectionRule.ROUND_ROBIN);
        Retry retry = Retry.of("retry", RetryConfig.builder().maxAttempts(3).retryAll().backoff(Backoff.none()).withoutBudget()
                .ticker(ticker).sleeper(ticker).build());
        IOException boom = new IOException("boom");
        List<String> used = new ArrayList<>();
        for (int call = 0; call < 50; call++) {
            String answer = retry.execute(set, replica -> {
                used.add(replica);
                if (replica.equals("r4")) {
                    throw boom;
                }
                return replica;
            });
            assertThat(answer).isNotEqualTo("r4");
        }
        assertThat(set.isEjected(4)).isTrue();
        assertThat(used.stream().filter("r4"::equals).count()).isEqualTo(5);
    }

    @Test
    void theAsynchronousRetryMovesToAnotherReplica() {
        ReplicaSet<String> set = replicas(3, SelectionRule.ROUND_ROBIN);
        Retry retry = Retry.of("retry", RetryConfig.builder().maxAttempts(3).retryAll().backoff(Backoff.none()).withoutBudget()
                .ticker(ticker).sleeper(ticker).scheduler(scheduler).executor(Runnable::run).build());
        List<String> used = new ArrayList<>();
        CompletionStage<String> result = retry.executeAsync(set, replica -> {
            used.add(replica);
            return used.size() < 3 ? CompletableFuture.failedFuture(new IOException(replica)) : CompletableFuture.completedFuture(replica);
        });
        scheduler.runDue();
        assertThat(result.toCompletableFuture().getNow(null)).isEqualTo(used.get(2));
        assertThat(used).doesNotHaveDuplicates().hasSize(3);
        assertThat(set.metrics().failures()).isEqualTo(2);
        assertThat(set.metrics().successes()).isEqualTo(1);
        assertThat(set.metrics().outstanding()).isZero();
    }
}

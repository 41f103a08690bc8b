package dev.levee.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.Classifier;
import dev.levee.core.IdempotencyKey;
import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import dev.levee.core.RandomSource;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * A synchronous keyed hedge, a hedge whose classifier judges results, hedging across replicas with a
 * classifier (what counts against a replica), and the budget's count of hedges in flight.
 */
class HedgeClassifierAndKeyTest {
    private static final long MS = 1_000_000L;
    private final ManualTicker ticker = new ManualTicker();
    private final ManualScheduler scheduler = new ManualScheduler(ticker);

    private HedgeConfig.Builder config() {
        return HedgeConfig.builder().ticker(ticker).scheduler(scheduler).asyncExecutor(Runnable::run)
                .executor(Runnable::run).delay(Duration.ofMillis(50)).maxHedges(1).withoutBudget();
    }

    @Test
    @SuppressWarnings("try") // the caller's scope is opened only to make its key current
    void aSynchronousKeyedHedgeRunsItsCallUnderOneKeyAndDetachesIt() {
        IdempotencyKey key = IdempotencyKey.of("order-42");
        Hedge hedge = Hedge.of("k", config().idempotency(Idempotency.KEYED).keyGenerator(() -> key).build());
        List<IdempotencyKey> seen = new ArrayList<>();
        String answer = hedge.execute(() -> {
            seen.add(IdempotencyKey.currentOrNull());
            return "done";
        });
        assertThat(answer).isEqualTo("done");
        assertThat(seen).containsExactly(key);
        assertThat(IdempotencyKey.currentOrNull()).as("the generated key is detached after the call").isNull();

        // A key already current is the call's key: none is generated, and it stays current after.
        IdempotencyKey callers = IdempotencyKey.of("caller-1");
        try (var scope = callers.attach()) {
            assertThat(hedge.execute(() -> IdempotencyKey.currentOrNull())).isSameAs(callers);
            assertThat(IdempotencyKey.currentOrNull()).isSameAs(callers);
        }
    }

    @Test
    void anUnkeyedSynchronousHedgeReturnsTheAnswerWithoutAKey() {
        Hedge hedge = Hedge.of("u", config().build());
        assertThat(hedge.execute(() -> IdempotencyKey.currentOrNull() == null ? "no key" : "a key"))
                .isEqualTo("no key");
    }

    @Test
    void aResultTheClassifierCallsAFailureIsNotTheAnswerTheHedgesIs() {
        Hedge hedge = Hedge.of("r", config().classifier(Classifier.builder()
                .failOnResult(r -> "busy".equals(r)).build()).build());
        List<CompletableFuture<String>> attempts = new ArrayList<>();
        CompletableFuture<String> result = hedge.<String>executeAsync(() -> {
            CompletableFuture<String> attempt = new CompletableFuture<>();
            attempts.add(attempt);
            return attempt;
        }).toCompletableFuture();
        scheduler.advance(Duration.ofMillis(50));
        assertThat(attempts).hasSize(2);
        attempts.get(0).complete("busy");
        assertThat(result).as("a failed result does not answer the call while the hedge runs").isNotDone();
        attempts.get(1).complete("fresh");
        assertThat(result).isCompletedWithValue("fresh");
        assertThat(hedge.metrics()).isEqualTo(new HedgeMetrics(1, 1, 1, 0, 0));
    }

    @Test
    void withoutResultRulesAnyValueIsTheAnswer() {
        Hedge hedge = Hedge.of("d", config().build());
        CompletableFuture<String> result = hedge.<String>executeAsync(
                () -> CompletableFuture.completedFuture("busy")).toCompletableFuture();
        assertThat(result).isCompletedWithValue("busy");
        assertThat(scheduler.pending()).isZero();
    }

    @Test
    void acrossReplicasTheClassifierDecidesWhatCountsAgainstAReplica() {
        ReplicaSet<String> set = ReplicaSet.of("s", ReplicaSetConfig.builder().ticker(ticker)
                .random(RandomSource.seeded(5)).failureRateEjection(false).build(), List.of("a", "b", "c"));
        Hedge hedge = Hedge.of("x", config().maxHedges(2).classifier(Classifier.builder()
                .ignore(IllegalArgumentException.class).failOnResult(r -> "busy".equals(r)).build()).build());
        List<String> replicas = new ArrayList<>();
        IllegalArgumentException badRequest = new IllegalArgumentException("400");
        IOException down = new IOException("down");

        // Three attempts running; the first ends in an I/O failure (counts against its replica), the first
        // hedge in a failed result (counts too), the second hedge in an ignored exception: a definitive
        // answer (the replica answered: a success for it).
        List<CompletableFuture<String>> attempts = new ArrayList<>();
        CompletableFuture<String> result = hedge.<String, String>executeAsync(set, replica -> {
            replicas.add(replica);
            CompletableFuture<String> attempt = new CompletableFuture<>();
            attempts.add(attempt);
            return attempt;
        }).toCompletableFuture();
        scheduler.advance(Duration.ofMillis(50));
        scheduler.advance(Duration.ofMillis(50));
        assertThat(replicas).as("each attempt on its own replica").doesNotHaveDuplicates().hasSize(3);
        attempts.get(0).completeExceptionally(down);
        attempts.get(1).complete("busy");
        assertThat(result).isNotDone();
        attempts.get(2).completeExceptionally(badRequest);
        assertThatThrownBy(result::join).hasCause(badRequest);

        int first = set.replicas().indexOf(replicas.get(0));
        int second = set.replicas().indexOf(replicas.get(1));
        int third = set.replicas().indexOf(replicas.get(2));
        assertThat(set.metrics(first).failures()).isEqualTo(1);
        assertThat(set.metrics(second).failures()).isEqualTo(1);
        assertThat(set.metrics(second).successes()).isZero();
        assertThat(set.metrics(third).successes()).isEqualTo(1);
        assertThat(set.metrics(third).failures()).isZero();
    }

    @Test
    void theBudgetCountsOnlyHedgesAsRetriesInFlight() {
        RetryBudget budget = RetryBudget.of("b", RetryBudgetConfig.builder().ticker(ticker)
                .maxConcurrentRetries(1, 5).build());
        Hedge hedge = Hedge.of("h", config().budget(budget).build());

        CompletableFuture<String> first = new CompletableFuture<>();
        CompletableFuture<String> unhedged = hedge.<String>executeAsync(() -> first).toCompletableFuture();
        first.complete("at once");
        assertThat(unhedged).isCompletedWithValue("at once");
        assertThat(budget.retriesInFlight()).as("a first attempt is no retry").isZero();

        List<CompletableFuture<String>> attempts = new ArrayList<>();
        CompletableFuture<String> hedged = hedge.<String>executeAsync(() -> {
            CompletableFuture<String> attempt = new CompletableFuture<>();
            attempts.add(attempt);
            return attempt;
        }).toCompletableFuture();
        scheduler.advance(Duration.ofMillis(50));
        assertThat(budget.retriesInFlight()).as("the hedge").isEqualTo(1);
        attempts.get(0).complete("first");
        assertThat(hedged).isCompletedWithValue("first");
        assertThat(attempts.get(1)).isCancelled();
        assertThat(budget.retriesInFlight()).isZero();
        assertThat(ticker.read()).isEqualTo(50 * MS);
    }
}

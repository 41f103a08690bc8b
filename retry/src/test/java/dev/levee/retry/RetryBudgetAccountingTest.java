package dev.levee.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.ManualTicker;
import dev.levee.core.Subscription;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The budget's counters to the unit (available retries, requests and retries in flight, refusals of
 * either kind) and what a {@link Retry} leaves in them: every retry it was granted is given back when the
 * attempt ends, whether the attempt succeeded, failed, or its backoff sleep was interrupted. Manual time,
 * one thread.
 */
class RetryBudgetAccountingTest {
    private static final long MS = 1_000_000L;
    private final ManualTicker ticker = new ManualTicker(1_000 * MS);

    /** Reserve 3 (0.3 a second over 10 s), half a retry per request. */
    private RetryBudgetConfig.Builder config() {
        return RetryBudgetConfig.builder().ticker(ticker).retryRatio(0.5).minRetriesPerSecond(0.3)
                .ttl(Duration.ofSeconds(10));
    }

    @Test
    void availableIsRatioTimesDepositsPlusTheReserveLessWithdrawals() {
        RetryBudget budget = RetryBudget.of("b", config().build());
        assertThat(budget.isUnlimited()).isFalse();
        assertThat(RetryBudget.unlimited("u").isUnlimited()).isTrue();
        assertThat(budget.available()).isEqualTo(3);
        for (int i = 0; i < 4; i++) {
            budget.onRequestStart();
        }
        assertThat(budget.available()).isEqualTo(5); // 0.5 × 4 + 3
        assertThat(budget.tryRetry(2)).isTrue();
        assertThat(budget.available()).isEqualTo(3);
        assertThat(budget.requestsInFlight()).as("not the concurrency form").isZero();
    }

    @Test
    void theConcurrencyFormCountsRequestsAndRetriesInFlightAndRefusesAboveItsShare() {
        RetryBudget budget = RetryBudget.of("c", config().maxConcurrentRetries(0.5, 1).build());
        for (int i = 0; i < 4; i++) {
            budget.onRequestStart();
        }
        assertThat(budget.requestsInFlight()).isEqualTo(4);
        assertThat(budget.tryRetry()).isTrue();
        assertThat(budget.tryRetry()).isTrue();
        assertThat(budget.retriesInFlight()).isEqualTo(2);
        assertThat(budget.tryRetry()).as("half of 4 requests are retries already").isFalse();
        assertThat(budget.refusals()).isEqualTo(1);
        assertThat(budget.retriesInFlight()).isEqualTo(2);
        budget.onRetryEnd();
        budget.onRetryEnd();
        budget.onRequestEnd();
        assertThat(budget.retriesInFlight()).isZero();
        assertThat(budget.requestsInFlight()).isEqualTo(3);
    }

    @Test
    void aRefusalByTheAllowanceGivesBackTheConcurrencyReservation() {
        RetryBudget budget = RetryBudget.of("c", config().maxConcurrentRetries(10.0, 100).build());
        for (int i = 0; i < 4; i++) {
            budget.onRequestStart();
        }
        assertThat(budget.tryRetry(2)).isTrue();
        assertThat(budget.tryRetry(4)).as("2 + 4 withdrawn would exceed 0.5 × 4 + 3").isFalse();
        assertThat(budget.retriesInFlight()).isEqualTo(2);
        assertThat(budget.refusals()).isEqualTo(1);
    }

    @Test
    void onlyTheOutermostOfNestedLayersDepositsAndCountsTheRequest() {
        RetryBudget budget = RetryBudget.of("n", config().maxConcurrentRetries(0.5, 1).build());
        assertThat(budget.insideRequest()).isFalse();
        int[] outer = budget.enterNested();
        assertThat(budget.insideRequest()).isTrue();
        int[] inner = budget.enterNested();
        assertThat(budget.deposits()).isEqualTo(1);
        assertThat(budget.requestsInFlight()).isEqualTo(1);
        budget.exitNested(inner);
        assertThat(budget.insideRequest()).as("the outer layer is still in").isTrue();
        assertThat(budget.requestsInFlight()).isEqualTo(1);
        budget.exitNested(outer);
        assertThat(budget.insideRequest()).isFalse();
        assertThat(budget.requestsInFlight()).isZero();
    }

    private RetryConfig.Builder retryConfig(RetryBudget budget) {
        return RetryConfig.builder().ticker(ticker).sleeper(ticker).retryAll().budget(budget)
                .backoff(Backoff.constant(Duration.ofMillis(100))).jitter(Jitter.none()).maxAttempts(5);
    }

    @Test
    void aRetryGivesBackEveryRetryItWasGrantedAndPublishesTheAttemptsOfItsSuccess() throws Exception {
        RetryBudget budget = RetryBudget.of("c", config().maxConcurrentRetries(10.0, 100).build());
        Retry retry = Retry.of("r", retryConfig(budget).build());
        List<RetryEvent> events = new ArrayList<>();
        Subscription subscription = retry.onEvent(events::add);
        int[] calls = {0};

        assertThat(retry.execute(() -> {
            if (++calls[0] < 3) {
                throw new IOException("boom " + calls[0]);
            }
            return "ok";
        })).isEqualTo("ok");

        assertThat(budget.retriesInFlight()).as("both retries given back").isZero();
        assertThat(budget.requestsInFlight()).isZero();
        assertThat(events.get(events.size() - 1)).isEqualTo(new RetryEvent.Succeeded("r", 1_200 * MS, 3));

        assertThat(retry.execute(() -> "first")).isEqualTo("first");
        assertThat(events.get(events.size() - 1)).isEqualTo(new RetryEvent.Succeeded("r", 1_200 * MS, 1));

        subscription.close();
        int before = events.size();
        retry.execute(() -> "unheard");
        assertThat(events).as("no event after the subscription is closed").hasSize(before);
    }

    @Test
    void anInterruptedBackoffGivesBackItsRetryAndKeepsTheInterrupt() {
        RetryBudget budget = RetryBudget.of("c", config().maxConcurrentRetries(10.0, 100).build());
        Retry retry = Retry.of("r", retryConfig(budget).sleeper(nanos -> {
            throw new InterruptedException("stop");
        }).build());
        IOException boom = new IOException("boom");
        try {
            assertThatThrownBy(() -> retry.execute(() -> {
                throw boom;
            })).isSameAs(boom);
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
        assertThat(budget.retriesInFlight()).isZero();
        assertThat(budget.requestsInFlight()).isZero();
    }
}

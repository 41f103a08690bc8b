package dev.levee.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.BulkheadFullException;
import dev.levee.core.DeadlineExceededException;
import dev.levee.core.InvalidConfigException;
import dev.levee.core.ManualTicker;
import dev.levee.core.RateLimitedException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The seed defaults of issue 12 and the gaps users of other libraries hit. */
class RetryDefaultsAndGapsTest {
    private static final long MS = 1_000_000L;
    private final ManualTicker ticker = new ManualTicker();

    private RetryConfig.Builder config() {
        return RetryConfig.builder().ticker(ticker).sleeper(ticker)
                .backoff(Backoff.constant(Duration.ofMillis(100))).jitter(Jitter.none());
    }

    /** The "seed default — Levee default — why" table of docs/retry.md, read from the builders. */
    @Test
    void theSeedDefaultsTableMatchesTheBuilders() {
        RetryConfig c = RetryConfig.defaults();
        assertThat(c.maxAttempts()).isEqualTo(RetryConfig.DEFAULT_MAX_ATTEMPTS).isEqualTo(3); // 000: 3 attempts
        assertThat(c.backoff()).isSameAs(RetryConfig.DEFAULT_BACKOFF);
        assertThat(c.backoff().delayNanos(1)).isEqualTo(RetryConfig.DEFAULT_INITIAL_BACKOFF.toNanos()).isEqualTo(100 * MS);
        assertThat(c.backoff().delayNanos(2)).isEqualTo((long) (100 * MS * RetryConfig.DEFAULT_BACKOFF_MULTIPLIER));
        assertThat(c.backoff().maxNanos()).isEqualTo(RetryConfig.DEFAULT_MAX_BACKOFF.toNanos()).isEqualTo(10_000 * MS);
        assertThat(c.jitter()).isSameAs(RetryConfig.DEFAULT_JITTER).isSameAs(Jitter.full());
        assertThat(c.retryPredicate()).isSameAs(RetryConfig.DEFAULT_RETRY_PREDICATE).isSameAs(TransientFailure.PREDICATE);
        assertThat(c.maxRetryAfter()).isEqualTo(RetryConfig.DEFAULT_MAX_RETRY_AFTER);
        assertThat(RetryConfig.builder().retryAll().build().retryPredicate()).as("retryAll() is one call away").isNull();
        RetryBudgetConfig budget = RetryBudgetConfig.defaults(); // 003: 20%, 10/s, 10 s
        assertThat(budget.retryRatio()).isEqualTo(RetryBudgetConfig.DEFAULT_RETRY_RATIO).isEqualTo(0.2);
        assertThat(budget.minRetriesPerSecond()).isEqualTo(RetryBudgetConfig.DEFAULT_MIN_RETRIES_PER_SECOND).isEqualTo(10);
        assertThat(budget.ttl()).isEqualTo(RetryBudgetConfig.DEFAULT_TTL).isEqualTo(Duration.ofSeconds(10));
        assertThat(c.budgeted()).as("003: the budget is part of the default retry").isEqualTo(RetryConfig.DEFAULT_BUDGETED).isTrue();
    }

    @Test
    void onlyTransientFailuresAreRetriedByDefault() {
        for (Throwable transientFailure : List.of(new TimeoutException(), new SocketTimeoutException(), new ConnectException(),
                new SocketException("Connection reset"), new DeadlineExceededException("t", "slow", 0),
                new RateLimitedException("rl", "later", 50 * MS), new RetryableException("503"),
                new UncheckedIOException(new SocketTimeoutException()), new CompletionException(new ConnectException()),
                new LagException())) {
            assertThat(attemptsFor(transientFailure)).as("%s", transientFailure).isEqualTo(3);
        }
        for (Throwable permanent : List.of(new IOException("generic"), new FileNotFoundException(), new UnknownHostException(),
                new IllegalArgumentException(), new IllegalStateException(new SocketTimeoutException()),
                new BulkheadFullException("bh", "full, no hint", 0), new UncheckedIOException(new IOException("404")))) {
            assertThat(attemptsFor(permanent)).as("%s", permanent).isEqualTo(1);
        }
    }

    /** A checked exception of the user's, marked retryable (seed 000's RetryableError). */
    private static final class LagException extends Exception implements Retryable {
        private static final long serialVersionUID = 1L;
    }

    private int attemptsFor(Throwable failure) {
        Retry retry = Retry.of("u", config().build());
        AtomicInteger calls = new AtomicInteger();
        try {
            retry.execute(() -> {
                calls.incrementAndGet();
                throw failure;
            });
        } catch (Throwable expected) {
            assertThat(expected).isSameAs(failure);
        }
        return calls.get();
    }

    @Test
    void retryAllAndRetryIfReplaceTheDefaultRuleRetryOnAddsToIt() {
        AtomicInteger calls = new AtomicInteger();
        Retry all = Retry.of("u", config().retryAll().build());
        assertThatThrownBy(() -> all.execute(() -> {
            calls.incrementAndGet();
            throw new IOException("generic");
        })).isInstanceOf(IOException.class);
        assertThat(calls).hasValue(3);
        Retry also = Retry.of("u", config().retryOn(IllegalStateException.class).build());
        calls.set(0);
        assertThatThrownBy(() -> also.execute(() -> {
            calls.incrementAndGet();
            throw new SocketTimeoutException();
        })).isInstanceOf(SocketTimeoutException.class);
        assertThat(calls).as("retryOn adds to the default rule").hasValue(3);
        calls.set(0);
        assertThatThrownBy(() -> also.execute(() -> {
            calls.incrementAndGet();
            throw new IllegalStateException();
        })).isInstanceOf(IllegalStateException.class);
        assertThat(calls).hasValue(3);
        Retry only = Retry.of("u", config().retryIf(t -> t instanceof IllegalStateException).build());
        calls.set(0);
        assertThatThrownBy(() -> only.execute(() -> {
            calls.incrementAndGet();
            throw new SocketTimeoutException();
        })).isInstanceOf(SocketTimeoutException.class);
        assertThat(calls).as("retryIf replaces it").hasValue(1);
    }

    /** A response with a status code, as an HTTP client returns it. */
    private record Response(int status) {}

    @Test
    void retryOnStatusRetriesTransientStatusesAndNever400_401_404_422() {
        for (int status : new int[] {408, 425, 429, 500, 502, 503, 504}) {
            assertThat(attemptsForStatus(status)).as("%d", status).isEqualTo(3);
        }
        for (int status : new int[] {200, 201, 204, 301, 400, 401, 403, 404, 409, 422, 501}) {
            assertThat(attemptsForStatus(status)).as("%d", status).isEqualTo(1);
        }
    }

    private int attemptsForStatus(int status) {
        Retry retry = Retry.of("u", config().retryOnStatus(Response.class, Response::status).build());
        AtomicInteger calls = new AtomicInteger();
        assertThat(retry.execute(() -> {
            calls.incrementAndGet();
            return new Response(status);
        })).isEqualTo(new Response(status));
        return calls.get();
    }

    @Test
    void abortOnResultGivesUpAtOnceWithThatResult() {
        List<RetryEvent> events = new ArrayList<>();
        Retry retry = Retry.of("u", config().retryOnStatus(Response.class, Response::status)
                .abortOnResult(r -> r instanceof Response response && response.status() == 429).build());
        retry.onEvent(events::add);
        AtomicInteger calls = new AtomicInteger();
        int[] answers = {503, 429, 200};
        assertThat(retry.execute(() -> new Response(answers[calls.getAndIncrement()]))).isEqualTo(new Response(429));
        assertThat(calls).hasValue(2);
        assertThat(((RetryEvent.GaveUp) events.get(events.size() - 1)).reason()).isEqualTo(GiveUpReason.ABORTED);
    }

    @Test
    void aNegativeIntervalFallsBackToTheBackoffNeverZero() {
        List<Long> delays = new ArrayList<>();
        Retry retry = Retry.of("u", config().maxAttempts(4)
                .intervalFunction((n, failure, result) -> n == 2 ? Duration.ofMillis(7) : Duration.ofMillis(-1)).build());
        retry.onEvent(e -> {
            if (e instanceof RetryEvent.Retried r) {
                delays.add(r.delayNanos());
            }
        });
        assertThatThrownBy(() -> retry.execute(() -> {
            throw new ConnectException();
        })).isInstanceOf(ConnectException.class);
        assertThat(delays).containsExactly(100 * MS, 7 * MS, 100 * MS);
    }

    @Test
    void perExceptionTypeDelaysFirstMatchWins() {
        List<Long> delays = new ArrayList<>();
        Retry retry = Retry.of("u", config().maxAttempts(4)
                .backoffFor(SocketTimeoutException.class, Backoff.constant(Duration.ofMillis(5)))
                .backoffFor(SocketException.class, Backoff.constant(Duration.ofSeconds(1)))
                .build());
        retry.onEvent(e -> {
            if (e instanceof RetryEvent.Retried r) {
                delays.add(r.delayNanos());
            }
        });
        Throwable[] failures = {new SocketTimeoutException(), new ConnectException(), new TimeoutException()};
        AtomicInteger calls = new AtomicInteger();
        assertThatThrownBy(() -> retry.execute(() -> {
            int i = calls.getAndIncrement();
            throw failures[Math.min(i, 2)];
        })).isInstanceOf(TimeoutException.class);
        assertThat(delays).containsExactly(5 * MS, 1_000 * MS, 100 * MS);
    }

    @Test
    void unlimitedAttemptsStopAtMaxDuration() {
        Retry retry = Retry.of("u", config().unlimitedAttempts().maxDuration(Duration.ofSeconds(10)).build());
        AtomicInteger calls = new AtomicInteger();
        List<RetryEvent> events = new ArrayList<>();
        retry.onEvent(events::add);
        assertThatThrownBy(() -> retry.execute(() -> {
            calls.incrementAndGet();
            throw new ConnectException();
        })).isInstanceOf(ConnectException.class);
        // Attempts at 0, 100, ..., 10,000 ms: the 101st backoff would end past 10 s.
        assertThat(calls).hasValue(101);
        assertThat(((RetryEvent.GaveUp) events.get(events.size() - 1)).reason()).isEqualTo(GiveUpReason.MAX_DURATION);
        assertThat(RetryConfig.builder().unlimitedAttempts().maxDuration(Duration.ofSeconds(1)).build().unlimitedAttempts()).isTrue();
    }

    @Test
    void unlimitedAttemptsWithoutMaxDurationAreRefused() {
        assertThatThrownBy(() -> RetryConfig.builder().unlimitedAttempts().build()).isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("maxDuration must be set when attempts are unlimited");
    }

    @Test
    void aBudgetWithdrawsNAtOnceOrNone() {
        RetryBudget budget = RetryBudget.of("n", RetryBudgetConfig.builder().ticker(ticker).minRetriesPerSecond(0)
                .retryRatio(0.5).build());
        for (int i = 0; i < 10; i++) {
            budget.onRequestStart();
        }
        assertThat(budget.tryRetry(3)).isTrue();
        assertThat(budget.withdrawals()).isEqualTo(3);
        assertThat(budget.tryRetry(3)).as("only 2 left: none of the 3").isFalse();
        assertThat(budget.withdrawals()).isEqualTo(3);
        assertThat(budget.refusals()).isEqualTo(1);
        assertThat(budget.tryRetry(2)).isTrue();
        assertThat(budget.available()).isZero();
        assertThatThrownBy(() -> budget.tryRetry(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("RetryBudget 'n': n must be in [1, 1000000] but was 0");
    }

    @Test
    void theConcurrencyFormReservesNAtOnce() {
        RetryBudget budget = RetryBudget.of("c", RetryBudgetConfig.builder().ticker(ticker).maxConcurrentRetries(0, 3).build());
        assertThat(budget.tryRetry(2)).isTrue();
        assertThat(budget.tryRetry(2)).isFalse();
        assertThat(budget.retriesInFlight()).isEqualTo(2);
        budget.onRetryEnd(2);
        assertThat(budget.tryRetry(3)).isTrue();
        assertThat(budget.retriesInFlight()).isEqualTo(3);
    }

    @Test
    void anUnlimitedBudgetNeverRefusesButStillCounts() {
        RetryBudget budget = RetryBudget.unlimited("tests");
        assertThat(budget.isUnlimited()).isTrue();
        for (int i = 0; i < 10_000; i++) {
            assertThat(budget.tryRetry()).isTrue();
        }
        assertThat(budget.tryRetry(RetryBudget.MAX_WITHDRAWAL)).isTrue();
        assertThat(budget.withdrawals()).isEqualTo(10_000L + RetryBudget.MAX_WITHDRAWAL);
        assertThat(budget.refusals()).isZero();
        assertThat(budget.available()).isEqualTo(Long.MAX_VALUE);
        Retry retry = Retry.of("u", config().budget(budget).build());
        AtomicInteger calls = new AtomicInteger();
        assertThatThrownBy(() -> retry.execute(() -> {
            calls.incrementAndGet();
            throw new ConnectException();
        })).isInstanceOf(ConnectException.class);
        assertThat(calls).hasValue(3);
    }
}

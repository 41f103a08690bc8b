package dev.levee.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.Chain;
import dev.levee.core.CheckedSupplier;
import dev.levee.core.CircuitOpenException;
import dev.levee.core.ContextScope;
import dev.levee.core.Deadline;
import dev.levee.core.ManualTicker;
import dev.levee.core.Pipeline;
import dev.levee.core.Policy;
import dev.levee.core.RandomSource;
import dev.levee.core.RateLimitedException;
import dev.levee.core.RejectedException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

@SuppressWarnings("try") // deadline scopes opened only to make the deadline current
class RetryTest {
    private static final long MS = 1_000_000L;
    private final ManualTicker ticker = new ManualTicker(1_000 * MS);

    private RetryConfig.Builder config() {
        // retryAll(): these tests pin the loop's mechanics with plain IOExceptions; the default rule
        // (transient failures only) has its own tests below.
        return RetryConfig.builder().ticker(ticker).sleeper(ticker).retryAll()
                .backoff(Backoff.constant(Duration.ofMillis(100))).jitter(Jitter.none());
    }

    /** Fails {@code failures} times with a fresh IOException each time, then returns "ok". */
    private static final class Flaky implements CheckedSupplier<String, IOException> {
        final List<IOException> thrown = new ArrayList<>();
        final int failures;
        int calls;

        Flaky(int failures) {
            this.failures = failures;
        }

        @Override
        public String get() throws IOException {
            calls++;
            if (calls <= failures) {
                IOException e = new IOException("boom " + calls);
                thrown.add(e);
                throw e;
            }
            return "ok";
        }
    }

    @Test
    void aFirstSuccessIsReturnedWithoutRetrying() throws IOException {
        Retry retry = Retry.of("test", config().build());
        Flaky call = new Flaky(0);
        assertThat(retry.execute(call)).isEqualTo("ok");
        assertThat(call.calls).isEqualTo(1);
        assertThat(ticker.read()).isEqualTo(1_000 * MS);
        assertThat(retry.metrics()).isEqualTo(new RetryMetrics(1, 0, 0, 0, 0, 0, 0));
    }

    @Test
    void transientFailuresAreRetriedAfterTheBackoff() throws IOException {
        Retry retry = Retry.of("test", config().build());
        Flaky call = new Flaky(2);
        assertThat(retry.execute(call)).isEqualTo("ok");
        assertThat(call.calls).isEqualTo(3);
        assertThat(ticker.read()).isEqualTo(1_200 * MS);
        assertThat(retry.metrics()).isEqualTo(new RetryMetrics(0, 1, 0, 0, 2, 0, 0));
    }

    @Test
    void exhaustionRethrowsTheLastFailureUnchanged() {
        Retry retry = Retry.of("test", config().maxAttempts(4).build());
        Flaky call = new Flaky(100);
        List<RetryEvent> events = new ArrayList<>();
        retry.onEvent(events::add);
        assertThatThrownBy(() -> retry.execute(call)).isSameAs(call.thrown.get(3));
        assertThat(call.calls).isEqualTo(4);
        assertThat(retry.metrics()).isEqualTo(new RetryMetrics(0, 0, 0, 1, 3, 0, 0));
        assertThat(events).hasSize(4);
        assertThat(events.get(0)).isEqualTo(new RetryEvent.Retried("test", 1_000 * MS, 1, 100 * MS, call.thrown.get(0), null));
        assertThat(events.get(3)).isEqualTo(new RetryEvent.GaveUp("test", 1_300 * MS, 4, GiveUpReason.MAX_ATTEMPTS,
                call.thrown.get(3), null));
    }

    @Test
    void maxAttemptsOfOneNeverRetries() {
        Retry retry = Retry.of("test", config().maxAttempts(1).build());
        Flaky call = new Flaky(1);
        assertThatThrownBy(() -> retry.execute(call)).isSameAs(call.thrown.get(0));
        assertThat(retry.metrics().failedWithoutRetry()).isEqualTo(1);
    }

    @Test
    void anErrorIsNeverRetriedAndComesOutUnchanged() {
        Retry retry = Retry.of("test", config().build());
        AtomicInteger calls = new AtomicInteger();
        StackOverflowError error = new StackOverflowError();
        assertThatThrownBy(() -> retry.execute(() -> {
            calls.incrementAndGet();
            throw error;
        })).isSameAs(error);
        assertThat(calls).hasValue(1);
        // Even a classifier that records errors does not make Retry retry them.
        Retry recording = Retry.of("test", config().classifier(dev.levee.core.Classifier.builder().recordErrors(true).build()).build());
        assertThatThrownBy(() -> recording.execute(() -> {
            calls.incrementAndGet();
            throw error;
        })).isSameAs(error);
        assertThat(calls).hasValue(2);
    }

    @Test
    void ignoredExceptionsAreNotRetried() {
        Retry retry = Retry.of("test", config().classifier(dev.levee.core.Classifier.builder()
                .ignore(IllegalStateException.class).build()).build());
        AtomicInteger calls = new AtomicInteger();
        IllegalStateException e = new IllegalStateException();
        assertThatThrownBy(() -> retry.execute(() -> {
            calls.incrementAndGet();
            throw e;
        })).isSameAs(e);
        assertThat(calls).hasValue(1);
    }

    @Test
    void abortPredicatesStopAtOnce() throws IOException {
        List<RetryEvent> events = new ArrayList<>();
        Retry retry = Retry.of("test", config().abortOn(IllegalArgumentException.class)
                .abortIf(t -> t.getMessage() != null && t.getMessage().startsWith("4")).build());
        retry.onEvent(events::add);
        AtomicInteger calls = new AtomicInteger();
        IllegalArgumentException invalid = new IllegalArgumentException("bad input");
        assertThatThrownBy(() -> retry.execute(() -> {
            calls.incrementAndGet();
            throw invalid;
        })).isSameAs(invalid);
        UncheckedIOException notFound = new UncheckedIOException("404 not found", new IOException());
        assertThatThrownBy(() -> retry.execute(() -> {
            calls.incrementAndGet();
            throw notFound;
        })).isSameAs(notFound);
        assertThat(calls).hasValue(2);
        assertThat(events).extracting(e -> ((RetryEvent.GaveUp) e).reason()).containsExactly(GiveUpReason.ABORTED, GiveUpReason.ABORTED);
        // Something else is still retried.
        Flaky call = new Flaky(1);
        assertThat(call.calls).isZero();
        assertThat(retry.execute(() -> call.get().toString())).isEqualTo("ok");
    }

    @Test
    void failedResultsAreRetriedAndTheLastIsReturnedOnExhaustion() {
        Retry retry = Retry.of("test", config().retryOnResult(r -> r instanceof Integer && (Integer) r >= 500).build());
        AtomicInteger calls = new AtomicInteger();
        int[] answers = {503, 502, 200};
        assertThat(retry.execute(() -> answers[calls.getAndIncrement()])).isEqualTo(200);
        assertThat(calls).hasValue(3);
        AtomicInteger always = new AtomicInteger();
        assertThat(retry.execute(() -> 500 + always.getAndIncrement())).isEqualTo(502);
        assertThat(always).hasValue(3);
        assertThat(retry.metrics()).isEqualTo(new RetryMetrics(0, 1, 0, 1, 4, 0, 0));
    }

    @Test
    void aRejectionsRetryAfterHintRaisesTheDelay() {
        Retry retry = Retry.of("test", config().build());
        AtomicInteger calls = new AtomicInteger();
        String answer = retry.execute(() -> {
            if (calls.incrementAndGet() == 1) {
                throw new RateLimitedException("limiter", "no permit", 350 * MS);
            }
            return "ok";
        });
        assertThat(answer).isEqualTo("ok");
        assertThat(ticker.read()).isEqualTo(1_350 * MS);
    }

    @Test
    void aShortHintDoesNotShortenTheBackoff() {
        Retry retry = Retry.of("test", config().build());
        AtomicInteger calls = new AtomicInteger();
        retry.execute(() -> {
            if (calls.incrementAndGet() == 1) {
                throw new RateLimitedException("limiter", "no permit", 10 * MS);
            }
            return "ok";
        });
        assertThat(ticker.read()).isEqualTo(1_100 * MS);
    }

    @Test
    void aHintLongerThanMaxRetryAfterGivesUpAtOnce() {
        Retry retry = Retry.of("test", config().maxRetryAfter(Duration.ofSeconds(5)).build());
        List<RetryEvent> events = new ArrayList<>();
        retry.onEvent(events::add);
        CircuitOpenException open = new CircuitOpenException("breaker", "open", 60_000 * MS);
        AtomicInteger calls = new AtomicInteger();
        assertThatThrownBy(() -> retry.execute(() -> {
            calls.incrementAndGet();
            throw open;
        })).isSameAs(open);
        assertThat(calls).hasValue(1);
        assertThat(ticker.read()).isEqualTo(1_000 * MS);
        assertThat(((RetryEvent.GaveUp) events.get(0)).reason()).isEqualTo(GiveUpReason.RETRY_AFTER_TOO_LONG);
    }

    @Test
    void anExtractorReadsHintsFromResults() {
        record Response(int status, Duration retryAfter) {}
        Retry retry = Retry.of("test", config()
                .retryOnResult(r -> ((Response) r).status() == 503)
                .retryAfterExtractor((failure, result) -> result == null ? null : ((Response) result).retryAfter())
                .build());
        AtomicInteger calls = new AtomicInteger();
        Response ok = retry.execute(() -> calls.incrementAndGet() == 1
                ? new Response(503, Duration.ofSeconds(2)) : new Response(200, null));
        assertThat(ok.status()).isEqualTo(200);
        assertThat(ticker.read()).isEqualTo(3_000 * MS);
    }

    @Test
    void rejectionsCanBeExcludedWithAbortOn() {
        Retry retry = Retry.of("test", config().abortOn(RejectedException.class).build());
        AtomicInteger calls = new AtomicInteger();
        assertThatThrownBy(() -> retry.execute(() -> {
            calls.incrementAndGet();
            throw new RateLimitedException("l", "no", 0);
        })).isInstanceOf(RateLimitedException.class);
        assertThat(calls).hasValue(1);
    }

    @SuppressWarnings("try") // the scope is held only for its close()
    @Test
    void aBackoffEndingPastTheDeadlineIsNotStarted() {
        Retry retry = Retry.of("test", config().backoff(Backoff.exponential(Duration.ofMillis(100), 2, Duration.ofSeconds(10)))
                .maxAttempts(10).build());
        Flaky call = new Flaky(100);
        List<RetryEvent> events = new ArrayList<>();
        retry.onEvent(events::add);
        try (ContextScope scope = Deadline.after(Duration.ofMillis(500), ticker).attach()) {
            assertThatThrownBy(() -> retry.execute(call)).isSameAs(call.thrown.get(2));
        }
        // Attempts at 0, 100, 300 ms; the next backoff (400 ms) would end at 700 > 500: not started.
        assertThat(call.calls).isEqualTo(3);
        assertThat(ticker.read()).isEqualTo(1_300 * MS);
        assertThat(((RetryEvent.GaveUp) events.get(events.size() - 1)).reason()).isEqualTo(GiveUpReason.DEADLINE);
    }

    @SuppressWarnings("try") // the scope is held only for its close()
    @Test
    void anExpiredDeadlineGivesUpEvenWithoutBackoff() {
        Retry retry = Retry.of("test", config().backoff(Backoff.none()).build());
        Flaky call = new Flaky(100);
        try (ContextScope scope = Deadline.afterNanos(0, ticker).attach()) {
            assertThatThrownBy(() -> retry.execute(call)).isSameAs(call.thrown.get(0));
        }
        assertThat(call.calls).isEqualTo(1);
    }

    @Test
    void maxDurationBoundsTheTotalTime() {
        Retry retry = Retry.of("test", config().maxAttempts(100).maxDuration(Duration.ofMillis(450)).build());
        Flaky call = new Flaky(1000);
        List<RetryEvent> events = new ArrayList<>();
        retry.onEvent(events::add);
        assertThatThrownBy(() -> retry.execute(() -> {
            ticker.advance(10 * MS); // each attempt takes 10 ms
            return call.get();
        })).isSameAs(call.thrown.get(4));
        // Attempts start at 0, 110, 220, 330 and 440 ms (each backoff ends by 450); the next would start at 550 > 450.
        assertThat(call.calls).isEqualTo(5);
        assertThat(((RetryEvent.GaveUp) events.get(events.size() - 1)).reason()).isEqualTo(GiveUpReason.MAX_DURATION);
    }

    @Test
    void anInterruptDuringTheBackoffRestoresTheFlagAndRethrows() {
        Retry retry = Retry.of("test", config().sleeper(nanos -> {
            throw new InterruptedException("stop");
        }).build());
        Flaky call = new Flaky(5);
        try {
            assertThatThrownBy(() -> retry.execute(call)).isSameAs(call.thrown.get(0));
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
        assertThat(call.calls).isEqualTo(1);
    }

    @Test
    void anInterruptedThreadDoesNotRetry() {
        Retry retry = Retry.of("test", config().build());
        Flaky call = new Flaky(5);
        try {
            assertThatThrownBy(() -> retry.execute(() -> {
                Thread.currentThread().interrupt();
                return call.get();
            })).isSameAs(call.thrown.get(0));
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
        AtomicInteger calls = new AtomicInteger();
        InterruptedException interrupted = new InterruptedException();
        assertThatThrownBy(() -> retry.execute(() -> {
            calls.incrementAndGet();
            throw interrupted;
        })).isSameAs(interrupted);
        assertThat(calls).hasValue(1);
    }

    @Test
    void anIntervalFunctionSeesTheRetryNumberAndTheOutcome() throws IOException {
        List<String> seen = new ArrayList<>();
        Retry retry = Retry.of("test", config().maxAttempts(4).intervalFunction((n, failure, result) -> {
            seen.add(n + ":" + failure.getMessage());
            return Duration.ofMillis(7L * n);
        }).build());
        Flaky call = new Flaky(3);
        assertThat(retry.execute(call::get)).isEqualTo("ok");
        assertThat(seen).containsExactly("1:boom 1", "2:boom 2", "3:boom 3");
        assertThat(ticker.read()).isEqualTo(1_000 * MS + 42 * MS);
    }

    @Test
    void jitteredDelaysFollowTheSeededSequence() {
        Retry retry = Retry.of("test", config().maxAttempts(5).random(RandomSource.seeded(42))
                .backoff(Backoff.exponential(Duration.ofMillis(100), 2, Duration.ofSeconds(10))).jitter(Jitter.full()).build());
        List<Long> delays = new ArrayList<>();
        retry.onEvent(e -> {
            if (e instanceof RetryEvent.Retried r) {
                delays.add(r.delayNanos());
            }
        });
        assertThatThrownBy(() -> retry.execute(new Flaky(100))).isInstanceOf(IOException.class);
        RandomSource mirror = RandomSource.seeded(42);
        assertThat(delays).containsExactly((long) (mirror.nextDouble() * 100 * MS), (long) (mirror.nextDouble() * 200 * MS),
                (long) (mirror.nextDouble() * 400 * MS), (long) (mirror.nextDouble() * 800 * MS));
        assertThat(ticker.read() - 1_000 * MS).isEqualTo(delays.stream().mapToLong(Long::longValue).sum());
    }

    @Test
    void eachAttemptReRunsThePoliciesInsideTheRetry() throws IOException {
        AtomicInteger innerRuns = new AtomicInteger();
        Policy counting = new Policy() {
            @Override
            public String name() {
                return "counting";
            }

            @Override
            public <T, E extends Throwable> T execute(Chain next, CheckedSupplier<T, E> call) throws E {
                innerRuns.incrementAndGet();
                return next.proceed(call);
            }

            @Override
            public <T> CompletionStage<T> executeAsync(Chain next, Supplier<? extends CompletionStage<T>> call) {
                innerRuns.incrementAndGet();
                return next.proceedAsync(call);
            }
        };
        Pipeline pipeline = Pipeline.of(Retry.of("test", config().build()), counting);
        Flaky call = new Flaky(2);
        assertThat(pipeline.execute(call)).isEqualTo("ok");
        assertThat(innerRuns).hasValue(3);
    }

    @Test
    void decoratedFunctionsRetry() throws Exception {
        Retry retry = Retry.of("test", config().build());
        AtomicInteger calls = new AtomicInteger();
        java.util.concurrent.Callable<String> callable = () -> {
            if (calls.incrementAndGet() < 2) {
                throw new IOException("once");
            }
            return "done";
        };
        assertThat(retry.decorate(callable).call()).isEqualTo("done");
    }

    @Test
    void aThrowingListenerDoesNotAffectTheCall() throws IOException {
        Retry retry = Retry.of("test", config().build());
        retry.onEvent(e -> {
            throw new IllegalStateException("listener bug");
        });
        assertThat(retry.execute(new Flaky(1))).isEqualTo("ok");
    }

    @Test
    void aThrowingCallbackKeepsTheCallsFailureWithTheCallbacksExceptionSuppressed() {
        IllegalStateException bug = new IllegalStateException("callback bug");
        List<RetryConfig.Builder> configs = List.of(
                config().intervalFunction((attempt, failure, result) -> {
                    throw bug;
                }),
                config().intervalFunction((attempt, failure, result) -> null),
                config().retryAfterExtractor((failure, result) -> {
                    throw bug;
                }),
                config().abortIf(t -> {
                    throw bug;
                }),
                config().classifier(dev.levee.core.Classifier.builder().failWhen(t -> {
                    throw bug;
                }).build()));
        for (RetryConfig.Builder builder : configs) {
            Retry retry = Retry.of("test", builder.build());
            Flaky flaky = new Flaky(5);
            assertThatThrownBy(() -> retry.execute(flaky)).isSameAs(flaky.thrown.get(0));
            assertThat(flaky.calls).isEqualTo(1);
            assertThat(flaky.thrown.get(0).getSuppressed()).hasSize(1);
            assertThat(flaky.thrown.get(0).getSuppressed()[0]).isInstanceOfAny(IllegalStateException.class,
                    NullPointerException.class);
            assertThat(retry.metrics().failedWithoutRetry()).isEqualTo(1);
        }
    }

    @Test
    void aThrowingCallbackOnAFailedResultReturnsThatResult() {
        Retry retry = Retry.of("test", config().retryOnResult("busy"::equals).intervalFunction((attempt, failure, result) -> {
            throw new IllegalStateException("callback bug");
        }).build());
        assertThat(retry.execute(() -> "busy")).isEqualTo("busy");
        Retry classifying = Retry.of("test", config().retryOnResult(r -> {
            throw new IllegalStateException("classifier bug");
        }).build());
        assertThat(classifying.execute(() -> "value")).isEqualTo("value");
    }

    @Test
    void aThrowingCallbackKeepsTheAsyncCallsOutcome() {
        dev.levee.core.ManualScheduler scheduler = new dev.levee.core.ManualScheduler(ticker);
        IOException boom = new IOException("boom");
        Retry retry = Retry.of("test", config().scheduler(scheduler).intervalFunction((attempt, failure, result) -> {
            throw new IllegalStateException("callback bug");
        }).build());
        java.util.concurrent.CompletableFuture<String> failed = retry.executeAsync(
                () -> java.util.concurrent.CompletableFuture.<String>failedFuture(boom)).toCompletableFuture();
        assertThat(failed).isCompletedExceptionally();
        assertThatThrownBy(failed::join).hasCause(boom);
        assertThat(boom.getSuppressed()).hasSize(1);
        Retry classifying = Retry.of("test", config().scheduler(scheduler).retryOnResult(r -> {
            throw new IllegalStateException("classifier bug");
        }).build());
        java.util.concurrent.CompletableFuture<String> value = classifying.executeAsync(
                () -> java.util.concurrent.CompletableFuture.completedFuture("value")).toCompletableFuture();
        assertThat(value.getNow(null)).as("completes, not left pending forever").isEqualTo("value");
    }
}

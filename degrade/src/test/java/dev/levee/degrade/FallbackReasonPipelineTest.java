package dev.levee.degrade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.bulkhead.Bulkhead;
import dev.levee.bulkhead.BulkheadConfig;
import dev.levee.circuitbreaker.CircuitBreaker;
import dev.levee.circuitbreaker.CircuitBreakerConfig;
import dev.levee.core.BulkheadFullException;
import dev.levee.core.CircuitOpenException;
import dev.levee.core.Classifier;
import dev.levee.core.DeadlineExceededException;
import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import dev.levee.core.Pipeline;
import dev.levee.core.RateLimitedException;
import dev.levee.core.ShedException;
import dev.levee.ratelimiter.RateLimiter;
import dev.levee.ratelimiter.RateLimiterConfig;
import dev.levee.timeout.Timeout;
import dev.levee.timeout.TimeoutConfig;
import dev.levee.timeout.TimeoutMode;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Each {@link FallbackReason} mapped from a real Levee rejection, with the fallback outermost in a pipeline. */
class FallbackReasonPipelineTest {
    private final ManualTicker ticker = new ManualTicker();
    private final ManualScheduler scheduler = new ManualScheduler(ticker);
    private final AtomicInteger primaryCalls = new AtomicInteger();

    private Fallback<String> fallback(String name) {
        FallbackConfig config = FallbackConfig.builder().ticker(ticker).scheduler(scheduler).build();
        return Fallback.of(name, config, FallbackTier.of("static", cause -> "static:" + FallbackReason.of(cause).tag()));
    }

    private String primary() {
        primaryCalls.incrementAndGet();
        return "fresh";
    }

    @Test
    void anOpenBreakerFallsBackWithCircuitOpen() {
        CircuitBreaker breaker = CircuitBreaker.of("cb", CircuitBreakerConfig.builder().ticker(ticker).build());
        breaker.transitionToOpen();
        Fallback<String> fallback = fallback("reason-breaker");

        assertThat(Pipeline.of(fallback, breaker).execute(this::primary)).isEqualTo("static:circuit_open");
        Degraded<String> answer = fallback.executeDegraded(breaker, this::primary);

        assertThat(answer.degraded()).isTrue();
        assertThat(answer.reason()).isEqualTo(FallbackReason.CIRCUIT_OPEN);
        assertThat(answer.tier()).isEqualTo("static");
        assertThat(answer.cause()).isInstanceOf(CircuitOpenException.class);
        assertThat(answer.value()).isEqualTo("static:circuit_open");
        assertThat(primaryCalls).hasValue(0);
        assertThat(fallback.fallbackCount(FallbackReason.CIRCUIT_OPEN, 0)).isEqualTo(2);
    }

    @Test
    void anExhaustedRateLimiterFallsBackWithRateLimited() {
        RateLimiter limiter = RateLimiter.of("rl", RateLimiterConfig.builder().rate(1, Duration.ofMinutes(1)).ticker(ticker).build());
        Fallback<String> fallback = fallback("reason-limiter");

        Degraded<String> first = fallback.executeDegraded(limiter, this::primary);
        Degraded<String> second = fallback.executeDegraded(limiter, this::primary);

        assertThat(first).isEqualTo(Degraded.fresh("fresh"));
        assertThat(second.reason()).isEqualTo(FallbackReason.RATE_LIMITED);
        assertThat(second.cause()).isInstanceOf(RateLimitedException.class);
        assertThat(primaryCalls).hasValue(1);
    }

    @Test
    void aFullBulkheadFallsBackWithBulkheadFull() {
        Bulkhead bulkhead = Bulkhead.of("bh", BulkheadConfig.builder().maxConcurrentCalls(1).ticker(ticker).build());
        assertThat(bulkhead.tryAcquire(ticker.read())).isTrue(); // another call holds the only slot
        Fallback<String> fallback = fallback("reason-bulkhead");

        Degraded<String> answer = fallback.executeDegraded(bulkhead, this::primary);
        bulkhead.onIgnored();

        assertThat(answer.reason()).isEqualTo(FallbackReason.BULKHEAD_FULL);
        assertThat(answer.cause()).isInstanceOf(BulkheadFullException.class);
        assertThat(primaryCalls).hasValue(0);
    }

    @Test
    void aTimeoutFallsBackWithTimeout() {
        Timeout timeout = Timeout.of("to", TimeoutConfig.builder().timeout(Duration.ofMillis(100))
                .mode(TimeoutMode.COOPERATIVE).ticker(ticker).scheduler(scheduler).build());
        Fallback<String> fallback = fallback("reason-timeout");

        Degraded<String> answer = fallback.executeDegraded(timeout, () -> {
            ticker.advance(Duration.ofMillis(150));
            Timeout.checkpoint();
            return primary();
        });

        assertThat(answer.reason()).isEqualTo(FallbackReason.TIMEOUT);
        assertThat(answer.cause()).isInstanceOf(DeadlineExceededException.class);
        assertThat(primaryCalls).hasValue(0);
    }

    @Test
    void theWholeRecommendedPipelineFallsBackForEachGate() {
        CircuitBreaker breaker = CircuitBreaker.of("cb", CircuitBreakerConfig.builder().ticker(ticker).build());
        RateLimiter limiter = RateLimiter.of("rl", RateLimiterConfig.builder().rate(1, Duration.ofMinutes(1)).ticker(ticker).build());
        Bulkhead bulkhead = Bulkhead.of("bh", BulkheadConfig.builder().maxConcurrentCalls(1).ticker(ticker).build());
        Timeout timeout = Timeout.of("to", TimeoutConfig.builder().timeout(Duration.ofMillis(100))
                .mode(TimeoutMode.COOPERATIVE).ticker(ticker).scheduler(scheduler).build());
        Fallback<String> fallback = fallback("reason-full-pipeline");
        Pipeline pipeline = Pipeline.of(fallback, breaker, limiter, bulkhead, timeout);

        assertThat(pipeline.execute(this::primary)).isEqualTo("fresh");
        assertThat(pipeline.execute(this::primary)).isEqualTo("static:rate_limited");
        breaker.transitionToOpen();
        assertThat(pipeline.execute(this::primary)).isEqualTo("static:circuit_open");
        assertThat(fallback.metrics().byReason())
                .containsEntry(FallbackReason.RATE_LIMITED, 1L)
                .containsEntry(FallbackReason.CIRCUIT_OPEN, 1L);
    }

    @Test
    void aShedCallFallsBackWithShed() {
        Fallback<String> fallback = fallback("reason-shed");

        Degraded<String> answer = fallback.executeDegraded(() -> {
            throw new ShedException("shedder", "concurrency_limit", "over the limit", 0L, null);
        });

        assertThat(answer.reason()).isEqualTo(FallbackReason.SHED);
    }

    @Test
    void anyOtherExceptionFallsBackWithError() throws IOException {
        Fallback<String> fallback = fallback("reason-error");

        Degraded<String> answer = fallback.executeDegraded(() -> {
            throw new IOException("connection reset");
        });

        assertThat(answer.reason()).isEqualTo(FallbackReason.ERROR);
        assertThat(answer.message()).isEqualTo("error: served by tier 'static'");
    }

    @Test
    void aBadResultFallsBackWithResultAndKeepsTheResultWhenEveryTierFails() {
        FallbackConfig config = FallbackConfig.builder().ticker(ticker)
                .classifier(Classifier.builder().failOnResult("bad"::equals).build()).build();
        Fallback<String> fallback = Fallback.of("reason-result", config, FallbackTier.of("static", cause -> {
            assertThat(cause).isInstanceOf(BadResultException.class);
            return "static:" + ((BadResultException) cause).result();
        }));
        Fallback<String> failing = Fallback.of("reason-result-failing", config, FallbackTier.of("broken", cause -> {
            throw new IOException("no");
        }));

        Degraded<String> answer = fallback.executeDegraded(() -> "bad");

        assertThat(answer.reason()).isEqualTo(FallbackReason.RESULT);
        assertThat(answer.value()).isEqualTo("static:bad");
        assertThat(fallback.get(() -> "good")).isEqualTo("good");
        assertThat(failing.get(() -> "bad")).isEqualTo("bad");
        assertThat(failing.exhaustedCount(FallbackReason.RESULT)).isEqualTo(1);
    }

    @Test
    void anAsynchronousPipelineFallsBackWithTheRejectionsReason() {
        CircuitBreaker breaker = CircuitBreaker.of("cb", CircuitBreakerConfig.builder().ticker(ticker).build());
        breaker.transitionToOpen();
        Fallback<String> fallback = fallback("reason-async");

        CompletableFuture<String> plain = Pipeline.of(fallback, breaker)
                .executeAsync(() -> CompletableFuture.completedFuture("fresh")).toCompletableFuture();
        CompletableFuture<Degraded<String>> degraded = fallback
                .executeDegradedAsync(breaker, () -> CompletableFuture.completedFuture("fresh")).toCompletableFuture();

        assertThat(plain).isCompletedWithValue("static:circuit_open");
        assertThat(degraded.join().reason()).isEqualTo(FallbackReason.CIRCUIT_OPEN);
    }

    @Test
    void onlyTheConfiguredReasonsTriggerTheFallback() {
        FallbackConfig config = FallbackConfig.builder().ticker(ticker).reasons(FallbackReason.CIRCUIT_OPEN).build();
        Fallback<String> fallback = Fallback.of("reason-filter", config, FallbackTier.ofValue("static", "static"));
        IOException io = new IOException("boom");
        CircuitBreaker breaker = CircuitBreaker.of("cb", CircuitBreakerConfig.builder().ticker(ticker).build());
        breaker.transitionToOpen();

        assertThatThrownBy(() -> fallback.get(() -> {
            throw io;
        })).isSameAs(io);
        assertThat(fallback.executeDegraded(breaker, this::primary).value()).isEqualTo("static");
    }

    @Test
    void anExceptionTheClassifierIgnoresPassesThroughUnchanged() {
        FallbackConfig config = FallbackConfig.builder().ticker(ticker)
                .classifier(Classifier.builder().ignore(IllegalArgumentException.class).build()).build();
        Fallback<String> fallback = Fallback.of("reason-ignored", config, FallbackTier.ofValue("static", "static"));
        IllegalArgumentException bad = new IllegalArgumentException("validation");

        assertThatThrownBy(() -> fallback.get(() -> {
            throw bad;
        })).isSameAs(bad);
        assertThat(fallback.metrics().fallbacks()).isZero();
    }

    @Test
    void theBreakerInsideStillSeesTheFailuresTheFallbackAnswersAndOpens() {
        CircuitBreaker breaker = CircuitBreaker.of("cb-counting", CircuitBreakerConfig.builder()
                .countWindow(4).minimumNumberOfCalls(2).failureRateThreshold(0.5).ticker(ticker).build());
        Fallback<String> fallback = fallback("reason-breaker-opens");
        Pipeline pipeline = Pipeline.of(fallback, breaker);

        for (int i = 0; i < 2; i++) {
            String answer = pipeline.execute(() -> {
                throw new IllegalStateException("down");
            });
            assertThat(answer).isEqualTo("static:error");
        }
        assertThat(pipeline.execute(this::primary)).isEqualTo("static:circuit_open");

        assertThat(primaryCalls).hasValue(0);
        assertThat(fallback.metrics().byReason())
                .containsEntry(FallbackReason.ERROR, 2L)
                .containsEntry(FallbackReason.CIRCUIT_OPEN, 1L);
    }
}

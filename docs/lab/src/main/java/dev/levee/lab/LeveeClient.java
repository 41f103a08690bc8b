package dev.levee.lab;

import dev.levee.circuitbreaker.CircuitBreaker;
import dev.levee.circuitbreaker.CircuitBreakerConfig;
import dev.levee.core.ContextScope;
import dev.levee.core.Deadline;
import dev.levee.core.Pipeline;
import dev.levee.core.RandomSource;
import dev.levee.core.Scheduler;
import dev.levee.core.ShedException;
import dev.levee.core.Ticker;
import dev.levee.degrade.Degraded;
import dev.levee.degrade.Fallback;
import dev.levee.degrade.FallbackConfig;
import dev.levee.degrade.FallbackTier;
import dev.levee.loadshed.ClientThrottle;
import dev.levee.loadshed.ClientThrottleConfig;
import dev.levee.retry.Backoff;
import dev.levee.retry.Jitter;
import dev.levee.retry.Retry;
import dev.levee.retry.RetryBudget;
import dev.levee.retry.RetryBudgetConfig;
import dev.levee.retry.RetryConfig;
import dev.levee.timeout.Timeout;
import dev.levee.timeout.TimeoutConfig;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Levee's recommended client pipeline, outermost first: a degrading {@link Fallback} (a stand-in answer,
 * marked degraded, when everything below gives up), {@link Retry} (3 attempts, jittered exponential
 * backoff, a {@link RetryBudget} of 10% of requests, never past the deadline), a {@link CircuitBreaker}
 * (opens at 50% failures over 20 calls, 1 s open, 3 probes; the downstream's 503 sheds are not failures),
 * a {@link ClientThrottle} (the SRE book's adaptive throttling: stops sending what would be shed) and a
 * {@link Timeout} bounded by the request's {@link Deadline}, which is also the header each attempt
 * carries.
 */
final class LeveeClient implements Client {
    private final Transport transport;
    private final Ticker ticker;
    private final Pipeline pipeline;
    private final CircuitBreaker breaker;
    private final Fallback<String> fallback;

    LeveeClient(Transport transport, Ticker ticker, Scheduler scheduler, Executor executor, RandomSource random) {
        this.transport = transport;
        this.ticker = ticker;
        RetryBudget budget = RetryBudget.of("lab", RetryBudgetConfig.builder()
                .ticker(ticker)
                .build());
        Retry retry = Retry.of("lab", RetryConfig.builder()
                .maxAttempts(3)
                .backoff(Backoff.exponential(Duration.ofMillis(50), 2.0, Duration.ofMillis(400)))
                .jitter(Jitter.full())
                .retryIf(LeveeClient::retryable)
                .budget(budget)
                .ticker(ticker)
                .scheduler(scheduler)
                .executor(executor)
                .random(random)
                .build());
        this.breaker = CircuitBreaker.of("lab", CircuitBreakerConfig.builder()
                .countWindow(50)
                .minimumNumberOfCalls(20)
                .failureRateThreshold(0.6)
                .waitDurationInOpen(Duration.ofSeconds(1))
                .permittedCallsInHalfOpen(3)
                .ticker(ticker)
                .scheduler(scheduler)
                .build());
        ClientThrottle throttle = ClientThrottle.of("lab", ClientThrottleConfig.builder()
                .window(Duration.ofSeconds(4))
                .buckets(8)
                .random(random)
                .ticker(ticker)
                .build());
        Timeout timeout = Timeout.of("lab", TimeoutConfig.builder()
                .timeout(Duration.ofSeconds(1))
                .ticker(ticker)
                .scheduler(scheduler)
                .asyncExecutor(executor)
                .build());
        this.pipeline = Pipeline.of(retry, breaker, throttle, timeout);
        this.fallback = Fallback.of("lab", FallbackConfig.builder().ticker(ticker).scheduler(scheduler).build(),
                FallbackTier.ofValue("static", "degraded"));
    }

    /** Retry what the downstream failed or shed; never a local rejection (breaker, throttle, deadline). */
    private static boolean retryable(Throwable failure) {
        return failure instanceof DownstreamErrorException
                || failure instanceof ShedException shed && DOWNSTREAM.equals(shed.policyName());
    }

    @Override
    public CompletableFuture<String> call(Request request) {
        AtomicInteger attempts = new AtomicInteger();
        try (ContextScope scope = Deadline.afterNanos(request.remainingNanos(), ticker).attach()) {
            return fallback.executeDegradedAsync(pipeline, () -> {
                Deadline deadline = Deadline.currentOrNull();
                long remaining = deadline == null ? request.remainingNanos() : deadline.remainingNanos();
                return transport.send(request.attempt(attempts.incrementAndGet(), remaining))
                        .thenApply(reply -> {
                            if (reply.status() != 200) {
                                throw Client.failure(reply);
                            }
                            return "ok";
                        });
            }).thenApply(LeveeClient::describe).toCompletableFuture();
        }
    }

    private static String describe(Degraded<String> d) {
        return d.degraded() ? "degraded:" + cause(d.cause()) : "ok";
    }

    private static String cause(Throwable t) {
        return Outcomes.cause(t);
    }

    @Override
    public int breakerState() {
        return switch (breaker.state()) {
            case CLOSED -> 0;
            case HALF_OPEN -> 1;
            default -> 2;
        };
    }
}

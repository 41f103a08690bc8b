package dev.levee.examples;

import dev.levee.bulkhead.Bulkhead;
import dev.levee.bulkhead.BulkheadConfig;
import dev.levee.circuitbreaker.CircuitBreaker;
import dev.levee.circuitbreaker.CircuitBreakerConfig;
import dev.levee.core.ManualTicker;
import dev.levee.core.Pipeline;
import dev.levee.core.Policy;
import dev.levee.ratelimiter.RateLimiter;
import dev.levee.ratelimiter.RateLimiterConfig;
import dev.levee.retry.Retry;
import dev.levee.retry.RetryConfig;
import dev.levee.testing.PolicyContract;
import dev.levee.timeout.Timeout;
import dev.levee.timeout.TimeoutConfig;
import dev.levee.timeout.TimeoutMode;
import java.time.Duration;

/**
 * The pipeline users build (retry, breaker, rate limiter, bulkhead, timeout) passes the shared
 * {@link PolicyContract}: values and exceptions come through unchanged, an {@code Error} is neither
 * retried nor swallowed, the interrupt flag survives, and async calls never throw.
 */
class PipelineContractTest extends PolicyContract {
    @Override
    protected Policy newPolicy(ManualTicker ticker) {
        Retry retry = Retry.of("contract", RetryConfig.builder().maxAttempts(3).retryAll()
                .ticker(ticker).sleeper(ticker).build());
        CircuitBreaker breaker = CircuitBreaker.of("contract", CircuitBreakerConfig.builder().ticker(ticker).build());
        RateLimiter limiter = RateLimiter.of("contract", RateLimiterConfig.builder().limit(1_000_000)
                .period(Duration.ofSeconds(1)).ticker(ticker).sleeper(ticker).build());
        Bulkhead bulkhead = Bulkhead.of("contract", BulkheadConfig.builder().maxConcurrentCalls(64)
                .maxWait(Duration.ZERO).ticker(ticker).build());
        Timeout timeout = Timeout.of("contract", TimeoutConfig.builder().timeout(Duration.ofSeconds(5))
                .mode(TimeoutMode.COOPERATIVE).ticker(ticker).build());
        return Pipeline.of(retry, breaker, limiter, bulkhead, timeout);
    }
}

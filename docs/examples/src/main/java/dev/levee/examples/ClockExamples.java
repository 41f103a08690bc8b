package dev.levee.examples;

import dev.levee.bulkhead.Bulkhead;
import dev.levee.bulkhead.BulkheadConfig;
import dev.levee.circuitbreaker.CircuitBreaker;
import dev.levee.circuitbreaker.CircuitBreakerConfig;
import dev.levee.core.Pipeline;
import dev.levee.core.Ticker;
import dev.levee.ratelimiter.RateLimiter;
import dev.levee.ratelimiter.RateLimiterConfig;
import java.time.Duration;

/**
 * Reading the clock only when a gate needs it, and the opt-in coarse ticker ({@code docs/core.md},
 * "Reading the clock only when a gate needs it").
 */
public final class ClockExamples {
    private ClockExamples() {}

    /**
     * A breaker without a slow-call rule in front of a bulkhead: neither needs a clock reading while the
     * breaker is CLOSED, so a call through this pipeline reads no clock at all.
     *
     * @param ticker the ticker both gates share (one instance, so the pipeline fuses them)
     * @return the pipeline
     */
    public static Pipeline noClockPipeline(Ticker ticker) {
        CircuitBreaker breaker = CircuitBreaker.of("inventory", CircuitBreakerConfig.builder()
                .countWindow(100)
                .noSlowCallRule()          // no call is slow: CLOSED needs no latency
                .ticker(ticker)
                .build());
        Bulkhead bulkhead = Bulkhead.of("inventory", BulkheadConfig.builder()
                .maxConcurrentCalls(20)
                .ticker(ticker)
                .build());
        return Pipeline.of(breaker, bulkhead);
    }

    /**
     * Every policy on the shared coarse ticker: the pipeline's two readings (the breaker's default
     * slow-call rule needs the latency, the limiter needs "now") become volatile loads, at most about
     * 1 ms behind {@code System.nanoTime()}. Fine for a 2 s slow-call threshold and a limit of 500 per
     * second; not for sub-millisecond latency measurement.
     *
     * @return the pipeline
     */
    public static Pipeline coarsePipeline() {
        Ticker coarse = Ticker.coarse(); // one shared instance while in use: the gates fuse
        return Pipeline.of(
                CircuitBreaker.of("payments", CircuitBreakerConfig.builder().ticker(coarse).build()),
                RateLimiter.of("payments", RateLimiterConfig.builder()
                        .rate(500, Duration.ofSeconds(1)).ticker(coarse).build()),
                Bulkhead.of("payments", BulkheadConfig.builder().ticker(coarse).build()));
    }
}

package dev.levee.examples;

import dev.levee.bulkhead.Bulkhead;
import dev.levee.circuitbreaker.CircuitBreaker;
import dev.levee.circuitbreaker.CircuitBreakerConfig;
import dev.levee.core.Pipeline;
import dev.levee.core.PolicyRegistry;
import dev.levee.core.Ticker;
import dev.levee.micrometer.LeveeMeters;
import dev.levee.ratelimiter.RateLimiter;
import dev.levee.retry.Retry;
import dev.levee.timeout.Timeout;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;

/** The example of {@code docs/metrics.md}, compiled by the build and run by {@code MetricsExamplesTest}. */
public final class MetricsExamples {
    private MetricsExamples() {}

    /**
     * Binds a registry of breakers (now and later) and a pipeline's policies, times the breaker and the
     * bulkhead, and runs one call.
     *
     * @param meterRegistry where the meters go
     * @param ticker the clock the timers read
     * @return the result of the call
     */
    static String bindEverything(MeterRegistry meterRegistry, Ticker ticker) {
        LeveeMeters metrics = LeveeMeters.builder(meterRegistry)
                .percentileHistogram(true)          // opt-in: buckets for Prometheus' histogram_quantile
                .ticker(ticker)
                .build();

        PolicyRegistry<CircuitBreakerConfig, CircuitBreaker> breakers = CircuitBreaker.registry(CircuitBreakerConfig.defaults());
        Retry retry = Retry.ofDefaults("orders");
        RateLimiter limiter = RateLimiter.ofDefaults("orders");
        Bulkhead bulkhead = Bulkhead.ofDefaults("orders");
        Timeout timeout = Timeout.of("orders", Duration.ofSeconds(2));
        metrics.bindAll(breakers, retry, limiter, bulkhead, timeout);

        CircuitBreaker breaker = breakers.get("orders");   // created after bindAll: bound on creation
        Pipeline pipeline = Pipeline.of(retry, metrics.timed(breaker), limiter, metrics.timed(bulkhead), timeout);
        return pipeline.execute(() -> "shipped");
    }
}

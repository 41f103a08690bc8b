package dev.levee.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.circuitbreaker.CircuitBreaker;
import dev.levee.circuitbreaker.CircuitState;
import dev.levee.core.ManualTicker;
import dev.levee.ratelimiter.RateLimitDecision;
import dev.levee.ratelimiter.RateLimiter;
import dev.levee.ratelimiter.RateLimiterConfig;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The breaker and limiter examples of docs/circuitbreaker.md and docs/ratelimiter.md do what they say. */
class BreakerAndLimiterExamplesTest {

    @Test
    void countingRulesStartOpen() {
        CircuitBreaker breaker = CircuitBreakerDemo.countingRules();
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        assertThat(breaker.config().failureCountThreshold()).isEqualTo(5);
    }

    @Test
    void maintenanceOpensTheBreaker() {
        CircuitBreaker breaker = CircuitBreakerDemo.defaults();
        CircuitBreakerDemo.maintenance(breaker, Instant.now().plusSeconds(3600));
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        assertThat(breaker.rejection(breaker.ticker().read()).retryAfter()).isGreaterThan(Duration.ofMinutes(59));
    }

    @Test
    void statusPeeksInXRateLimitHeaders() {
        ManualTicker ticker = new ManualTicker();
        RateLimiter limiter = RateLimiter.of("status", RateLimiterConfig.builder().rate(5, Duration.ofSeconds(1))
                .burst(2).ticker(ticker).sleeper(ticker).build());
        Map<String, String> headers = new LinkedHashMap<>();
        assertThat(RateLimiterDemo.status(limiter, new RateLimitDecision(), headers)).isEqualTo(2);
        assertThat(headers).containsEntry("X-RateLimit-Limit", "5").containsEntry("X-RateLimit-Remaining", "2");
        assertThat(limiter.availablePermits()).isEqualTo(2); // the peek took nothing
    }
}

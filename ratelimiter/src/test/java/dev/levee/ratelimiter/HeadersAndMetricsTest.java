package dev.levee.ratelimiter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualTicker;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HeadersAndMetricsTest {
    private final ManualTicker ticker = new ManualTicker();

    private RateLimiter limiter(String name) {
        return RateLimiter.of(name, RateLimiterConfig.builder().rate(10, Duration.ofSeconds(1)).burst(2)
                .ticker(ticker).sleeper(ticker).build());
    }

    @Test
    void aRefusalRendersRetryAfterAndTheIetfFields() {
        RateLimiter limiter = limiter("api");
        limiter.tryAcquire(2, ticker.read());
        RateLimitDecision d = new RateLimitDecision();
        limiter.tryAcquire(1, ticker.read(), d);
        Map<String, String> headers = new LinkedHashMap<>();
        RateLimitHeaders.write(limiter, d, headers::put);
        assertThat(headers).containsExactly(
                Map.entry("RateLimit-Policy", "\"api\";q=10;w=1"),
                Map.entry("RateLimit", "\"api\";r=0;t=1"),
                Map.entry("Retry-After", "1"));
    }

    @Test
    void aGrantHasNoRetryAfterAndNamesAreQuotedSafely() {
        RateLimiter limiter = limiter("say \"hi\"\\");
        RateLimitDecision d = new RateLimitDecision();
        limiter.tryAcquire(1, ticker.read(), d);
        Map<String, String> headers = new LinkedHashMap<>();
        RateLimitHeaders.write(limiter, d, headers::put);
        assertThat(headers).doesNotContainKey("Retry-After");
        assertThat(headers.get("RateLimit")).isEqualTo("\"say \\\"hi\\\"\\\\\";r=1;t=1");
        assertThat(RateLimitHeaders.retryAfter(new RateLimitDecision().set(false, 1, 0, Long.MAX_VALUE, 0)))
                .isEqualTo("86400");
    }

    @Test
    void theBinderCountsPermitsAndReportsGauges() {
        RateLimiter limiter = limiter("metered");
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new RateLimiterMetricsBinder(limiter).bindTo(registry);
        limiter.tryAcquire(1, ticker.read());
        limiter.tryAcquire(1, ticker.read());
        limiter.tryAcquire(3, ticker.read()); // never fits: refused
        assertThat(registry.get("levee.ratelimiter.permits").tag("outcome", "granted").functionCounter().count())
                .isEqualTo(2.0);
        assertThat(registry.get("levee.ratelimiter.permits").tag("outcome", "rejected").functionCounter().count())
                .isEqualTo(3.0);
        assertThat(registry.get("levee.ratelimiter.available").tag("name", "metered").gauge().value()).isZero();
        ticker.advance(Duration.ofSeconds(1));
        assertThat(registry.get("levee.ratelimiter.available").gauge().value()).isEqualTo(2.0);
        assertThat(registry.get("levee.ratelimiter.waiting").gauge().value()).isZero();
        assertThat(registry.get("levee.ratelimiter.rate").gauge().value()).isEqualTo(10.0);
    }

    @Test
    void theKeyedBinderReportsKeysAndAllPermits() {
        KeyedRateLimiter<String> keyed = KeyedRateLimiter.<String>builder("keyed")
                .defaultConfig(RateLimiterConfig.builder().rate(1, Duration.ofSeconds(1)).ticker(ticker).build())
                .build();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new RateLimiterMetricsBinder(keyed).bindTo(registry);
        keyed.tryAcquire("a");
        keyed.tryAcquire("a");
        keyed.tryAcquire("b");
        assertThat(registry.get("levee.ratelimiter.keys").gauge().value()).isEqualTo(2.0);
        assertThat(registry.get("levee.ratelimiter.permits").tag("outcome", "granted").functionCounter().count())
                .isEqualTo(2.0);
    }

    @Test
    void eventsAreDeliveredForRejectionsAndRateChanges() {
        RateLimiter limiter = limiter("events");
        List<RateLimiterEvent> events = new ArrayList<>();
        limiter.onEvent(events::add);
        limiter.tryAcquire(2, ticker.read());
        limiter.tryAcquire(1, ticker.read());
        limiter.setRate(20, Duration.ofSeconds(1));
        assertThat(events).hasSize(2);
        assertThat(events.get(0)).isEqualTo(new RateLimiterEvent.Rejected("events", 0L, 1, 100_000_000L));
        assertThat(events.get(1)).isEqualTo(new RateLimiterEvent.RateChanged("events", 0L, 20, 1_000_000_000L));
    }
}

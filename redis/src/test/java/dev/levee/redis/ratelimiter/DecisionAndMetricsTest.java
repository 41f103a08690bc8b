package dev.levee.redis.ratelimiter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualTicker;
import dev.levee.core.RateLimitedException;
import dev.levee.ratelimiter.RateLimitDecision;
import dev.levee.ratelimiter.RateLimitHeaders;
import dev.levee.ratelimiter.RateLimiterConfig;
import dev.levee.ratelimiter.RateLimiterEvent;
import dev.levee.redis.RedisTestSupport;
import io.lettuce.core.api.StatefulRedisConnection;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A decision from Redis answers a 429 like a local one; events, metrics and the binder follow. */
class DecisionAndMetricsTest extends RedisTestSupport {

    @Test
    void aRefusalCarriesEverythingA429Needs() {
        try (StatefulRedisConnection<String, String> c = connect()) {
            ManualTicker plusOneHour = new ManualTicker(Duration.ofHours(1).toNanos());
            RedisRateLimiter limiter = RedisRateLimiter.of(unique("api"), RedisRateLimiterConfig.builder()
                    .rate(RateLimiterConfig.builder().rate(10, Duration.ofHours(10)).burst(2)
                            .ticker(plusOneHour).sleeper(plusOneHour).build())
                    .callTimeout(Duration.ofSeconds(10))
                    .build(), c);
            List<RateLimiterEvent> events = new ArrayList<>();
            limiter.onEvent(events::add);
            RateLimitDecision d = new RateLimitDecision();
            assertThat(limiter.tryAcquire(1, plusOneHour.read(), d)).isTrue();
            assertThat(d.remaining()).isEqualTo(1);
            assertThat(d.limit()).isEqualTo(10);
            assertThat(limiter.tryAcquire(1, plusOneHour.read(), d)).isTrue();
            assertThat(limiter.tryAcquire(1, plusOneHour.read(), d)).isFalse();
            assertThat(d.remaining()).isZero();
            // T = 1 h; real time since the grants is far below a minute.
            assertThat(d.retryAfterNanos()).isBetween(Duration.ofMinutes(59).toNanos(), Duration.ofHours(1).toNanos());
            assertThat(d.resetAfterNanos()).isBetween(Duration.ofMinutes(119).toNanos(), Duration.ofHours(2).toNanos());
            Map<String, String> headers = new LinkedHashMap<>();
            RateLimitHeaders.write(limiter, d, headers::put);
            // 3600 unless more than a second passed between the grants and the refusal.
            assertThat(Long.parseLong(headers.get(RateLimitHeaders.RETRY_AFTER))).isBetween(3540L, 3600L);
            assertThat(headers.get(RateLimitHeaders.RATE_LIMIT_POLICY)).contains("q=10").contains("w=36000");
            assertThat(events).singleElement().isInstanceOf(RateLimiterEvent.Rejected.class);
            assertThatThrownBy(() -> limiter.acquire(1, Duration.ZERO)).isInstanceOf(RateLimitedException.class)
                    .satisfies(e -> assertThat(((RateLimitedException) e).retryAfterNanos()).isPositive());
            // A peek neither takes nor counts a refusal.
            RateLimitDecision peek = limiter.peek(plusOneHour.read(), new RateLimitDecision());
            assertThat(peek.allowed()).isFalse();
            assertThat(limiter.redisMetrics().rejected()).isEqualTo(2);
        }
    }

    @Test
    void acquireWaitsByReservingOnTheServer() {
        try (StatefulRedisConnection<String, String> c = connect()) {
            ManualTicker ticker = new ManualTicker();
            RedisRateLimiter limiter = RedisRateLimiter.of(unique("wait"), RedisRateLimiterConfig.builder()
                    .rate(RateLimiterConfig.builder().rate(10, Duration.ofHours(10)).burst(1).ticker(ticker).sleeper(ticker).build())
                    .callTimeout(Duration.ofSeconds(10))
                    .build(), c);
            assertThat(limiter.reserves()).isTrue();
            limiter.acquire(1, Duration.ZERO);
            // The next permit is due in T = 1 h (less the real time that passed): booked, then slept.
            limiter.acquire(1, Duration.ofHours(2));
            assertThat(ticker.read()).isBetween(Duration.ofMinutes(59).toNanos(), Duration.ofHours(1).toNanos());
            // Two are booked ahead now: the third is due in about 2 h, beyond a 30-minute wait.
            assertThatThrownBy(() -> limiter.acquire(1, Duration.ofMinutes(30))).isInstanceOf(RateLimitedException.class)
                    .satisfies(e -> assertThat(((RateLimitedException) e).retryAfterNanos())
                            .isBetween(Duration.ofMinutes(119).toNanos(), Duration.ofHours(2).toNanos()));
            RateLimitDecision d = limiter.peek(ticker.read(), new RateLimitDecision());
            assertThat(d.balance()).as("one permit owed").isEqualTo(-1);
        }
    }

    @Test
    void anInstanceWithAClockAnHourOffSeesTheSameState() {
        try (StatefulRedisConnection<String, String> c1 = connect(); StatefulRedisConnection<String, String> c2 = connect()) {
            String name = unique("skew");
            ManualTicker ahead = new ManualTicker(Duration.ofHours(1).toNanos());
            ManualTicker behind = new ManualTicker(-Duration.ofHours(1).toNanos());
            RedisRateLimiter a = RedisRateLimiter.of(name, config(ahead), c1);
            RedisRateLimiter b = RedisRateLimiter.of(name, config(behind), c2);
            RateLimitDecision d = new RateLimitDecision();
            for (int i = 1; i <= 5; i++) {
                RedisRateLimiter l = i % 2 == 0 ? a : b;
                assertThat(l.tryAcquire(1, l.ticker().read(), d)).isTrue();
                assertThat(d.remaining()).isEqualTo(5 - i);
            }
            assertThat(a.tryAcquire(1, ahead.read())).isFalse();
            assertThat(b.tryAcquire(1, behind.read())).isFalse();
        }
    }

    @Test
    void theBinderPublishesTheCounters() {
        try (StatefulRedisConnection<String, String> c = connect()) {
            RedisRateLimiter limiter = RedisRateLimiter.of(unique("bound"), RedisRateLimiterConfig.builder()
                    .rate(RateLimiterConfig.builder().rate(2, Duration.ofDays(1)).build())
                    .callTimeout(Duration.ofSeconds(10))
                    .build(), c);
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            new RedisRateLimiterMetricsBinder(limiter).bindTo(registry);
            limiter.tryAcquire();
            limiter.tryAcquire();
            limiter.tryAcquire();
            assertThat(registry.get("levee.ratelimiter.rejected").tag("kind", "rate_limited").functionCounter().count())
                    .isEqualTo(1.0);
            assertThat(registry.get("levee.ratelimiter.permits").functionCounter().count()).isEqualTo(2.0);
            assertThat(registry.get("levee.ratelimiter.redis.decisions").tag("outcome", "store").functionCounter().count())
                    .isEqualTo(3.0);
            assertThat(registry.get("levee.ratelimiter.redis.available").gauge().value()).isEqualTo(1.0);
        }
    }

    private static RedisRateLimiterConfig config(ManualTicker ticker) {
        return RedisRateLimiterConfig.builder()
                .rate(RateLimiterConfig.builder().rate(5, Duration.ofDays(1)).ticker(ticker).sleeper(ticker).build())
                .callTimeout(Duration.ofSeconds(10))
                .build();
    }
}

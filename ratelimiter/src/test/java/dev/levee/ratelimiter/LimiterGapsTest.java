package dev.levee.ratelimiter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.InvalidConfigException;
import dev.levee.core.ManualTicker;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/** Issue 12, "what users of other libraries look for": the rate limiter's gaps, each pinned. */
class LimiterGapsTest {
    private static final long T = 100_000_000L; // 10 per second
    private final ManualTicker ticker = new ManualTicker(0);

    private RateLimiter limiter(RateLimitAlgorithm algorithm, long burst) {
        RateLimiterConfig.Builder b = RateLimiterConfig.builder().algorithm(algorithm).rate(10, Duration.ofSeconds(1))
                .ticker(ticker).sleeper(ticker);
        if (algorithm == RateLimitAlgorithm.GCRA || algorithm == RateLimitAlgorithm.TOKEN_BUCKET) {
            b.burst(burst);
        }
        return RateLimiter.of(algorithm.name(), b.build());
    }

    @ParameterizedTest
    @EnumSource(RateLimitAlgorithm.class)
    void aZeroPermitPeekReadsWithoutConsuming(RateLimitAlgorithm algorithm) {
        RateLimiter l = limiter(algorithm, 10);
        RateLimitDecision d = new RateLimitDecision();
        long fresh = l.availablePermits(0);
        for (int i = 0; i < 5; i++) {
            l.peek(0, d);
        }
        assertThat(l.availablePermits(0)).isEqualTo(fresh);
        assertThat(d.allowed()).isTrue();
        assertThat(d.remaining()).isEqualTo(fresh);
        assertThat(d.resetAfterNanos()).isZero();
        assertThat(l.tryAcquire((int) fresh, 0)).isTrue();
        l.peek(0, d);
        assertThat(d.allowed()).isFalse();
        assertThat(d.remaining()).isZero();
        assertThat(d.retryAfterNanos()).isPositive();
        assertThat(d.resetAfterNanos()).isPositive();
        assertThat(l.tryAcquire(1, 0)).isFalse(); // the peek took nothing, and did not free anything either
    }

    @ParameterizedTest
    @EnumSource(value = RateLimitAlgorithm.class, names = {"GCRA", "TOKEN_BUCKET", "LEAKY_BUCKET"})
    void remainingShowsTheDebtOfBookedPermits(RateLimitAlgorithm algorithm) {
        RateLimiter l = limiter(algorithm, 2);
        long now = 0;
        long r;
        int booked = 0;
        while ((r = l.reserve(1, now, Long.MAX_VALUE / 4)) >= 0 && booked < 5) {
            booked++;
        }
        RateLimitDecision d = l.peek(now, new RateLimitDecision());
        assertThat(d.remaining()).isZero();
        assertThat(d.balance()).as("%s: %d booked", algorithm, booked).isNegative();
        assertThat(l.tryAcquire(1, now, d)).isFalse();
        assertThat(d.remaining()).isZero();
        assertThat(d.balance()).isNegative();
        assertThat(r).isPositive();
    }

    @Test
    void gcraDebtIsCountedInPermits() {
        RateLimiter l = limiter(RateLimitAlgorithm.GCRA, 2);
        for (int i = 0; i < 5; i++) {
            assertThat(l.reserve(1, 0, Long.MAX_VALUE / 4)).isNotNegative(); // 2 now, 3 booked ahead
        }
        assertThat(l.peek(0, new RateLimitDecision()).balance()).isEqualTo(-3);
        assertThat(l.peek(3 * T, new RateLimitDecision()).balance()).isZero();
        assertThat(l.peek(4 * T, new RateLimitDecision()).balance()).isEqualTo(1);
    }

    @Test
    void theTokenBucketCanStartWithFewerTokens() {
        RateLimiter empty = RateLimiter.of("empty", RateLimiterConfig.builder().algorithm(RateLimitAlgorithm.TOKEN_BUCKET)
                .rate(10, Duration.ofSeconds(1)).burst(10).initialTokens(0).ticker(ticker).build());
        assertThat(empty.availablePermits(0)).isZero();
        assertThat(empty.tryAcquire(1, 0)).isFalse();
        assertThat(empty.tryAcquire(1, T)).isTrue();
        RateLimiter some = RateLimiter.of("some", RateLimiterConfig.builder().algorithm(RateLimitAlgorithm.TOKEN_BUCKET)
                .rate(10, Duration.ofSeconds(1)).burst(10).initialTokens(4).ticker(ticker).build());
        assertThat(some.availablePermits(0)).isEqualTo(4);
        RateLimiter full = RateLimiter.of("full", RateLimiterConfig.builder().algorithm(RateLimitAlgorithm.TOKEN_BUCKET)
                .rate(10, Duration.ofSeconds(1)).burst(10).ticker(ticker).build());
        assertThat(full.availablePermits(0)).isEqualTo(10); // seed 002: a new bucket is full
    }

    @Test
    void initialTokensBounds() {
        RateLimiterConfig.Builder tb = RateLimiterConfig.builder().algorithm(RateLimitAlgorithm.TOKEN_BUCKET).burst(5);
        assertThatThrownBy(() -> tb.initialTokens(6).build()).isInstanceOf(InvalidConfigException.class)
                .hasMessage("RateLimiter: initialTokens must be in [0, 5] but was 6");
        assertThatThrownBy(() -> tb.initialTokens(-2).build()).isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("initialTokens must be in [0, 5] but was -2");
        assertThatThrownBy(() -> RateLimiterConfig.builder().initialTokens(1).build())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("initialTokens must be unset for GCRA");
        assertThat(tb.initialTokens(0).build().initialTokens()).isZero();
        assertThat(tb.initialTokens(5).build().toBuilder().build().initialTokens()).isEqualTo(5);
    }

    @Test
    void xRateLimitHeadersAsAnOptionBesideTheIetfFields() {
        RateLimiter l = limiter(RateLimitAlgorithm.GCRA, 3);
        RateLimitDecision d = new RateLimitDecision();
        l.tryAcquire(3, 0, d);
        l.tryAcquire(1, 0, d);
        Map<String, String> x = new LinkedHashMap<>();
        RateLimitHeaders.write(l, d, x::put, RateLimitHeaders.Style.X_RATE_LIMIT);
        assertThat(x).containsExactly(
                Map.entry("X-RateLimit-Limit", "10"),
                Map.entry("X-RateLimit-Remaining", "0"),
                Map.entry("X-RateLimit-Reset", "1"),
                Map.entry("Retry-After", "1"));
        Map<String, String> both = new LinkedHashMap<>();
        RateLimitHeaders.write(l, d, both::put, RateLimitHeaders.Style.BOTH);
        assertThat(both).containsKeys("RateLimit-Policy", "RateLimit", "X-RateLimit-Limit", "X-RateLimit-Remaining",
                "X-RateLimit-Reset", "Retry-After");
        Map<String, String> ietf = new LinkedHashMap<>();
        RateLimitHeaders.write(l, d, ietf::put);
        assertThat(ietf).containsOnlyKeys("RateLimit-Policy", "RateLimit", "Retry-After");
    }

    @Test
    void theSnapshotRecord() {
        RateLimiter l = limiter(RateLimitAlgorithm.GCRA, 4);
        l.tryAcquire(1, 0);
        RateLimiterMetrics m = l.metrics();
        assertThat(m).isEqualTo(new RateLimiterMetrics(10, 1_000_000_000L, 3, 0));
    }

    @Test
    void aRegistryBuiltLikeEveryPatterns() {
        dev.levee.core.PolicyRegistry<RateLimiterConfig, RateLimiter> limiters = RateLimiter.registry(
                RateLimiterConfig.builder().ticker(ticker).build());
        limiters.addConfig("strict", RateLimiterConfig.builder().rate(1, Duration.ofSeconds(1)).ticker(ticker).build());
        assertThat(limiters.get("search")).isSameAs(limiters.get("search"));
        assertThat(limiters.get("search").limit()).isEqualTo(100);
        assertThat(limiters.get("payments", "strict").limit()).isEqualTo(1);
        assertThat(limiters.get("payments", "strict").name()).isEqualTo("payments");
    }
}

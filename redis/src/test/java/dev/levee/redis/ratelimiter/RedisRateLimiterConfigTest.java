package dev.levee.redis.ratelimiter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.InvalidConfigException;
import dev.levee.ratelimiter.RateLimitAlgorithm;
import dev.levee.ratelimiter.RateLimiterConfig;
import java.time.Duration;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every bound of {@link RedisRateLimiterConfig}: the message names policy, field, bound and value. */
class RedisRateLimiterConfigTest {

    static Stream<Arguments> outOfBounds() {
        return Stream.of(
                bad("rate", b -> b.rate(null), "null"),
                bad("rate.algorithm", b -> b.rate(RateLimiterConfig.builder().algorithm(RateLimitAlgorithm.SLIDING_LOG).build()),
                        "SLIDING_LOG"),
                bad("rate.buckets", b -> b.rate(RateLimiterConfig.builder().algorithm(RateLimitAlgorithm.SLIDING_WINDOW_COUNTER)
                        .buckets(4).build()), "4"),
                bad("rate.warmUp", b -> b.rate(RateLimiterConfig.builder().warmUp(Duration.ofSeconds(1)).build()), "PT1S"),
                bad("rate.limit", b -> b.rate(RateLimiterConfig.builder().rate(2_000, Duration.ofMillis(1)).build()), "2000"),
                bad("rate.burst", b -> b.rate(RateLimiterConfig.builder().algorithm(RateLimitAlgorithm.TOKEN_BUCKET)
                        .rate(1, Duration.ofDays(365)).burst(1_000_000).build()),
                        "1000000"),
                bad("keyPrefix", b -> b.keyPrefix(null), "null"),
                bad("keyPrefix", b -> b.keyPrefix("a{b}"), "a{b}"),
                bad("callTimeout", b -> b.callTimeout(null), "null"),
                bad("callTimeout", b -> b.callTimeout(Duration.ofNanos(999_999)), "PT0.000999999S"),
                bad("callTimeout", b -> b.callTimeout(Duration.ofSeconds(61)), "PT1M1S"),
                bad("outagePolicy", b -> b.outagePolicy(null), "null"),
                bad("expectedInstances", b -> b.expectedInstances(0), "0"),
                bad("expectedInstances", b -> b.expectedInstances(1_000_001), "1000001"),
                bad("storeBreaker", b -> b.storeBreaker(null), "null"),
                bad("leaseSize", b -> b.leaseSize(-1), "-1"),
                bad("leaseSize", b -> b.leaseSize(101), "101"),
                bad("leaseRefillThreshold", b -> b.leaseRefillThreshold(-0.1), "-0.1"),
                bad("leaseRefillThreshold", b -> b.leaseRefillThreshold(1.5), "1.5"));
    }

    private static Arguments bad(String field, UnaryOperator<RedisRateLimiterConfig.Builder> change, String value) {
        return Arguments.of(field, change, value);
    }

    @ParameterizedTest(name = "{0} = {2}")
    @MethodSource("outOfBounds")
    void outOfBoundsIsRefusedByName(String field, UnaryOperator<RedisRateLimiterConfig.Builder> change, String value) {
        assertThatThrownBy(() -> change.apply(RedisRateLimiterConfig.builder()).build())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("RedisRateLimiter")
                .hasMessageContaining(field)
                .hasMessageContaining(value);
    }

    @Test
    void boundsThemselvesAreAccepted() {
        RedisRateLimiterConfig c = RedisRateLimiterConfig.builder()
                .rate(RateLimiterConfig.builder().rate(1_000, Duration.ofMillis(1)).build())
                .keyPrefix("")
                .callTimeout(Duration.ofMillis(1))
                .expectedInstances(1_000_000)
                .leaseSize(1_000)
                .leaseRefillThreshold(1.0)
                .build();
        assertThat(c.leaseSize()).isEqualTo(1_000);
        assertThat(c.toBuilder().callTimeout(Duration.ofSeconds(60)).leaseRefillThreshold(0.0).leaseSize(0).build().callTimeoutNanos())
                .isEqualTo(60_000_000_000L);
    }

    @Test
    void defaultsAreTheConstants() {
        RedisRateLimiterConfig d = RedisRateLimiterConfig.defaults();
        assertThat(d.keyPrefix()).isEqualTo(RedisRateLimiterConfig.DEFAULT_KEY_PREFIX);
        assertThat(d.callTimeoutNanos()).isEqualTo(RedisRateLimiterConfig.DEFAULT_CALL_TIMEOUT.toNanos());
        assertThat(d.outagePolicy()).isEqualTo(RedisRateLimiterConfig.DEFAULT_OUTAGE_POLICY);
        assertThat(d.expectedInstances()).isEqualTo(RedisRateLimiterConfig.DEFAULT_EXPECTED_INSTANCES);
        assertThat(d.leaseSize()).isEqualTo(RedisRateLimiterConfig.DEFAULT_LEASE_SIZE);
        assertThat(d.leaseRefillThreshold()).isEqualTo(RedisRateLimiterConfig.DEFAULT_LEASE_REFILL_THRESHOLD);
        assertThat(d.storeBreaker()).isSameAs(RedisRateLimiterConfig.DEFAULT_STORE_BREAKER);
        assertThat(d.rate()).isSameAs(RateLimiterConfig.defaults());
    }

    @Test
    void theFallbackRunsAtTheRateDividedByTheInstances() {
        RateLimiterConfig rate = RateLimiterConfig.builder().algorithm(RateLimitAlgorithm.TOKEN_BUCKET).rate(100, Duration.ofSeconds(1))
                .burst(40).initialTokens(30).build();
        RateLimiterConfig local = RedisRateLimiter.fallbackRate(rate, 4);
        assertThat(local.limit()).isEqualTo(25);
        assertThat(local.burst()).isEqualTo(10);
        assertThat(local.initialTokens()).isEqualTo(10);
        assertThat(RedisRateLimiter.fallbackRate(rate, 1_000).limit()).isEqualTo(1);
    }
}

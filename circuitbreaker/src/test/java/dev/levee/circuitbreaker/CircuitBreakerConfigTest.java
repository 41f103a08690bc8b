package dev.levee.circuitbreaker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.InvalidConfigException;
import java.time.Duration;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class CircuitBreakerConfigTest {

    private static void rejects(UnaryOperator<CircuitBreakerConfig.Builder> change, String field, String fragment) {
        assertThatThrownBy(() -> change.apply(CircuitBreakerConfig.builder()).build())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("CircuitBreaker")
                .hasMessageContaining(field)
                .hasMessageContaining(fragment)
                .satisfies(e -> assertThat(((InvalidConfigException) e).field()).isEqualTo(field));
    }

    @Test
    void defaultsFollowTheSeedsAndPublishedPractice() {
        CircuitBreakerConfig c = CircuitBreakerConfig.defaults();
        assertThat(c.slidingWindowType()).isEqualTo(SlidingWindowType.COUNT_BASED);
        assertThat(c.slidingWindowSize()).isEqualTo(100);
        assertThat(c.minimumNumberOfCalls()).isEqualTo(20);
        assertThat(c.failureRateThreshold()).isEqualTo(0.5);
        assertThat(c.slowCallRateThreshold()).isEqualTo(0.8);
        assertThat(c.slowCallDurationThreshold()).isEqualTo(Duration.ofSeconds(2));
        assertThat(c.consecutiveFailureThreshold()).isZero();
        assertThat(c.failureCountThreshold()).isZero();
        assertThat(c.decayingFailureThreshold()).isZero();
        assertThat(c.waitDurationInOpen()).isEqualTo(Duration.ofSeconds(30));
        assertThat(c.waitDurationMultiplier()).isEqualTo(1.0);
        assertThat(c.maxWaitDurationInOpen()).isEqualTo(Duration.ofMinutes(30));
        assertThat(c.permittedCallsInHalfOpen()).isEqualTo(3);
        assertThat(c.successThresholdInHalfOpen()).isZero();
        assertThat(c.halfOpenRetryAfter()).isEqualTo(Duration.ofSeconds(1));
        assertThat(c.maxWaitInHalfOpen()).isEqualTo(Duration.ofSeconds(60));
        assertThat(c.halfOpenTimeoutAction()).isEqualTo(HalfOpenTimeoutAction.ADMIT_NEW_PROBES);
        assertThat(c.initialState()).isEqualTo(CircuitState.CLOSED);
        assertThat(c.recordAsSuccess()).isNull();
        assertThat(c.automaticTransitionToHalfOpen()).isFalse();
        assertThat(c.classifier()).isSameAs(CircuitBreakerConfig.defaultClassifier());
        assertThat(c.timeWindowBuckets()).isEqualTo(10);
        assertThat(c.toString()).contains("COUNT_BASED(100 calls)");
    }

    @Test
    void aRateAboveOneIsRefusedAsALikelyPercent() {
        rejects(b -> b.failureRateThreshold(50), "failureRateThreshold", "50.0 looks like a percent: write 0.5");
        rejects(b -> b.slowCallRateThreshold(80), "slowCallRateThreshold", "looks like a percent: write 0.8");
        rejects(b -> b.failureRateThreshold(1.5), "failureRateThreshold", "looks like a percent");
        rejects(b -> b.failureRateThreshold(150), "failureRateThreshold", "a fraction in (0, 1] but was 150.0");
    }

    @Test
    void nullsAndNamelessConfigsAreInvalidConfigNamingThePolicy() {
        assertThatThrownBy(() -> CircuitBreaker.of("cb", null))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("CircuitBreaker 'cb'").hasMessageContaining("config");
        assertThatThrownBy(() -> CircuitBreaker.of(null, CircuitBreakerConfig.defaults()))
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("CircuitBreaker");
        rejects(b -> b.recordAsSuccessWhen(null), "recordAsSuccessWhen", "not null");
        rejects(b -> b.waitDurationInOpen(null, Duration.ofSeconds(1)), "waitDurationFunction", "not null");
        rejects(b -> b.initialState(null), "initialState", "not null");
        rejects(b -> b.halfOpenRetryAfter(null), "halfOpenRetryAfter", "not null");
    }

    @Test
    void everyBoundIsChecked() {
        rejects(b -> b.countWindow(0), "slidingWindowSize", "in [1, 1000000] but was 0");
        rejects(b -> b.countWindow(1_000_001), "slidingWindowSize", "but was 1000001");
        rejects(b -> b.timeWindow(0, 1), "slidingWindowSize", "in [1, 86400] but was 0");
        rejects(b -> b.timeWindow(86_401, 10), "slidingWindowSize", "but was 86401");
        rejects(b -> b.timeWindow(10, 0), "timeWindowBuckets", "in [1, 1000] but was 0");
        rejects(b -> b.timeWindow(10, 1001), "timeWindowBuckets", "but was 1001");
        rejects(b -> b.timeWindow(1, 1000).timeWindowBuckets(1000).slidingWindowSize(1).timeWindowBuckets(1000)
                .slidingWindowType(SlidingWindowType.TIME_BASED).slidingWindowSize(1).timeWindowBuckets(1000)
                .minimumNumberOfCalls(0), "minimumNumberOfCalls", "but was 0");
        rejects(b -> b.minimumNumberOfCalls(0), "minimumNumberOfCalls", "in [1, 1000000] but was 0");
        rejects(b -> b.countWindow(10).minimumNumberOfCalls(11), "minimumNumberOfCalls", "<= slidingWindowSize (10)");
        rejects(b -> b.failureRateThreshold(0), "failureRateThreshold", "a fraction in (0, 1] but was 0.0");
        rejects(b -> b.failureRateThreshold(-0.1), "failureRateThreshold", "but was -0.1");
        rejects(b -> b.failureRateThreshold(100.5), "failureRateThreshold", "but was 100.5");
        rejects(b -> b.failureRateThreshold(Double.NaN), "failureRateThreshold", "but was NaN");
        rejects(b -> b.slowCallRateThreshold(0), "slowCallRateThreshold", "a fraction in (0, 1] but was 0.0");
        rejects(b -> b.slowCallRateThreshold(101), "slowCallRateThreshold", "but was 101.0");
        rejects(b -> b.failureCountThreshold(-1), "failureCountThreshold", "in [0, 1000000] but was -1");
        rejects(b -> b.failureCountThreshold(1_000_001), "failureCountThreshold", "but was 1000001");
        rejects(b -> b.decayingFailureThreshold(-1), "decayingFailureThreshold", "in [0, 1000000] but was -1");
        rejects(b -> b.decayingFailureThreshold(1_000_001), "decayingFailureThreshold", "but was 1000001");
        rejects(b -> b.halfOpenRetryAfter(Duration.ofNanos(-1)), "halfOpenRetryAfter", ">= 0");
        rejects(b -> b.initialState(CircuitState.HALF_OPEN), "initialState", "not HALF_OPEN");
        rejects(b -> b.slowCallDurationThreshold(Duration.ZERO), "slowCallDurationThreshold", "> 0");
        rejects(b -> b.slowCallDurationThreshold(null), "slowCallDurationThreshold", "not null");
        rejects(b -> b.consecutiveFailureThreshold(-1), "consecutiveFailureThreshold", "in [0, 1000000] but was -1");
        rejects(b -> b.waitDurationInOpen(Duration.ofSeconds(-1)), "waitDurationInOpen", "> 0");
        rejects(b -> b.waitDurationBackoff(0.5, Duration.ofMinutes(1)), "waitDurationMultiplier", "in [1.0, 100.0] but was 0.5");
        rejects(b -> b.waitDurationBackoff(101, Duration.ofMinutes(1)), "waitDurationMultiplier", "but was 101.0");
        rejects(b -> b.waitDurationBackoff(2, Duration.ofSeconds(29)), "maxWaitDurationInOpen", ">= waitDurationInOpen (PT30S)");
        rejects(b -> b.permittedCallsInHalfOpen(0), "permittedCallsInHalfOpen", "in [1, 1000] but was 0");
        rejects(b -> b.permittedCallsInHalfOpen(1001), "permittedCallsInHalfOpen", "but was 1001");
        rejects(b -> b.successThresholdInHalfOpen(4), "successThresholdInHalfOpen", "in [0, 3] but was 4");
        rejects(b -> b.successThresholdInHalfOpen(-1), "successThresholdInHalfOpen", "but was -1");
        rejects(b -> b.maxWaitInHalfOpen(Duration.ZERO), "maxWaitInHalfOpen", "> 0");
        rejects(b -> b.halfOpenTimeoutAction(null), "halfOpenTimeoutAction", "not null");
        rejects(b -> b.slidingWindowType(null), "slidingWindowType", "not null");
        rejects(b -> b.classifier(null), "classifier", "not null");
        rejects(b -> b.ticker(null), "ticker", "not null");
        rejects(b -> b.scheduler(null), "scheduler", "not null");
    }

    @Test
    void boundaryValuesAreAccepted() {
        CircuitBreakerConfig.builder().countWindow(1).minimumNumberOfCalls(1).failureRateThreshold(1)
                .slowCallRateThreshold(1).permittedCallsInHalfOpen(1000).successThresholdInHalfOpen(1000)
                .consecutiveFailureThreshold(1_000_000).failureCountThreshold(1_000_000)
                .decayingFailureThreshold(1_000_000).halfOpenRetryAfter(Duration.ZERO)
                .waitDurationBackoff(100, Duration.ofSeconds(30)).build();
        CircuitBreakerConfig.builder().failureRateThreshold(Double.MIN_VALUE).slowCallRateThreshold(1e-9).build();
        CircuitBreakerConfig time = CircuitBreakerConfig.builder().timeWindow(1, 1000).minimumNumberOfCalls(1_000_000).build();
        assertThat(time.slidingWindowType()).isEqualTo(SlidingWindowType.TIME_BASED);
        assertThat(CircuitBreakerConfig.builder().timeWindow(86_400, 1).build().slidingWindowSize()).isEqualTo(86_400);
    }

    @Test
    void theDefaultCapFollowsALongWaitUnlessSetExplicitly() {
        CircuitBreakerConfig c = CircuitBreakerConfig.builder().waitDurationInOpen(Duration.ofHours(1)).build();
        assertThat(c.maxWaitDurationInOpen()).isEqualTo(Duration.ofHours(1));
        assertThat(c.waitInOpenNanos(3)).isEqualTo(Duration.ofHours(1).toNanos());
        CircuitBreakerConfig shorter = c.toBuilder().waitDurationInOpen(Duration.ofSeconds(5)).build();
        assertThat(shorter.maxWaitDurationInOpen()).isEqualTo(Duration.ofMinutes(30));
        rejects(b -> b.waitDurationBackoff(2, Duration.ofSeconds(10)).waitDurationInOpen(Duration.ofSeconds(11)),
                "maxWaitDurationInOpen", ">= waitDurationInOpen (PT11S) but was PT10S");
    }

    @Test
    void waitInOpenFormula() {
        CircuitBreakerConfig c = CircuitBreakerConfig.builder().waitDurationInOpen(Duration.ofSeconds(1))
                .waitDurationBackoff(3, Duration.ofSeconds(20)).build();
        assertThat(c.waitInOpenNanos(1)).isEqualTo(1_000_000_000L);
        assertThat(c.waitInOpenNanos(2)).isEqualTo(3_000_000_000L);
        assertThat(c.waitInOpenNanos(3)).isEqualTo(9_000_000_000L);
        assertThat(c.waitInOpenNanos(4)).isEqualTo(20_000_000_000L);
        assertThat(c.waitInOpenNanos(1000)).isEqualTo(20_000_000_000L);
        CircuitBreakerConfig f = CircuitBreakerConfig.builder().waitDurationInOpen(Duration.ofSeconds(2))
                .waitDurationInOpen(n -> n == 2 ? null : Duration.ofSeconds(n), Duration.ofSeconds(5)).build();
        assertThat(f.waitInOpenNanos(1)).isEqualTo(1_000_000_000L);
        assertThat(f.waitInOpenNanos(2)).isEqualTo(2_000_000_000L); // null falls back to waitDurationInOpen
        assertThat(f.waitInOpenNanos(9)).isEqualTo(5_000_000_000L);
    }

    @Test
    void toBuilderCopiesEveryField() {
        CircuitBreakerConfig c = CircuitBreakerConfig.builder().timeWindow(30, 6).minimumNumberOfCalls(7)
                .failureRateThreshold(0.25).slowCallRateThreshold(0.7).slowCallDurationThreshold(Duration.ofMillis(300))
                .consecutiveFailureThreshold(4).failureCountThreshold(6).decayingFailureThreshold(5)
                .halfOpenRetryAfter(Duration.ofMillis(250)).initialState(CircuitState.FORCED_OPEN)
                .recordAsSuccess(IllegalStateException.class).waitDurationInOpen(Duration.ofSeconds(5))
                .waitDurationBackoff(2, Duration.ofSeconds(40)).permittedCallsInHalfOpen(3).successThresholdInHalfOpen(2)
                .maxWaitInHalfOpen(Duration.ofSeconds(9)).halfOpenTimeoutAction(HalfOpenTimeoutAction.REOPEN)
                .automaticTransitionToHalfOpen(true).build();
        assertThat(c.toBuilder().build().toString()).isEqualTo(c.toString());
        assertThat(c.toBuilder().build().recordAsSuccess()).isSameAs(c.recordAsSuccess());
    }

    @Test
    void hugeDurationsSaturateInsteadOfOverflowing() {
        Duration forever = Duration.ofSeconds(Long.MAX_VALUE);
        dev.levee.core.ManualTicker ticker = new dev.levee.core.ManualTicker();
        CircuitBreaker breaker = CircuitBreaker.of("forever", CircuitBreakerConfig.builder()
                .slowCallDurationThreshold(forever).maxWaitInHalfOpen(forever).waitDurationInOpen(forever)
                .ticker(ticker).build());
        breaker.transitionToOpen();
        assertThat(breaker.tryAcquire(ticker.read())).isFalse();
        assertThat(breaker.rejection(ticker.read()).retryAfterNanos()).isEqualTo(Long.MAX_VALUE / 4);
        breaker.transitionToClosed();
        assertThat(breaker.tryAcquire(ticker.read())).isTrue();
        breaker.onSuccess(Long.MAX_VALUE / 8); // ~36 years: still not slow
        assertThat(breaker.metrics().slowCalls()).isZero();
    }

    @Test
    void breakerNameIsValidated() {
        assertThatThrownBy(() -> CircuitBreaker.of(" ", CircuitBreakerConfig.defaults()))
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("name");
    }
}

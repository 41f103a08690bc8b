package dev.levee.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.circuitbreaker.CircuitBreaker;
import dev.levee.circuitbreaker.CircuitBreakerConfig;
import dev.levee.circuitbreaker.SlidingWindowType;
import dev.levee.config.internal.Durations;
import dev.levee.core.InvalidConfigException;
import dev.levee.core.PolicyRegistry;
import dev.levee.ratelimiter.RateLimiterConfig;
import dev.levee.retry.Retry;
import dev.levee.retry.RetryConfig;
import java.io.IOException;
import java.io.StringReader;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class LeevePropertiesTest {

    private static LeeveLoader props(String text) {
        return new LeeveLoader(text);
    }

    /** Loads a {@code .properties} text. */
    private record LeeveLoader(String text) {
        LeveeProperties load() {
            Properties p = new Properties();
            try {
                p.load(new StringReader(text));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            return LeveeProperties.of(p);
        }
    }

    @Test
    void namedValuesOverrideDefaultsWhichOverrideTheBuilders() {
        LeveeProperties levee = props("""
                levee.circuitbreaker.default.failureRateThreshold = 0.25
                levee.circuitbreaker.default.waitDurationInOpen = 30s
                levee.circuitbreaker.payments.waitDurationInOpen = 5s
                levee.circuitbreaker.payments.slidingWindowType = time_based
                unrelated.key = 1
                """).load();

        CircuitBreakerConfig payments = levee.config(CircuitBreakerConfig.class, "payments");
        assertThat(payments.failureRateThreshold()).isEqualTo(0.25);                 // inherited from default
        assertThat(payments.waitDurationInOpen()).isEqualTo(Duration.ofSeconds(5));   // its own
        assertThat(payments.slidingWindowType()).isEqualTo(SlidingWindowType.TIME_BASED);
        assertThat(payments.minimumNumberOfCalls()).isEqualTo(CircuitBreakerConfig.DEFAULT_MINIMUM_NUMBER_OF_CALLS);

        CircuitBreakerConfig other = levee.config(CircuitBreakerConfig.class, "search");   // no keys: default only
        assertThat(other.failureRateThreshold()).isEqualTo(0.25);
        assertThat(other.waitDurationInOpen()).isEqualTo(Duration.ofSeconds(30));
        assertThat(levee.names(CircuitBreakerConfig.class)).containsExactly("payments");
    }

    @Test
    void aMapWorksAndFieldsMatchInKebabAndSnakeCase() {
        LeveeProperties levee = LeveeProperties.of(Map.of(
                "levee.retry.orders.max-attempts", "5",
                "levee.retry.orders.max_retry_after", "PT2S",
                "levee.ratelimiter.search.limit", " 100 ",
                "levee.ratelimiter.search.period", "1500ms"));
        RetryConfig retry = levee.config(RetryConfig.class, "orders");
        assertThat(retry.maxAttempts()).isEqualTo(5);
        assertThat(retry.maxRetryAfter()).isEqualTo(Duration.ofSeconds(2));
        RateLimiterConfig limiter = levee.config(RateLimiterConfig.class, "search");
        assertThat(limiter.limit()).isEqualTo(100);
        assertThat(limiter.period()).isEqualTo(Duration.ofMillis(1500));
    }

    @Test
    void switchesAreKeysSetToTrue() {
        RetryConfig retry = LeveeProperties.of(Map.of("levee.retry.x.unlimitedAttempts", "true",
                "levee.retry.x.maxDuration", "10s")).config(RetryConfig.class, "x");
        assertThat(retry.maxAttempts()).isEqualTo(Integer.MAX_VALUE);
        RetryConfig untouched = LeveeProperties.of(Map.of("levee.retry.x.unlimitedAttempts", "false"))
                .config(RetryConfig.class, "x");
        assertThat(untouched.maxAttempts()).isEqualTo(RetryConfig.DEFAULT_MAX_ATTEMPTS);
    }

    @Test
    void registriesAndPoliciesComeFromTheProperties() {
        LeveeProperties levee = LeveeProperties.of(Map.of(
                "levee.retry.default.maxAttempts", "2",
                "levee.retry.orders.maxAttempts", "4",
                "levee.circuitbreaker.payments.failureRateThreshold", "0.3"));
        PolicyRegistry<RetryConfig, Retry> retries = levee.registry(RetryConfig.class, Retry::of);
        assertThat(retries.names()).containsExactly("orders");
        assertThat(retries.get("orders").config().maxAttempts()).isEqualTo(4);
        assertThat(retries.get("other").config().maxAttempts()).isEqualTo(2);
        assertThat(retries.get("third", "orders").config().maxAttempts()).isEqualTo(4);
        CircuitBreaker breaker = levee.policy(CircuitBreakerConfig.class, "payments", CircuitBreaker::of);
        assertThat(breaker.name()).isEqualTo("payments");
        assertThat(breaker.config().failureRateThreshold()).isEqualTo(0.3);
        assertThat(levee.validate()).isEqualTo(3);
    }

    @Test
    void anUnknownPatternFailsAtStartupNamingTheKey() {
        assertThatThrownBy(() -> LeveeProperties.of(Map.of("levee.circuitbraker.payments.failureRateThreshold", "0.5")))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("levee.circuitbraker.payments.failureRateThreshold")
                .hasMessageContaining("circuitbreaker")                // the known patterns are listed
                .hasMessageContaining("circuitbraker");
    }

    @Test
    void anUnknownFieldFailsAtStartupNamingTheKeyAndTheFields() {
        assertThatThrownBy(() -> LeveeProperties.of(Map.of("levee.circuitbreaker.payments.failureRate", "0.5")))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("levee.circuitbreaker.payments.failureRate ")
                .hasMessageContaining("failureRateThreshold");
        assertThatThrownBy(() -> LeveeProperties.of(Map.of("levee.circuitbreaker.payments.ticker", "x")))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("set it in code");
        assertThatThrownBy(() -> LeveeProperties.of(Map.of("levee.circuitbreaker.payments", "x")))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("levee.<pattern>.<name>.<field>");
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        "levee.circuitbreaker.p.failureRateThreshold; abc; a number",
        "levee.circuitbreaker.p.failureRateThreshold; NaN; a number",
        "levee.circuitbreaker.p.minimumNumberOfCalls; 1.5; an integer",
        "levee.circuitbreaker.p.minimumNumberOfCalls; 99999999999; an integer",
        "levee.circuitbreaker.p.waitDurationInOpen; 30; a duration",
        "levee.circuitbreaker.p.waitDurationInOpen; 30 parsecs; a duration",
        "levee.circuitbreaker.p.automaticTransitionToHalfOpen; yes; true or false",
        "levee.circuitbreaker.p.slidingWindowType; SIDEWAYS; one of [COUNT_BASED, TIME_BASED]"})
    void aValueOfTheWrongKindNamesTheKeyTheKindAndTheValue(String key, String value, String kind) {
        LeveeProperties levee = LeveeProperties.of(Map.of(key, value));
        assertThatThrownBy(() -> levee.config(CircuitBreakerConfig.class, "p"))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining(key)
                .hasMessageContaining(kind)
                .hasMessageContaining("'" + value + "'")
                .satisfies(e -> assertThat(((InvalidConfigException) e).field()).isEqualTo(key));
    }

    @Test
    void aBoundTheBuilderEnforcesNamesTheKeyTheBoundAndTheValue() {
        LeveeProperties levee = LeveeProperties.of(Map.of("levee.circuitbreaker.default.failureRateThreshold", "1.5"));
        assertThatThrownBy(() -> levee.config(CircuitBreakerConfig.class, "payments"))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageStartingWith("CircuitBreakerConfig 'payments': levee.circuitbreaker.default.failureRateThreshold must be ")
                .hasMessageContaining("1.5")
                .satisfies(e -> assertThat(((InvalidConfigException) e).field())
                        .isEqualTo("levee.circuitbreaker.default.failureRateThreshold"))
                .hasCauseInstanceOf(InvalidConfigException.class);
        LeveeProperties negative = LeveeProperties.of(Map.of("levee.retry.orders.maxAttempts", "0"));
        assertThatThrownBy(() -> negative.config(RetryConfig.class, "orders"))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("levee.retry.orders.maxAttempts must be")
                .hasMessageContaining("but was 0");
        assertThatThrownBy(negative::validate).hasMessageContaining("levee.retry.orders.maxAttempts");
    }

    @ParameterizedTest
    @CsvSource({"500ms,PT0.5S", "5s,PT5S", "1.5s,PT1.5S", "2m,PT2M", "1h,PT1H", "1d,PT24H", "250us,PT0.00025S",
        "100ns,PT0.0000001S", "PT5S,PT5S", "pt5s,PT5S", "P1D,PT24H", "-5s,PT-5S", "0s,PT0S"})
    void durations(String text, String iso) {
        assertThat(Durations.parse(text)).isEqualTo(Duration.parse(iso));
        assertThat(Durations.parse(Durations.format(Duration.parse(iso)))).isEqualTo(Duration.parse(iso));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "5", "ms", "5 parsecs", "P5X", "1e400s", "99999999999999999999d"})
    void notDurations(String text) {
        assertThatThrownBy(() -> Durations.parse(text)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void nullsAreRefusedWithTheField() {
        assertThatThrownBy(() -> LeveeProperties.of((Properties) null))
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("properties");
        assertThatThrownBy(() -> LeveeProperties.of(Map.of()).config(RetryConfig.class, null))
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("name");
    }
}

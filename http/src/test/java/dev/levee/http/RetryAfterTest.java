package dev.levee.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.InvalidConfigException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RetryAfterTest {
    /** 1994-11-06T08:49:00Z, 37 seconds before the RFC's example date. */
    private static final Clock CLOCK = Clock.fixed(Instant.parse("1994-11-06T08:49:00Z"), ZoneOffset.UTC);

    @Test
    void deltaSeconds() {
        assertThat(RetryAfter.parse("120", CLOCK)).isEqualTo(Duration.ofSeconds(120));
        assertThat(RetryAfter.parse("0", CLOCK)).isEqualTo(Duration.ZERO);
        assertThat(RetryAfter.parse(" \t1 ", CLOCK)).isEqualTo(Duration.ofSeconds(1));
        assertThat(RetryAfter.parse("007", CLOCK)).isEqualTo(Duration.ofSeconds(7));
        assertThat(RetryAfter.parseNanos("2", CLOCK, Long.MAX_VALUE)).isEqualTo(2_000_000_000L);
    }

    @Test
    void theThreeDateFormsOfRfc9110() {
        assertThat(RetryAfter.parse("Sun, 06 Nov 1994 08:49:37 GMT", CLOCK)).isEqualTo(Duration.ofSeconds(37));
        assertThat(RetryAfter.parse("Sunday, 06-Nov-94 08:49:37 GMT", CLOCK)).isEqualTo(Duration.ofSeconds(37));
        assertThat(RetryAfter.parse("Sun Nov  6 08:49:37 1994", CLOCK)).isEqualTo(Duration.ofSeconds(37));
        // a two-digit year within 50 years ahead stays in this century
        Clock in2030 = Clock.fixed(Instant.parse("2030-01-01T00:00:00Z"), ZoneOffset.UTC);
        assertThat(RetryAfter.parse("Tuesday, 01-Jan-30 00:00:05 GMT", in2030)).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void aDateInThePastIsNoWait() {
        assertThat(RetryAfter.parse("Sat, 05 Nov 1994 08:49:37 GMT", CLOCK)).isEqualTo(Duration.ZERO);
    }

    @Test
    void longWaitsAreCapped() {
        assertThat(RetryAfter.parse("86401", CLOCK)).isEqualTo(RetryAfter.DEFAULT_MAX);
        assertThat(RetryAfter.parse("99999999999999999999999999999999", CLOCK)).isEqualTo(RetryAfter.DEFAULT_MAX);
        assertThat(RetryAfter.parse("Sat, 06 Nov 2094 08:49:37 GMT", CLOCK)).isEqualTo(RetryAfter.DEFAULT_MAX);
        assertThat(RetryAfter.parse("30", CLOCK, Duration.ofSeconds(10))).isEqualTo(Duration.ofSeconds(10));
        assertThat(RetryAfter.parse("10", CLOCK, Duration.ofSeconds(10))).isEqualTo(Duration.ofSeconds(10));
        assertThat(RetryAfter.parse("9", CLOCK, Duration.ofSeconds(10))).isEqualTo(Duration.ofSeconds(9));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "-5", "+5", "1.5", "1 0", "10s", "0x10", "soon", "Sun, 06 Nov 1994 08:49:37 PST",
        "Mon, 06 Nov 1994 08:49:37 GMT", "Sun, 32 Nov 1994 08:49:37 GMT", "\"5\"", "5,6", "\u0665"})
    void hostileOrMalformedValuesAreIgnored(String value) {
        assertThat(RetryAfter.parse(value, CLOCK)).as(value).isNull();
        assertThat(RetryAfter.parseNanos(value, CLOCK, Long.MAX_VALUE)).as(value).isEqualTo(-1);
    }

    @Test
    void nullAndOverlongValuesAreIgnored() {
        assertThat(RetryAfter.parse(null, CLOCK)).isNull();
        assertThat(RetryAfter.parse("1".repeat(RetryAfter.MAX_LENGTH), CLOCK)).isEqualTo(RetryAfter.DEFAULT_MAX);
        assertThat(RetryAfter.parse("1".repeat(RetryAfter.MAX_LENGTH + 1), CLOCK)).isNull();
    }

    @Test
    void badArgumentsNameTheField() {
        assertThatThrownBy(() -> RetryAfter.parse("1", CLOCK, Duration.ZERO))
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("max");
        assertThatThrownBy(() -> RetryAfter.parse("1", null))
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("clock");
        assertThatThrownBy(() -> RetryAfter.parseNanos("1", CLOCK, 0))
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("maxNanos");
    }
}

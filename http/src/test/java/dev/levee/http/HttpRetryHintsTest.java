package dev.levee.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.InvalidConfigException;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class HttpRetryHintsTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("1994-11-06T08:49:00Z"), ZoneOffset.UTC);
    private final HttpRetryHints hints = HttpRetryHints.of(CLOCK, Duration.ofMinutes(1));

    @Test
    void retryAfterWins() {
        assertThat(hints.retryAfter(FakeResponse.of(503, "Retry-After", "1", "RateLimit", "\"a\";r=0;t=9")))
                .isEqualTo(Duration.ofSeconds(1));
        assertThat(hints.retryAfter(FakeResponse.of(503, "Retry-After", "Sun, 06 Nov 1994 08:49:37 GMT")))
                .isEqualTo(Duration.ofSeconds(37));
    }

    @Test
    void anExhaustedRateLimitQuotaIsTheFallback() {
        assertThat(hints.retryAfter(FakeResponse.of(429, "RateLimit", "\"a\";r=0;t=2"))).isEqualTo(Duration.ofSeconds(2));
        assertThat(hints.retryAfter(FakeResponse.of(429, "Retry-After", "soon", "RateLimit", "\"a\";r=0;t=2")))
                .isEqualTo(Duration.ofSeconds(2));
        assertThat(hints.retryAfter(FakeResponse.of(429, "RateLimit", "\"a\";r=3;t=2"))).isNull();
    }

    @Test
    void hintsAreCapped() {
        assertThat(hints.retryAfter(FakeResponse.of(503, "Retry-After", "3600"))).isEqualTo(Duration.ofMinutes(1));
        assertThat(hints.retryAfter(FakeResponse.of(429, "RateLimit", "\"a\";r=0;t=3600"))).isEqualTo(Duration.ofMinutes(1));
    }

    @Test
    void theExtractorShapeReadsOnlyResponses() {
        assertThat(hints.retryAfter(null, FakeResponse.of(503, "Retry-After", "4"))).isEqualTo(Duration.ofSeconds(4));
        assertThat(hints.retryAfter(new IOException("reset"), null)).isNull();
        assertThat(hints.retryAfter(null, "a string")).isNull();
        assertThat(hints.retryAfter(FakeResponse.of(503))).isNull();
    }

    @Test
    void defaultsAndBounds() {
        assertThat(HttpRetryHints.defaults().max()).isEqualTo(RetryAfter.DEFAULT_MAX);
        assertThat(hints.clock()).isSameAs(CLOCK);
        assertThatThrownBy(() -> HttpRetryHints.of(CLOCK, Duration.ZERO))
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("HttpRetryHints").hasMessageContaining("max");
        assertThatThrownBy(() -> HttpRetryHints.of(null, Duration.ofSeconds(1)))
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("clock");
    }
}

package dev.levee.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RateLimitFieldsTest {

    @Test
    void readsTheStructuredFields() {
        assertThat(RateLimitFields.parseRateLimit("\"default\";r=50;t=30"))
                .containsExactly(new RateLimitStatus("default", 50, 30));
        assertThat(RateLimitFields.parsePolicy("\"burst\";q=100;w=60, \"daily\";q=1000;w=86400"))
                .containsExactly(new RateLimitQuota("burst", 100, 60), new RateLimitQuota("daily", 1000, 86400));
        assertThat(RateLimitFields.parseRateLimit("tokenName;r=0;t=2;pk=:abc=:"))
                .containsExactly(new RateLimitStatus("tokenName", 0, 2));
    }

    @Test
    void readsWhatLeveesServerSideWrites() {
        // RateLimitHeaders.rateLimit / rateLimitPolicy (ratelimiter module): quotes and backslashes escaped
        assertThat(RateLimitFields.parseRateLimit("\"tenant \\\"a\\\"\";r=0;t=1"))
                .containsExactly(new RateLimitStatus("tenant \"a\"", 0, 1));
    }

    @Test
    void readsTheEarlierDictionaryForm() {
        assertThat(RateLimitFields.parseRateLimit("limit=100, remaining=0, reset=7"))
                .containsExactly(new RateLimitStatus("", 0, 7));
    }

    @Test
    void resetIsOptional() {
        assertThat(RateLimitFields.parseRateLimit("\"a\";r=3")).containsExactly(new RateLimitStatus("a", 3, -1));
        assertThat(RateLimitFields.parsePolicy("\"a\";q=3")).containsExactly(new RateLimitQuota("a", 3, -1));
    }

    @Test
    void theWaitIsTheLongestResetAmongExhaustedQuotas() {
        List<RateLimitStatus> statuses = RateLimitFields.parseRateLimit("\"a\";r=0;t=2, \"b\";r=5;t=60, \"c\";r=0;t=9");
        assertThat(RateLimitFields.retryAfterSeconds(statuses)).isEqualTo(9);
        assertThat(RateLimitFields.retryAfterSeconds(RateLimitFields.parseRateLimit("\"a\";r=1;t=2"))).isEqualTo(-1);
        assertThat(RateLimitFields.retryAfterSeconds(RateLimitFields.parseRateLimit("\"a\";r=0"))).isEqualTo(-1);
    }

    @Test
    void aMalformedItemIsDroppedAndTheOthersStillRead() {
        assertThat(RateLimitFields.parseRateLimit("\"a\";r=-1;t=2, \"b\";r=1;t=2"))
                .containsExactly(new RateLimitStatus("b", 1, 2));
        assertThat(RateLimitFields.parseRateLimit("\"a\";r=1.5, \"b\";r=1 junk, \"c\";r=2"))
                .containsExactly(new RateLimitStatus("c", 2, -1));
        assertThat(RateLimitFields.parseRateLimit("\"a\";t=3, \"b\";r=9999999999999999"))
                .isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", ",,,", "\"unterminated;r=1", ";r=1", "\"a\";=1", "\"a\";r=", "garbage!!"})
    void hostileValuesGiveNothing(String value) {
        assertThat(RateLimitFields.parseRateLimit(value)).as(value).isEmpty();
        assertThat(RateLimitFields.parsePolicy(value)).as(value).isEmpty();
    }

    @Test
    void sizeLimits() {
        assertThat(RateLimitFields.parseRateLimit(null)).isEmpty();
        String many = "\"a\";r=1,".repeat(40);
        assertThat(RateLimitFields.parseRateLimit(many)).hasSize(RateLimitFields.MAX_ITEMS);
        String tooLong = "\"" + "a".repeat(RateLimitFields.MAX_LENGTH) + "\";r=1";
        assertThat(RateLimitFields.parseRateLimit(tooLong)).isEmpty();
    }
}

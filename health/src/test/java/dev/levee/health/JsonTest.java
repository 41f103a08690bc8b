package dev.levee.health;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The small writer's output, read back by a real parser (Jackson), hostile strings included. */
class JsonTest {
    private static final ObjectMapper JACKSON = new ObjectMapper();

    static final List<String> HOSTILE = List.of(
            "plain",
            "quote \" and backslash \\ and slash /",
            "\"}]},{\"status\":\"healthy\"",
            "newline\nreturn\rtab\tbackspace\bformfeed\f",
            "nul \u0000 bell \u0007 escape \u001b unit-sep \u001f del \u007f",
            "<script>alert('x')</script> & co",
            "unicode: é ü ß Ж 中文 😀 \u2028 \u2029 \ufeff",
            "lone surrogates: \ud800 and \udfff",
            "");

    private static HealthReport report(String hostile) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put(hostile, hostile);
        details.put("number", 12.5);
        details.put("integer", 42L);
        details.put("nan", Double.NaN);
        details.put("flag", true);
        details.put("none", null);
        details.put("list", List.of(1, "two", List.of(hostile)));
        details.put("nested", Map.of("k", hostile));
        details.put("array", new Object[] {1, 2});
        details.put("other", new StringBuilder("sb"));
        CheckResult c = new CheckResult(hostile, HealthStatus.DEGRADED, hostile, 1_500_000L, details, false);
        return new HealthReport(HealthLevel.READINESS, HealthStatus.DEGRADED, Instant.parse("2026-01-02T03:04:05Z"),
                List.of(c, CheckResult.healthy().withName("ok")));
    }

    @Test
    void hostileStringsRoundTripThroughARealParser() throws Exception {
        for (String hostile : HOSTILE) {
            String json = report(hostile).toJson(true);
            assertThat(json.chars().allMatch(ch -> ch >= 0x20 && ch < 0x7f))
                    .as("ASCII only: %s", json).isTrue();
            JsonNode root = JACKSON.readTree(json);
            assertThat(root.get("level").asText()).isEqualTo("readiness");
            assertThat(root.get("status").asText()).isEqualTo("degraded");
            assertThat(root.get("timestamp").asText()).isEqualTo("2026-01-02T03:04:05Z");
            JsonNode check = root.get("checks").get(0);
            assertThat(check.get("name").asText()).isEqualTo(hostile);
            assertThat(check.get("message").asText()).isEqualTo(hostile);
            assertThat(check.get("status").asText()).isEqualTo("degraded");
            assertThat(check.get("critical").asBoolean()).isFalse();
            assertThat(check.get("latency_ms").asDouble()).isEqualTo(1.5);
            JsonNode details = check.get("details");
            assertThat(details.get(hostile).asText()).isEqualTo(hostile);
            assertThat(details.get("number").asDouble()).isEqualTo(12.5);
            assertThat(details.get("integer").asLong()).isEqualTo(42L);
            assertThat(details.get("nan").isNull()).isTrue();
            assertThat(details.get("flag").asBoolean()).isTrue();
            assertThat(details.get("none").isNull()).isTrue();
            assertThat(details.get("list").get(2).get(0).asText()).isEqualTo(hostile);
            assertThat(details.get("nested").get("k").asText()).isEqualTo(hostile);
            assertThat(details.get("array").size()).isEqualTo(2);
            assertThat(details.get("other").asText()).isEqualTo("sb");
            JsonNode ok = root.get("checks").get(1);
            assertThat(ok.get("message").isNull()).isTrue();
            assertThat(ok.get("details").size()).isZero();
        }
    }

    @Test
    void withoutDetailsOnlyTheLevelAndStatusAreWritten() throws Exception {
        JsonNode root = JACKSON.readTree(report("secret-host:5432").toJson(false));
        assertThat(root.size()).isEqualTo(2);
        assertThat(root.get("level").asText()).isEqualTo("readiness");
        assertThat(root.get("status").asText()).isEqualTo("degraded");
        assertThat(root.toString()).doesNotContain("secret");
    }

    @Test
    void everyCharacterRoundTrips() throws Exception {
        char[] all = new char[0x10000];
        for (int i = 0; i < all.length; i++) {
            all[i] = (char) i;
        }
        String every = new String(all);
        CheckResult c = CheckResult.unhealthy(every).withName("all");
        String json = new HealthReport(HealthLevel.DEEP, HealthStatus.UNHEALTHY, Instant.EPOCH, List.of(c)).toJson(true);
        String back = JACKSON.readTree(json).get("checks").get(0).get("message").asText();
        assertThat(back.length()).isEqualTo(every.length());
        assertThat(Arrays.equals(back.toCharArray(), all)).isTrue();
    }
}

package dev.levee.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.ContextScope;
import dev.levee.core.IdempotencyKey;
import java.net.URI;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@SuppressWarnings("try") // scopes opened only to make a key current
class IdempotencyKeyHeaderTest {
    private static HttpRequest.Builder post() {
        return HttpRequest.newBuilder(URI.create("http://localhost/charges")).POST(HttpRequest.BodyPublishers.ofString("{}"));
    }

    @Test
    void theCurrentKeyIsSetAsTheIdempotencyKeyField() {
        try (ContextScope scope = IdempotencyKey.of("8e03978e-40d5-43e8-bc93-6894a57f9324").attach()) {
            HttpRequest request = IdempotencyKeyHeader.withCurrentKey(post()).build();
            assertThat(request.headers().allValues("Idempotency-Key")).containsExactly("8e03978e-40d5-43e8-bc93-6894a57f9324");
            assertThat(IdempotencyKeyHeader.keyOf(request)).isEqualTo(IdempotencyKey.current().orElseThrow());
        }
    }

    @Test
    void withoutACurrentKeyNothingIsAdded() {
        HttpRequest request = IdempotencyKeyHeader.withCurrentKey(post()).build();
        assertThat(request.headers().firstValue(IdempotencyKeyHeader.NAME)).isEmpty();
        assertThat(IdempotencyKeyHeader.keyOf(request)).isNull();
        assertThat(HttpMethods.isRetrySafe(request)).isFalse();
    }

    @Test
    void aRequestNeverCarriesTwoKeys() {
        HttpRequest.Builder builder = IdempotencyKeyHeader.withKey(post(), IdempotencyKey.of("first"));
        try (ContextScope scope = IdempotencyKey.of("second").attach()) {
            IdempotencyKeyHeader.withCurrentKey(builder);
        }
        assertThat(builder.build().headers().allValues(IdempotencyKeyHeader.NAME)).containsExactly("second");
    }

    @Test
    void theQuotedFormEscapesQuotesAndBackslashesAndReadsBack() {
        IdempotencyKey plain = IdempotencyKey.of("8e03978e-40d5");
        assertThat(IdempotencyKeyHeader.encodeQuoted(plain)).isEqualTo("\"8e03978e-40d5\"");
        IdempotencyKey odd = IdempotencyKey.of("a\"b\\c");
        assertThat(IdempotencyKeyHeader.encodeQuoted(odd)).isEqualTo("\"a\\\"b\\\\c\"");
        assertThat(IdempotencyKeyHeader.parse(IdempotencyKeyHeader.encodeQuoted(odd))).isEqualTo(odd);
        assertThat(IdempotencyKeyHeader.parse(IdempotencyKeyHeader.encodeQuoted(plain))).isEqualTo(plain);
        assertThat(IdempotencyKeyHeader.parse("order-42")).isEqualTo(IdempotencyKey.of("order-42"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "\"\"", "\"unterminated", "\"bad\\escape\"", "\"inner\"quote\"", "\"dangling\\\"",
        "tab\tkey", "nul\u0000", "caf\u00e9", " padded", "padded "})
    void malformedValuesReadAsNoKey(String value) {
        assertThat(IdempotencyKeyHeader.parse(value)).isNull();
    }

    @Test
    void overLongAndMissingValuesReadAsNoKey() {
        assertThat(IdempotencyKeyHeader.parse("k".repeat(255))).isNotNull();
        assertThat(IdempotencyKeyHeader.parse("k".repeat(256))).isNull();
        assertThat(IdempotencyKeyHeader.parse("\"" + "k".repeat(256) + "\"")).isNull();
        assertThat(IdempotencyKeyHeader.parse(null)).isNull();
    }

    @Test
    void twoKeyFieldsReadAsNoKey() {
        HttpHeaders two = HttpHeaders.of(Map.of("Idempotency-Key", List.of("a", "b")), (n, v) -> true);
        assertThat(IdempotencyKeyHeader.keyOf(two)).isNull();
        HttpHeaders lowerCase = HttpHeaders.of(Map.of("idempotency-key", List.of("a")), (n, v) -> true);
        assertThat(IdempotencyKeyHeader.keyOf(lowerCase)).as("field names are case-insensitive").isEqualTo(IdempotencyKey.of("a"));
    }

    @Test
    void aMalformedKeyCannotBeMadeSoCannotBeSent() {
        assertThatThrownBy(() -> IdempotencyKey.of("line\nbreak")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> IdempotencyKey.of("")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> IdempotencyKey.of("x".repeat(256))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aReplayIsRecognisedByItsField() {
        assertThat(IdempotencyKeyHeader.isReplay(FakeResponse.of(201, "Idempotent-Replayed", "true"))).isTrue();
        assertThat(IdempotencyKeyHeader.isReplay(FakeResponse.of(201, "idempotent-replayed", " TRUE "))).isTrue();
        assertThat(IdempotencyKeyHeader.isReplay(FakeResponse.of(201, "Idempotent-Replayed", "false"))).isFalse();
        assertThat(IdempotencyKeyHeader.isReplay(FakeResponse.of(201))).isFalse();
    }
}

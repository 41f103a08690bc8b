package dev.levee.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpRequest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HttpMethodsTest {

    @ParameterizedTest(name = "{0}: safe={1} idempotent={2}")
    @CsvSource({
        "GET,     true,  true",
        "HEAD,    true,  true",
        "OPTIONS, true,  true",
        "TRACE,   true,  true",
        "PUT,     false, true",
        "DELETE,  false, true",
        "POST,    false, false",
        "PATCH,   false, false",
        "CONNECT, false, false",
        "PROPFIND, false, false",
        "get,     false, false",
        "Post,    false, false",
        "'',      false, false",
    })
    void rfc9110Section922(String method, boolean safe, boolean idempotent) {
        assertThat(HttpMethods.isSafe(method)).isEqualTo(safe);
        assertThat(HttpMethods.isIdempotent(method)).isEqualTo(idempotent);
        assertThat(HttpMethods.requiresKey(method)).isEqualTo(!idempotent);
        assertThat(HttpMethods.isRetrySafe(method, false)).isEqualTo(idempotent);
        assertThat(HttpMethods.isRetrySafe(method, true)).isTrue();
    }

    @ParameterizedTest(name = "{0} with key header [{1}]: retry-safe={2}")
    @CsvSource({
        "GET,    ,                   true",
        "DELETE, ,                   true",
        "PUT,    ,                   true",
        "POST,   ,                   false",
        "PATCH,  ,                   false",
        "POST,   order-42,           true",
        "PATCH,  '\"order-42\"',     true",
        "POST,   '\"unterminated',   false",
    })
    void aBuiltRequestIsRetrySafeByMethodOrKey(String method, String key, boolean retrySafe) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create("http://localhost/charges"))
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (key != null) {
            builder.header(IdempotencyKeyHeader.NAME, key);
        }
        assertThat(HttpMethods.isRetrySafe(builder.build())).isEqualTo(retrySafe);
    }

    @org.junit.jupiter.api.Test
    void nullIsNeitherSafeNorIdempotent() {
        assertThat(HttpMethods.isSafe(null)).isFalse();
        assertThat(HttpMethods.isIdempotent(null)).isFalse();
        assertThat(HttpMethods.requiresKey(null)).isTrue();
    }
}

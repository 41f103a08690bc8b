package dev.levee.http;

import dev.levee.core.IdempotencyKey;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The {@code Idempotency-Key} request field (IETF HTTPAPI draft "The Idempotency-Key HTTP Header Field",
 * Stripe's idempotent requests) on a {@code java.net.http} request, and the {@code Idempotent-Replayed}
 * response field by which a server says it answered from its record.
 *
 * <pre>{@code
 * // inside a KEYED retry: every attempt builds its request with the call's one key
 * HttpResponse<String> response = retry.execute(() -> client.send(
 *         IdempotencyKeyHeader.withCurrentKey(HttpRequest.newBuilder(uri).POST(body)).build(),
 *         BodyHandlers.ofString()));
 * boolean replayed = IdempotencyKeyHeader.isReplay(response);
 * }</pre>
 *
 * <p><b>Model.</b> The key is core's {@link IdempotencyKey}: the current one ({@link IdempotencyKey#current()},
 * made once per logical call by a keyed retry or attached by the caller) or one given. It is written as
 * the plain value (Stripe's form: {@code Idempotency-Key: 8e03978e-40d5-43e8-bc93-6894a57f9324}) with
 * {@code setHeader}, so a request never carries two. The draft defines the field as a Structured Field
 * string ({@code "8e03978e-…"}, quoted); {@link #keyOf} reads both forms, and {@link #encodeQuoted}
 * writes the quoted one for a server that requires it. A key is validated when it is made (1 to 255
 * printable ASCII characters, no space at either end).
 *
 * <p><b>Guarantees.</b> Reading never throws: a missing, repeated, malformed or over-long field reads as
 * no key. Writing adds nothing when no key is current.
 *
 * <p><b>Cost.</b> Writing allocates what the builder keeps of a header; reading allocates only for a
 * quoted value.
 */
public final class IdempotencyKeyHeader {
    /** The request field: {@value}. */
    public static final String NAME = "Idempotency-Key";
    /** The response field a server sets on an answer replayed from its record: {@value}. */
    public static final String REPLAYED = "Idempotent-Replayed";

    private IdempotencyKeyHeader() {}

    /**
     * Sets the current idempotency key, if any, on {@code builder}; leaves it as it is otherwise.
     *
     * @param builder the request being built
     * @return {@code builder}
     */
    public static HttpRequest.Builder withCurrentKey(HttpRequest.Builder builder) {
        Objects.requireNonNull(builder, "builder");
        IdempotencyKey key = IdempotencyKey.currentOrNull();
        return key == null ? builder : builder.setHeader(NAME, key.value());
    }

    /**
     * Sets {@code key} on {@code builder}, replacing a key set before.
     *
     * @param builder the request being built
     * @param key the key
     * @return {@code builder}
     */
    public static HttpRequest.Builder withKey(HttpRequest.Builder builder, IdempotencyKey key) {
        Objects.requireNonNull(builder, "builder");
        return builder.setHeader(NAME, Objects.requireNonNull(key, "key").value());
    }

    /**
     * The field value in the draft's Structured Field form: the key in double quotes, {@code "} and
     * {@code \} escaped with a backslash (RFC 8941 §3.3.3).
     *
     * @param key the key
     * @return the quoted value
     */
    public static String encodeQuoted(IdempotencyKey key) {
        String value = key.value();
        StringBuilder out = new StringBuilder(value.length() + 2).append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\');
            }
            out.append(c);
        }
        return out.append('"').toString();
    }

    /**
     * Reads a field value: a plain key, or a quoted Structured Field string. Never throws.
     *
     * @param value the field value, possibly null
     * @return the key, or null when the value is missing or not a valid key (empty, over 255 characters,
     *         a control or non-ASCII character, a space at an end, a broken quoted string: a value that
     *         starts with a double quote must be one)
     */
    public static @Nullable IdempotencyKey parse(@Nullable String value) {
        if (value == null) {
            return null;
        }
        String key = value;
        if (!value.isEmpty() && value.charAt(0) == '"') { // a quoted string, or nothing
            if (value.length() < 2 || value.charAt(value.length() - 1) != '"') {
                return null;
            }
            key = unquote(value);
            if (key == null) {
                return null;
            }
        }
        return IdempotencyKey.isValid(key) ? IdempotencyKey.of(key) : null;
    }

    /** The content of a quoted string, or null if an escape is broken or a quote is unescaped. */
    private static @Nullable String unquote(String quoted) {
        StringBuilder out = new StringBuilder(quoted.length() - 2);
        for (int i = 1; i < quoted.length() - 1; i++) {
            char c = quoted.charAt(i);
            if (c == '\\') {
                if (i + 1 >= quoted.length() - 1) {
                    return null;
                }
                char next = quoted.charAt(++i);
                if (next != '"' && next != '\\') {
                    return null;
                }
                out.append(next);
            } else if (c == '"') {
                return null;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /**
     * The key a set of fields carries: the single {@code Idempotency-Key} field, parsed. Never throws.
     *
     * @param headers the fields
     * @return the key, or null when there is none, more than one field, or a malformed one
     */
    public static @Nullable IdempotencyKey keyOf(HttpHeaders headers) {
        List<String> values = headers.allValues(NAME);
        return values.size() == 1 ? parse(values.get(0)) : null;
    }

    /**
     * The key a request carries ({@link #keyOf(HttpHeaders)}).
     *
     * @param request the request
     * @return the key, or null
     */
    public static @Nullable IdempotencyKey keyOf(HttpRequest request) {
        return keyOf(request.headers());
    }

    /**
     * Whether the server answered from its record instead of executing the request
     * ({@code Idempotent-Replayed: true}, case-insensitive).
     *
     * @param response the response
     * @return true for a replayed answer
     */
    public static boolean isReplay(HttpResponse<?> response) {
        return response.headers().firstValue(REPLAYED).map(v -> v.trim().equalsIgnoreCase("true")).orElse(false);
    }
}

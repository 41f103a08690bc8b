package dev.levee.idempotency;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A response as an idempotency store keeps it, to replay to duplicates: the status, the header fields
 * the guard was told to keep, and the body bytes. Immutable: the headers and the body are copied in and
 * out.
 *
 * <p>Header names are kept in lower case (HTTP field names are case-insensitive), in name order, each
 * with its values in the order given.
 */
public final class StoredResponse {
    private final int status;
    private final Map<String, List<String>> headers;
    private final byte[] body;

    private StoredResponse(int status, Map<String, List<String>> headers, byte[] body) {
        this.status = status;
        this.headers = headers;
        this.body = body;
    }

    /**
     * Creates a stored response.
     *
     * @param status the status code, 100 to 999
     * @param headers the header fields to replay (names are lower-cased; copied)
     * @param body the body bytes (copied)
     * @return the stored response
     * @throws IllegalArgumentException if the status is outside 100 to 999
     */
    public static StoredResponse of(int status, Map<String, List<String>> headers, byte[] body) {
        if (status < 100 || status > 999) {
            throw new IllegalArgumentException("StoredResponse: status must be in [100, 999], was " + status);
        }
        Objects.requireNonNull(headers, "headers");
        Objects.requireNonNull(body, "body");
        TreeMap<String, List<String>> copy = new TreeMap<>();
        headers.forEach((name, values) -> copy.merge(name.toLowerCase(java.util.Locale.ROOT), List.copyOf(values),
                (a, b) -> {
                    java.util.ArrayList<String> both = new java.util.ArrayList<>(a);
                    both.addAll(b);
                    return List.copyOf(both);
                }));
        return new StoredResponse(status, java.util.Collections.unmodifiableMap(copy), body.clone());
    }

    /**
     * The status code.
     *
     * @return the status code
     */
    public int status() {
        return status;
    }

    /**
     * The kept header fields, names in lower case, in name order.
     *
     * @return an unmodifiable map of header name to values
     */
    public Map<String, List<String>> headers() {
        return headers;
    }

    /**
     * The body bytes.
     *
     * @return a copy of the body
     */
    public byte[] body() {
        return body.clone();
    }

    /**
     * The body's length, without copying it.
     *
     * @return the number of body bytes
     */
    public int bodyLength() {
        return body.length;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StoredResponse other
                && status == other.status
                && headers.equals(other.headers)
                && Arrays.equals(body, other.body);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * status + headers.hashCode()) + Arrays.hashCode(body);
    }

    @Override
    public String toString() {
        return "StoredResponse[status=" + status + ", headers=" + headers + ", body=" + body.length + " bytes]";
    }
}

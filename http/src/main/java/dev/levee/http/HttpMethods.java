package dev.levee.http;

import java.net.http.HttpRequest;
import org.jspecify.annotations.Nullable;

/**
 * Which HTTP requests may be sent again, by method (RFC 9110 §9.2.2) and idempotency key.
 *
 * <p><b>Model.</b> A method is
 * <ul>
 *   <li><em>idempotent</em> ({@link #isIdempotent(String)}): {@code GET}, {@code HEAD}, {@code OPTIONS},
 *       {@code TRACE} (the safe methods, §9.2.1), {@code PUT} and {@code DELETE} — sending the request twice
 *       has the effect of sending it once, so a client may repeat it after a lost response;</li>
 *   <li>otherwise not: {@code POST}, {@code PATCH}, {@code CONNECT} and every method this class does not
 *       know — repeated only when the request carries an {@code Idempotency-Key} the server deduplicates
 *       by ({@link #isRetrySafe(HttpRequest)}; the seeds' rule: "retry only idempotent operations, or use an
 *       idempotency key").</li>
 * </ul>
 * Method names are case-sensitive (RFC 9110 §9.1): {@code "get"} is not {@code GET}, and is not known.
 * A {@code PUT} is idempotent by the RFC's definition; a server whose {@code PUT} appends is wrong, and a
 * key is the remedy there too.
 *
 * <table class="striped">
 *   <caption>The classification</caption>
 *   <tr><th>method</th><th>safe</th><th>idempotent</th><th>repeat after a lost response</th></tr>
 *   <tr><td>GET, HEAD, OPTIONS, TRACE</td><td>yes</td><td>yes</td><td>yes</td></tr>
 *   <tr><td>PUT, DELETE</td><td>no</td><td>yes</td><td>yes</td></tr>
 *   <tr><td>POST, PATCH, CONNECT, any other</td><td>no</td><td>no</td><td>only with a valid
 *       {@code Idempotency-Key}</td></tr>
 * </table>
 *
 * <p>With a retry ({@code levee-retry}): declare a retry for writes {@code Idempotency.KEYED} and a retry
 * for reads {@code IDEMPOTENT}, and pick by {@link #isIdempotent(String)}; a keyed retry makes the key
 * that {@link IdempotencyKeyHeader#withCurrentKey} sends.
 *
 * <p><b>Cost.</b> A {@code switch} on the method string; nothing allocated.
 */
public final class HttpMethods {
    private HttpMethods() {}

    /**
     * Whether a method is safe (RFC 9110 §9.2.1): read-only by definition.
     *
     * @param method the method, case-sensitive; null is not safe
     * @return true for GET, HEAD, OPTIONS and TRACE
     */
    public static boolean isSafe(@Nullable String method) {
        if (method == null) {
            return false;
        }
        switch (method) {
            case "GET":
            case "HEAD":
            case "OPTIONS":
            case "TRACE":
                return true;
            default:
                return false;
        }
    }

    /**
     * Whether a method is idempotent (RFC 9110 §9.2.2): the safe methods, PUT and DELETE.
     *
     * @param method the method, case-sensitive; null is not idempotent
     * @return true if repeating the request has the effect of sending it once
     */
    public static boolean isIdempotent(@Nullable String method) {
        return isSafe(method) || "PUT".equals(method) || "DELETE".equals(method);
    }

    /**
     * Whether a request with this method needs an idempotency key to be repeated.
     *
     * @param method the method, case-sensitive
     * @return true for POST, PATCH and every method that is not idempotent
     */
    public static boolean requiresKey(@Nullable String method) {
        return !isIdempotent(method);
    }

    /**
     * Whether a request may be repeated: its method is idempotent, or it carries an idempotency key.
     *
     * @param method the method, case-sensitive
     * @param hasKey whether the request carries a valid {@code Idempotency-Key}
     * @return true if a repeat cannot execute the operation twice (given a server that honours the key)
     */
    public static boolean isRetrySafe(@Nullable String method, boolean hasKey) {
        return hasKey || isIdempotent(method);
    }

    /**
     * Whether a built request may be repeated: an idempotent method, or a valid {@code Idempotency-Key}
     * field ({@link IdempotencyKeyHeader#keyOf(HttpRequest)}).
     *
     * @param request the request
     * @return true if a repeat cannot execute the operation twice (given a server that honours the key)
     */
    public static boolean isRetrySafe(HttpRequest request) {
        return isIdempotent(request.method()) || IdempotencyKeyHeader.keyOf(request) != null;
    }
}

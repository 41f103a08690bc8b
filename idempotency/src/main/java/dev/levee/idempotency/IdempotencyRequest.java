package dev.levee.idempotency;

import java.util.Objects;

/**
 * What an {@link IdempotencyGuard} needs to know of a request to fingerprint it: its method, its target
 * and its body. Without HTTP, put whatever identifies the operation in them (an operation name as the
 * method, a resource as the path, the serialised arguments as the body).
 *
 * @param method the request method, e.g. {@code POST}
 * @param path the request target, path and query
 * @param body the body bytes; not copied (the guard only hashes them)
 */
public record IdempotencyRequest(String method, String path, byte[] body) {
    /**
     * Checks the components.
     *
     * @param method the method
     * @param path the target
     * @param body the body
     */
    public IdempotencyRequest {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(body, "body");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IdempotencyRequest other && method.equals(other.method) && path.equals(other.path)
                && java.util.Arrays.equals(body, other.body);
    }

    @Override
    public int hashCode() {
        return Objects.hash(method, path) * 31 + java.util.Arrays.hashCode(body);
    }

    @Override
    public String toString() {
        return "IdempotencyRequest[" + method + " " + path + ", body=" + body.length + " bytes]";
    }
}

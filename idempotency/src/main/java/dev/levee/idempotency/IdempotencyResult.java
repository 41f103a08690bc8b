package dev.levee.idempotency;

import java.util.Objects;

/**
 * What an {@link IdempotencyGuard} did with one request, and the response to send.
 *
 * <table>
 *   <caption>Kinds and their responses</caption>
 *   <tr><th>kind</th><th>executed?</th><th>response</th></tr>
 *   <tr><td>{@link Kind#EXECUTED}</td><td>yes</td><td>the handler's</td></tr>
 *   <tr><td>{@link Kind#REPLAYED}</td><td>no</td><td>the stored one, with {@code Idempotent-Replayed: true}</td></tr>
 *   <tr><td>{@link Kind#IN_PROGRESS}</td><td>no</td><td>409 with {@code Retry-After}</td></tr>
 *   <tr><td>{@link Kind#MISMATCH}</td><td>no</td><td>422</td></tr>
 *   <tr><td>{@link Kind#BAD_KEY}</td><td>no</td><td>400</td></tr>
 *   <tr><td>{@link Kind#STORE_UNAVAILABLE}</td><td>no</td><td>503 with {@code Retry-After}</td></tr>
 *   <tr><td>{@link Kind#FAILED_OPEN}</td><td>yes, without a record</td><td>the handler's</td></tr>
 * </table>
 *
 * @param kind what happened
 * @param response the response to send (for {@link Kind#EXECUTED} and {@link Kind#FAILED_OPEN} the
 *     handler's own, with every header it set)
 * @param stored for {@link Kind#EXECUTED}: whether the response was stored for replay (false when the
 *     store rule released the key, or the lease had been taken over); false for every other kind
 */
public record IdempotencyResult(Kind kind, StoredResponse response, boolean stored) {

    /** What the guard did. */
    public enum Kind {
        /** This request claimed the key and the handler ran. */
        EXECUTED,
        /** A request with this key had completed: its stored response is replayed; nothing ran. */
        REPLAYED,
        /** A request with this key is still running (and the wait, if configured, ran out): 409. */
        IN_PROGRESS,
        /** The key was used with a different request (fingerprint): 422; nothing ran. */
        MISMATCH,
        /** The key is missing or malformed: 400; nothing ran. */
        BAD_KEY,
        /** The store is down and the outage policy is fail closed: 503; nothing ran. */
        STORE_UNAVAILABLE,
        /** The store is down and the outage policy is fail open: the handler ran without a record. */
        FAILED_OPEN
    }

    /**
     * Checks the components.
     *
     * @param kind what happened
     * @param response the response
     * @param stored whether it was stored
     */
    public IdempotencyResult {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(response, "response");
    }

    /**
     * Whether the handler ran for this request ({@link Kind#EXECUTED} or {@link Kind#FAILED_OPEN}).
     *
     * @return true if it ran
     */
    public boolean executed() {
        return kind == Kind.EXECUTED || kind == Kind.FAILED_OPEN;
    }
}

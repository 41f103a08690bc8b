package dev.levee.idempotency;

/**
 * The work an {@link IdempotencyGuard} protects: handles the request once and returns its response.
 * Whatever it throws comes out of {@link IdempotencyGuard#handle} unchanged (and the key is released).
 */
@FunctionalInterface
public interface GuardedHandler {
    /**
     * Handles the request.
     *
     * @return the response to send, and to store if the guard's store rule says so
     * @throws Exception whatever the handling throws
     */
    StoredResponse handle() throws Exception;
}

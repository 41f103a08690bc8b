package dev.levee.idempotency;

import org.jspecify.annotations.Nullable;

/**
 * An {@link IdempotencyStore} could not do what was asked: its backing service is unreachable, timed
 * out, or answered something the store cannot read. The guard catches it and applies its outage
 * policy; it never reaches a client as a 500 unless the policy says so.
 */
public class IdempotencyStoreException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what failed, naming the store and the operation
     * @param cause the underlying failure, or {@code null}
     */
    public IdempotencyStoreException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }
}

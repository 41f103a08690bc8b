package dev.levee.idempotency;

/**
 * {@link IdempotencyStore#complete} refused a response because it is larger than the store keeps
 * (e.g. the Redis store's {@code maxResponseBytes}). The store is healthy: the guard does not count this
 * as an outage. Nothing was stored; the claim stays until its lease lapses, so a duplicate within the
 * lease is answered "in progress" and one after it executes again. Size the store's bound above the
 * largest response a keyed route returns.
 */
public class ResponseTooLargeException extends IdempotencyStoreException {
    private static final long serialVersionUID = 1L;

    private final long size;
    private final long max;

    /**
     * Creates the exception.
     *
     * @param message what was refused, naming the store
     * @param size the response's size in the store's encoding, in bytes
     * @param max the most the store keeps, in bytes
     */
    public ResponseTooLargeException(String message, long size, long max) {
        super(message, null);
        this.size = size;
        this.max = max;
    }

    /**
     * The refused response's size.
     *
     * @return bytes, in the store's encoding
     */
    public long size() {
        return size;
    }

    /**
     * The store's bound.
     *
     * @return the most bytes the store keeps for one response
     */
    public long max() {
        return max;
    }
}

package dev.levee.redis.internal;

/** Redis did not answer a decision in time, or answered with an error: the store is unavailable. */
public final class StoreException extends Exception {
    private static final long serialVersionUID = 1L;

    /**
     * @param cause what went wrong (a timeout, a closed connection, a server error)
     */
    public StoreException(Throwable cause) {
        super(cause.toString(), cause, false, false);
    }
}

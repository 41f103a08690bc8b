package dev.levee.retry;

/**
 * An unchecked exception that says "this failure is transient, retry it": thrown (or used to wrap a
 * cause) by code that knows better than the default rule, e.g. an HTTP client that got a 503.
 * {@link Retry} retries it by default; when retries are exhausted the caller receives this exception,
 * with the original as its {@linkplain #getCause() cause}.
 */
public class RetryableException extends RuntimeException implements Retryable {
    private static final long serialVersionUID = 1L;

    /** @param message what failed */
    public RetryableException(String message) {
        super(message);
    }

    /**
     * @param message what failed
     * @param cause the underlying failure
     */
    public RetryableException(String message, Throwable cause) {
        super(message, cause);
    }
}

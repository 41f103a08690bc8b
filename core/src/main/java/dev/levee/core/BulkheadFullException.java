package dev.levee.core;

import org.jspecify.annotations.Nullable;

/**
 * A bulkhead (semaphore, thread pool or keyed) had no free slot, or its queue was full, within the wait allowed.
 */
public class BulkheadFullException extends RejectedException {
    private static final long serialVersionUID = 1L;

    /**
     * @param policyName the refusing policy's name
     * @param message what happened
     * @param retryAfterNanos the retry-after hint in nanoseconds, zero when unknown
     */
    public BulkheadFullException(String policyName, String message, long retryAfterNanos) {
        super(policyName, message, retryAfterNanos);
    }

    /**
     * @param policyName the refusing policy's name
     * @param message what happened
     * @param retryAfterNanos the retry-after hint in nanoseconds, zero when unknown
     * @param cause an underlying cause, or null
     */
    public BulkheadFullException(String policyName, String message, long retryAfterNanos, @Nullable Throwable cause) {
        super(policyName, message, retryAfterNanos, cause);
    }

    @Override
    public String kind() {
        return "bulkhead_full";
    }
}

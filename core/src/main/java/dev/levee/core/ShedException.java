package dev.levee.core;

/**
 * A load shedder or concurrency limiter dropped the call to protect the service.
 */
public class ShedException extends RejectedException {
    private static final long serialVersionUID = 1L;

    /**
     * @param policyName the refusing policy's name
     * @param message what happened
     * @param retryAfterNanos the retry-after hint in nanoseconds, zero when unknown
     */
    public ShedException(String policyName, String message, long retryAfterNanos) {
        super(policyName, message, retryAfterNanos);
    }

    /**
     * @param policyName the refusing policy's name
     * @param message what happened
     * @param retryAfterNanos the retry-after hint in nanoseconds, zero when unknown
     * @param cause an underlying cause, or null
     */
    public ShedException(String policyName, String message, long retryAfterNanos, Throwable cause) {
        super(policyName, message, retryAfterNanos, cause);
    }

    @Override
    public String kind() {
        return "shed";
    }
}

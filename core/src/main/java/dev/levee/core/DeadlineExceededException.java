package dev.levee.core;

import org.jspecify.annotations.Nullable;

/**
 * The deadline or timeout passed: the call was abandoned, or not started because too little time
 * remained. Unlike the other rejections it says the protected dependency was slow, so circuit
 * breakers and retries count it as a failure by default.
 */
public class DeadlineExceededException extends RejectedException {
    private static final long serialVersionUID = 1L;

    /**
     * @param policyName the refusing policy's name
     * @param message what happened
     * @param retryAfterNanos the retry-after hint in nanoseconds, zero when unknown
     */
    public DeadlineExceededException(String policyName, String message, long retryAfterNanos) {
        super(policyName, message, retryAfterNanos);
    }

    /**
     * @param policyName the refusing policy's name
     * @param message what happened
     * @param retryAfterNanos the retry-after hint in nanoseconds, zero when unknown
     * @param cause an underlying cause, or null
     */
    public DeadlineExceededException(String policyName, String message, long retryAfterNanos, @Nullable Throwable cause) {
        super(policyName, message, retryAfterNanos, cause);
    }

    @Override
    public String kind() {
        return "deadline_exceeded";
    }
}

package dev.levee.core;

import org.jspecify.annotations.Nullable;

/**
 * A load shedder, concurrency limiter or client-side throttle dropped the call to protect a service.
 *
 * <p>{@link #kind()} is always {@code shed} (the metric tag shared by every rejection); {@link #reason()}
 * says which rule refused, as a short lowercase word used as the {@code reason} metric tag and the
 * {@code X-Shed-Reason} HTTP header: {@code concurrency_limit}, {@code client_throttle},
 * {@code queue_full}, {@code queue_timeout}, {@code codel}, {@code deadline}, {@code cpu_high},
 * {@code memory_high}, {@code low_priority_shed}, {@code pid}, {@code upstream_load}.
 */
public class ShedException extends RejectedException {
    private static final long serialVersionUID = 1L;

    /** The reason used when a constructor without one is called. */
    public static final String UNSPECIFIED_REASON = "shed";

    private final String reason;

    /**
     * @param policyName the refusing policy's name
     * @param message what happened
     * @param retryAfterNanos the retry-after hint in nanoseconds, zero when unknown
     */
    public ShedException(String policyName, String message, long retryAfterNanos) {
        this(policyName, UNSPECIFIED_REASON, message, retryAfterNanos, null);
    }

    /**
     * @param policyName the refusing policy's name
     * @param message what happened
     * @param retryAfterNanos the retry-after hint in nanoseconds, zero when unknown
     * @param cause an underlying cause, or null
     */
    public ShedException(String policyName, String message, long retryAfterNanos, @Nullable Throwable cause) {
        this(policyName, UNSPECIFIED_REASON, message, retryAfterNanos, cause);
    }

    /**
     * @param policyName the refusing policy's name
     * @param reason which rule refused, a short lowercase word such as {@code concurrency_limit}
     * @param message what happened
     * @param retryAfterNanos the retry-after hint in nanoseconds, zero when unknown
     * @param cause an underlying cause, or null
     */
    public ShedException(String policyName, String reason, String message, long retryAfterNanos, @Nullable Throwable cause) {
        super(policyName, message, retryAfterNanos, cause);
        this.reason = reason;
    }

    @Override
    public String kind() {
        return "shed";
    }

    /**
     * Which rule refused: a short lowercase word, the {@code reason} metric tag and the value of an
     * {@code X-Shed-Reason} header.
     *
     * @return the reason, {@value #UNSPECIFIED_REASON} when the shedder gave none
     */
    public String reason() {
        return reason;
    }
}

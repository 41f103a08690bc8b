package dev.levee.core;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * A policy refused to run a call, or stopped waiting for it: the root of Levee's one rejection
 * hierarchy. Catch this to handle every refusal; catch a subclass for one kind.
 *
 * <ul>
 *   <li>{@link CircuitOpenException} — a circuit breaker is open;</li>
 *   <li>{@link RateLimitedException} — a rate limiter has no permit;</li>
 *   <li>{@link BulkheadFullException} — a bulkhead or pool has no free slot;</li>
 *   <li>{@link ShedException} — a load shedder dropped the call;</li>
 *   <li>{@link DeadlineExceededException} — the deadline or timeout passed.</li>
 * </ul>
 *
 * <p>Each carries the {@linkplain #policyName() policy's name} and a {@linkplain #retryAfter()
 * retry-after hint}: how long until trying again could succeed (zero when unknown), ready for an
 * HTTP {@code Retry-After} header and honoured by Levee's retry.
 *
 * <p><b>Stackless by default.</b> Rejections come in floods when something is wrong, and their stack
 * says nothing the policy name does not; filling it in is the most expensive part of throwing. Start
 * the JVM with {@code -Dlevee.rejections.stackTraces=true} to record stacks when debugging.
 */
public abstract class RejectedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Whether rejections record a stack trace: {@code -Dlevee.rejections.stackTraces=true}. */
    static final boolean STACK_TRACES = Boolean.getBoolean("levee.rejections.stackTraces");

    private final String policyName;
    private final long retryAfterNanos;

    /**
     * @param policyName the refusing policy's name
     * @param message what happened
     * @param retryAfterNanos the hint in nanoseconds; negative values are stored as zero
     */
    protected RejectedException(String policyName, String message, long retryAfterNanos) {
        this(policyName, message, retryAfterNanos, null);
    }

    /**
     * @param policyName the refusing policy's name
     * @param message what happened
     * @param retryAfterNanos the hint in nanoseconds; negative values are stored as zero
     * @param cause an underlying cause, or null
     */
    protected RejectedException(String policyName, String message, long retryAfterNanos, @Nullable Throwable cause) {
        super(message, cause, false, STACK_TRACES);
        this.policyName = policyName;
        this.retryAfterNanos = Math.max(0L, retryAfterNanos);
    }

    /**
     * The name of the policy that refused.
     *
     * @return the policy name
     */
    public String policyName() {
        return policyName;
    }

    /**
     * How long until a new attempt could succeed; {@link Duration#ZERO} when unknown.
     *
     * @return the hint
     */
    public Duration retryAfter() {
        return Duration.ofNanos(retryAfterNanos);
    }

    /**
     * The retry-after hint in nanoseconds; zero when unknown.
     *
     * @return the hint
     */
    public long retryAfterNanos() {
        return retryAfterNanos;
    }

    /**
     * A short lowercase word for the kind of rejection, used as the {@code kind} metric tag:
     * {@code circuit_open}, {@code rate_limited}, {@code bulkhead_full}, {@code shed},
     * {@code deadline_exceeded}.
     *
     * @return the kind
     */
    public abstract String kind();

    /**
     * The retry-after hint rounded up to whole seconds, as an HTTP {@code Retry-After} value.
     *
     * @return seconds, at least 0
     */
    public long retryAfterSeconds() {
        return (retryAfterNanos + 999_999_999L) / 1_000_000_000L;
    }
}

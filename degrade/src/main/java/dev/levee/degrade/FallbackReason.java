package dev.levee.degrade;

import dev.levee.core.BulkheadFullException;
import dev.levee.core.CircuitOpenException;
import dev.levee.core.DeadlineExceededException;
import dev.levee.core.RateLimitedException;
import dev.levee.core.ShedException;
import dev.levee.core.internal.Exceptions;
import java.util.concurrent.TimeoutException;

/**
 * Why a fallback answered instead of the primary call: derived from core's rejection types, so every
 * Levee pattern's refusal has its own reason without degrade depending on the pattern modules.
 *
 * <table>
 *   <caption>Mapping</caption>
 *   <tr><th>reason</th><th>tag</th><th>the primary ended with</th></tr>
 *   <tr><td>{@link #CIRCUIT_OPEN}</td><td>{@code circuit_open}</td><td>a {@link CircuitOpenException}</td></tr>
 *   <tr><td>{@link #RATE_LIMITED}</td><td>{@code rate_limited}</td><td>a {@link RateLimitedException}</td></tr>
 *   <tr><td>{@link #BULKHEAD_FULL}</td><td>{@code bulkhead_full}</td><td>a {@link BulkheadFullException}</td></tr>
 *   <tr><td>{@link #SHED}</td><td>{@code shed}</td><td>a {@link ShedException}</td></tr>
 *   <tr><td>{@link #TIMEOUT}</td><td>{@code timeout}</td><td>a {@link DeadlineExceededException} or a
 *       {@link TimeoutException}</td></tr>
 *   <tr><td>{@link #ERROR}</td><td>{@code error}</td><td>any other exception</td></tr>
 *   <tr><td>{@link #RESULT}</td><td>{@code result}</td><td>a value the {@link dev.levee.core.Classifier}
 *       counts as a failure</td></tr>
 * </table>
 * {@code CompletionException} and {@code ExecutionException} wrappers are looked through. An
 * {@link Error} has no reason: it never triggers a fallback.
 */
public enum FallbackReason {
    /** A circuit breaker refused the call. */
    CIRCUIT_OPEN("circuit_open"),
    /** A rate limiter had no permit. */
    RATE_LIMITED("rate_limited"),
    /** A bulkhead had no free slot. */
    BULKHEAD_FULL("bulkhead_full"),
    /** A load shedder dropped the call. */
    SHED("shed"),
    /** The deadline or a timeout passed. */
    TIMEOUT("timeout"),
    /** The call threw any other exception. */
    ERROR("error"),
    /** The call returned a value classified as a failure. */
    RESULT("result");

    private final String tag;

    FallbackReason(String tag) {
        this.tag = tag;
    }

    /**
     * The lowercase word used as the {@code reason} metric tag and in logs.
     *
     * @return e.g. {@code circuit_open}
     */
    public String tag() {
        return tag;
    }

    /**
     * The reason for a failure; never {@link #RESULT}.
     *
     * @param failure what the primary call threw (wrappers from futures are looked through)
     * @return the reason
     */
    public static FallbackReason of(Throwable failure) {
        Throwable cause = Exceptions.unwrap(failure);
        if (cause instanceof CircuitOpenException) {
            return CIRCUIT_OPEN;
        }
        if (cause instanceof RateLimitedException) {
            return RATE_LIMITED;
        }
        if (cause instanceof BulkheadFullException) {
            return BULKHEAD_FULL;
        }
        if (cause instanceof ShedException) {
            return SHED;
        }
        if (cause instanceof DeadlineExceededException || cause instanceof TimeoutException) {
            return TIMEOUT;
        }
        return ERROR;
    }
}

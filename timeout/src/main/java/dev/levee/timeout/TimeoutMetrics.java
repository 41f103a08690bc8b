package dev.levee.timeout;

/**
 * A snapshot of a {@link Timeout}'s counters, returned by {@link Timeout#metrics()}. Read without a
 * lock: under load the figures may not add up exactly.
 *
 * @param succeeded calls that returned within their timeout
 * @param failed calls that threw within their timeout
 * @param timedOut calls abandoned at their deadline
 * @param rejectedBeforeStart calls not started: less than {@code minimumRemaining} was left
 * @param executorRejected THREAD-mode calls the executor refused
 * @param interrupted THREAD-mode calls cancelled because the waiting caller was interrupted
 * @param lastEffectiveTimeoutNanos the effective timeout of the latest call, within 1/64 of it
 */
public record TimeoutMetrics(long succeeded, long failed, long timedOut, long rejectedBeforeStart,
        long executorRejected, long interrupted, long lastEffectiveTimeoutNanos) {

    /** @return every call counted */
    public long calls() {
        return succeeded + failed + timedOut + rejectedBeforeStart + executorRejected + interrupted;
    }
}

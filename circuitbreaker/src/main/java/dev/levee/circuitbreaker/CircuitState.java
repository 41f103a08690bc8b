package dev.levee.circuitbreaker;

import java.util.Locale;

/**
 * The states of a {@link CircuitBreaker}.
 *
 * <pre>
 *            failure or slow-call rate &gt;= threshold (window holds &gt;= minimumNumberOfCalls),
 *            or a counting rule (in a row, in the window, decaying)
 *   CLOSED ─────────────────────────────────────────────────► OPEN
 *     ▲                                                        │ waitDurationInOpen elapsed
 *     │ probes' rates under thresholds                          │ (lazily, on the next call,
 *     │ (or successThresholdInHalfOpen good probes)             │  or by the scheduler)
 *     │                                                        ▼
 *     └──────────────────────────────────────────────────── HALF_OPEN
 *                          probes' rates at/over threshold ──► OPEN (waits longer each time in a row)
 * </pre>
 *
 * The three manual states are entered and left only by the {@code transitionTo...} methods of the
 * breaker: {@link #DISABLED}, {@link #FORCED_OPEN}, {@link #METRICS_ONLY}.
 */
public enum CircuitState {
    /** Calls flow; outcomes are recorded in the sliding window; the rules are checked after every recording that can make one true. */
    CLOSED,
    /** Calls are rejected with {@link dev.levee.core.CircuitOpenException} until the wait in open has elapsed. */
    OPEN,
    /** A fixed number of probe calls is admitted; their outcomes decide between CLOSED and OPEN. */
    HALF_OPEN,
    /** Manual: every call is permitted and nothing is recorded. */
    DISABLED,
    /** Manual: every call is rejected. */
    FORCED_OPEN,
    /** Manual: every call is permitted, outcomes are recorded and threshold crossings reported, but the breaker never opens. */
    METRICS_ONLY;

    private final String tag = name().toLowerCase(Locale.ROOT);

    /**
     * The state as a metric tag value, e.g. {@code half_open}.
     *
     * @return the lowercase name
     */
    public String tag() {
        return tag;
    }

    /**
     * Whether a call may be permitted in this state at all (HALF_OPEN only up to its probe count).
     *
     * @return false for OPEN and FORCED_OPEN
     */
    public boolean allowsCalls() {
        return this != OPEN && this != FORCED_OPEN;
    }
}

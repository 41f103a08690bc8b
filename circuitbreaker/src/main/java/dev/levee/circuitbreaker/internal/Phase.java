package dev.levee.circuitbreaker.internal;

import dev.levee.circuitbreaker.CircuitState;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * One stretch of a breaker's life in one state: immutable apart from its counters, and replaced as a
 * whole (one CAS of the breaker's phase reference) on every transition. The CAS is the breaker's single
 * point of agreement: exactly one thread wins each transition, and a recording that raced a transition
 * lands in the phase it read (a window or probe round nobody consults any more) instead of corrupting
 * the next one.
 *
 * <p>A CLOSED or METRICS_ONLY phase owns a fresh window that it records into; OPEN, HALF_OPEN and the
 * other manual phases keep the last window for reporting only.
 */
public final class Phase {
    /** The state. */
    public final CircuitState state;
    /** Ticker reading when the phase began. */
    public final long enteredAtNanos;
    /** OPEN: the reading from which a call may move the breaker to HALF_OPEN. */
    public final long openUntilNanos;
    /**
     * HALF_OPEN: calls that started before this reading belong to an earlier era (they were admitted
     * while CLOSED, or are probes of an abandoned round); their outcomes are ignored, and no probe is
     * admitted with an older start reading.
     */
    public final long eraStartNanos;
    /** Openings in a row without a successful close; drives the backoff of the wait in open. */
    public final int consecutiveOpens;
    /** The window recorded into (CLOSED, METRICS_ONLY) or kept for reporting. */
    public final SlidingWindow window;
    /** HALF_OPEN: this round's probes; otherwise null. */
    public final @Nullable HalfOpenProbes probes;
    /** CLOSED with the consecutive-failures rule: failures in a row; otherwise null. */
    public final @Nullable AtomicInteger consecutiveFailures;

    /**
     * @param state the state
     * @param enteredAtNanos when it began
     * @param openUntilNanos OPEN: when it may end
     * @param eraStartNanos HALF_OPEN: the start of this probe round's era
     * @param consecutiveOpens openings in a row
     * @param window the window
     * @param probes HALF_OPEN: the probe accounting
     * @param consecutiveFailures the consecutive failures counter, or null
     */
    public Phase(CircuitState state, long enteredAtNanos, long openUntilNanos, long eraStartNanos, int consecutiveOpens,
            SlidingWindow window, @Nullable HalfOpenProbes probes, @Nullable AtomicInteger consecutiveFailures) {
        this.state = state;
        this.enteredAtNanos = enteredAtNanos;
        this.openUntilNanos = openUntilNanos;
        this.eraStartNanos = eraStartNanos;
        this.consecutiveOpens = consecutiveOpens;
        this.window = window;
        this.probes = probes;
        this.consecutiveFailures = consecutiveFailures;
    }

    @Override
    public String toString() {
        return state + "@" + enteredAtNanos;
    }
}

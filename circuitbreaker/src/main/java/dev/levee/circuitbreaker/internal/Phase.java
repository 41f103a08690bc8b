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
    /** {@link #eraStartNanos} not yet written by the thread that made the transition. */
    public static final long UNSET = Long.MIN_VALUE;

    /**
     * OPEN and HALF_OPEN: calls whose start reading is at or before this reading ({@code start <= eraStart})
     * belong to an earlier era (they were admitted while CLOSED, or are probes of an abandoned round);
     * their outcomes are ignored, they free no probe, and no probe is admitted with such a reading.
     * For an opening it is a reading taken after the transition's CAS, so it is at or after the start
     * of every permit of the previous era; it is {@link #UNSET} until the winning thread writes it
     * (meanwhile no probe is admitted). Written once.
     */
    public volatile long eraStartNanos;
    /** Openings in a row without a successful close; drives the backoff of the wait in open. */
    public final int consecutiveOpens;
    /** The window recorded into (CLOSED, METRICS_ONLY) or kept for reporting. */
    public final SlidingWindow window;
    /** HALF_OPEN: this round's probes; otherwise null. */
    public final @Nullable HalfOpenProbes probes;
    /** CLOSED with the consecutive-failures rule: failures in a row; otherwise null. */
    public final @Nullable AtomicInteger consecutiveFailures;
    /** CLOSED with the decaying-failures rule: +1 per failure, −1 per success, never below 0; otherwise null. */
    public final @Nullable AtomicInteger decayingFailures;

    /**
     * @param state the state
     * @param enteredAtNanos when it began
     * @param openUntilNanos OPEN: when it may end
     * @param eraStartNanos HALF_OPEN: the start of this probe round's era
     * @param consecutiveOpens openings in a row
     * @param window the window
     * @param probes HALF_OPEN: the probe accounting
     * @param consecutiveFailures the consecutive failures counter, or null
     * @param decayingFailures the decaying failure counter, or null
     */
    public Phase(CircuitState state, long enteredAtNanos, long openUntilNanos, long eraStartNanos, int consecutiveOpens,
            SlidingWindow window, @Nullable HalfOpenProbes probes, @Nullable AtomicInteger consecutiveFailures,
            @Nullable AtomicInteger decayingFailures) {
        this.state = state;
        this.enteredAtNanos = enteredAtNanos;
        this.openUntilNanos = openUntilNanos;
        this.eraStartNanos = eraStartNanos;
        this.consecutiveOpens = consecutiveOpens;
        this.window = window;
        this.probes = probes;
        this.consecutiveFailures = consecutiveFailures;
        this.decayingFailures = decayingFailures;
    }

    @Override
    public String toString() {
        return state + "@" + enteredAtNanos;
    }
}

package dev.levee.circuitbreaker;

import dev.levee.circuitbreaker.CircuitBreakerEvent.StateTransitioned;
import dev.levee.circuitbreaker.CircuitBreakerEvent.ThresholdExceeded;
import dev.levee.circuitbreaker.internal.CountWindow;
import dev.levee.circuitbreaker.internal.HalfOpenProbes;
import dev.levee.circuitbreaker.internal.Phase;
import dev.levee.circuitbreaker.internal.PhaseRef;
import dev.levee.circuitbreaker.internal.SlidingWindow;
import dev.levee.circuitbreaker.internal.TimeWindow;
import dev.levee.circuitbreaker.internal.TripRules;
import dev.levee.core.internal.EventListeners;
import dev.levee.core.Ticker;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The state machine of one {@link CircuitBreaker}: builds the phases and replaces one by the next.
 * Every transition is one CAS of the breaker's phase reference; the thread that wins it stamps the new
 * era, publishes the events, logs, and schedules the automatic move to HALF_OPEN. Never on the call
 * path of a healthy breaker.
 */
final class StateTransitions {
    private static final Logger LOG = LoggerFactory.getLogger(CircuitBreaker.class);

    private final String name;
    private final CircuitBreakerConfig config;
    private final Ticker ticker;
    /** The breaker's phase; attached once, right after the initial phase is built. */
    private @Nullable PhaseRef phaseRef;
    private final EventListeners<CircuitBreakerEvent> listeners;
    /** METRICS_ONLY: the rules whose current crossing was already reported; cleared on every transition. */
    final AtomicInteger crossingsReported = new AtomicInteger();
    private final boolean timeWindow;

    StateTransitions(String name, CircuitBreakerConfig config, EventListeners<CircuitBreakerEvent> listeners) {
        this.name = name;
        this.config = config;
        this.ticker = config.ticker();
        this.listeners = listeners;
        this.timeWindow = config.slidingWindowType() == SlidingWindowType.TIME_BASED;
    }

    /** Attaches the breaker's phase reference (once, in the breaker's constructor). */
    void attach(PhaseRef ref) {
        this.phaseRef = ref;
    }

    private PhaseRef phase() {
        PhaseRef ref = phaseRef;
        if (ref == null) {
            throw new IllegalStateException("no phase attached");
        }
        return ref;
    }

    // ---------------------------------------------------------------- phases

    /** The phase a new (or reset) breaker starts in: {@link CircuitBreakerConfig#initialState()}. */
    Phase initialPhase(long now) {
        Phase closed = closedPhase(CircuitState.CLOSED, now);
        switch (config.initialState()) {
            case OPEN: {
                Phase open = openPhase(now, 1, closed.window);
                open.eraStartNanos = now; // no earlier era to tell apart
                return open;
            }
            case METRICS_ONLY:
                return closedPhase(CircuitState.METRICS_ONLY, now);
            case DISABLED:
            case FORCED_OPEN:
                return manualPhase(config.initialState(), now, closed);
            default:
                return closed;
        }
    }

    Phase closedPhase(CircuitState state, long now) {
        SlidingWindow window = timeWindow
                ? new TimeWindow(config.slidingWindowSize() * 1_000_000_000L, config.timeWindowBuckets())
                : new CountWindow(config.slidingWindowSize(), config.minimumNumberOfCalls());
        @Nullable AtomicInteger inARow = config.consecutiveFailureThreshold() > 0 ? new AtomicInteger() : null;
        @Nullable AtomicInteger decaying = config.decayingFailureThreshold() > 0 ? new AtomicInteger() : null;
        return new Phase(state, now, 0L, now, 0, window, null, inARow, decaying);
    }

    Phase openPhase(long now, int consecutiveOpens, SlidingWindow window) {
        return openPhaseFor(now, config.waitInOpenNanos(consecutiveOpens), consecutiveOpens, window);
    }

    Phase openPhaseFor(long now, long waitNanos, int consecutiveOpens, SlidingWindow window) {
        // The era is stamped after the CAS (transition): the trip reading can be older than the start of
        // calls admitted before the state change landed.
        return new Phase(CircuitState.OPEN, now, now + waitNanos, Phase.UNSET, consecutiveOpens, window, null, null,
                null);
    }

    Phase halfOpenPhase(long now, long eraStart, int consecutiveOpens, SlidingWindow window) {
        return new Phase(CircuitState.HALF_OPEN, now, 0L, eraStart, consecutiveOpens, window,
                new HalfOpenProbes(config.permittedCallsInHalfOpen()), null, null);
    }

    Phase manualPhase(CircuitState state, long now, Phase from) {
        return new Phase(state, now, 0L, now, from.consecutiveOpens, from.window, null, null, null);
    }

    // ---------------------------------------------------------------- transitions

    /**
     * Replaces {@code from} by {@code to} if {@code from} is still current; the one thread that succeeds
     * stamps the era, publishes the events, logs, and schedules the automatic transition.
     *
     * @return whether this call made the transition
     */
    boolean transition(Phase from, Phase to, long now, TransitionReason reason) {
        if (!phase().compareAndSet(from, to)) {
            return false;
        }
        if (to.eraStartNanos == Phase.UNSET) {
            // Every permit of the previous era read its clock before it saw the old phase, hence before
            // this CAS: a reading taken now is at or after all of their starts.
            to.eraStartNanos = ticker.read();
        }
        crossingsReported.set(0);
        if (!listeners.isEmpty()) {
            CircuitBreakerEvent.Rule rule = reason.rule();
            if (rule != null) {
                listeners.publish(new ThresholdExceeded(name, now, rule, reason.value(), reason.threshold(),
                        reason.calls()));
            }
            listeners.publish(new StateTransitioned(name, now, from.state, to.state, reason.text()));
        }
        if (to.state == CircuitState.OPEN) {
            long waitNanos = to.openUntilNanos - now;
            if (LOG.isWarnEnabled()) {
                long windowTotals = from.window.totals(now);
                long windowCalls = SlidingWindow.calls(windowTotals);
                LOG.warn("Circuit breaker '{}' {} -> OPEN: {}; closed-state window: {} calls, failure rate {}%,"
                                + " slow-call rate {}% ({} window of {}); open for {} ms (opening {} in a row)",
                        name, from.state, reason.text(), windowCalls,
                        percent(TripRules.rate(SlidingWindow.failures(windowTotals), windowCalls)),
                        percent(TripRules.rate(SlidingWindow.slowCalls(windowTotals), windowCalls)),
                        config.slidingWindowType(), config.slidingWindowSize(), waitNanos / 1_000_000L,
                        to.consecutiveOpens);
            }
            scheduleHalfOpen(to, waitNanos);
        } else if (LOG.isInfoEnabled()) {
            LOG.info("Circuit breaker '{}' {} -> {}: {}", name, from.state, to.state, reason.text());
        }
        return true;
    }

    /**
     * With {@code automaticTransitionToHalfOpen}, asks the scheduler to move {@code open} to HALF_OPEN
     * when its wait ends (a no-op if the breaker left that phase meanwhile).
     */
    void scheduleHalfOpen(Phase open, long waitNanos) {
        if (!config.automaticTransitionToHalfOpen()) {
            return;
        }
        config.scheduler().schedule(() -> {
            Phase current = phase().get();
            if (current == open) {
                long t = ticker.read();
                transition(current, halfOpenPhase(t, open.eraStartNanos, open.consecutiveOpens, open.window), t,
                        TransitionReason.because("wait in open elapsed (scheduled)"));
            }
        }, waitNanos);
    }

    /** Moves to {@code target} by hand, whatever the state (a no-op if already there). */
    void manual(CircuitState target) {
        while (true) {
            Phase from = phase().get();
            if (from.state == target) {
                return;
            }
            long now = ticker.read();
            Phase to;
            switch (target) {
                case CLOSED:
                case METRICS_ONLY:
                    to = closedPhase(target, now);
                    break;
                case OPEN:
                    to = openPhase(now, from.consecutiveOpens + 1, from.window);
                    break;
                case HALF_OPEN:
                    to = halfOpenPhase(now, from.state == CircuitState.OPEN ? from.eraStartNanos : Phase.UNSET,
                            from.consecutiveOpens, from.window);
                    break;
                default:
                    to = manualPhase(target, now, from);
            }
            if (transition(from, to, now, TransitionReason.because("manual transition"))) {
                return;
            }
        }
    }

    /** Opens the breaker for {@code waitNanos} from now, whatever the state. */
    void openFor(long waitNanos, String reason) {
        while (true) {
            Phase from = phase().get();
            long now = ticker.read();
            Phase to = openPhaseFor(now, Math.max(1L, waitNanos), from.consecutiveOpens + 1, from.window);
            if (transition(from, to, now, TransitionReason.because(reason))) {
                return;
            }
        }
    }

    /** Back to the initial state with an empty window and no openings in a row. */
    void reset() {
        while (true) {
            Phase from = phase().get();
            long now = ticker.read();
            Phase to = initialPhase(now);
            if (to.state == CircuitState.OPEN) {
                to.eraStartNanos = Phase.UNSET; // there is an earlier era now: stamp it after the CAS
            }
            if (transition(from, to, now, TransitionReason.because("reset"))) {
                return;
            }
        }
    }

    static String percent(double fraction) {
        return String.format(Locale.ROOT, "%.1f", fraction * 100);
    }
}

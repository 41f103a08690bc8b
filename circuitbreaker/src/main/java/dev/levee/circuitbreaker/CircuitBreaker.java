package dev.levee.circuitbreaker;

import dev.levee.circuitbreaker.CircuitBreakerEvent.Rule;
import dev.levee.circuitbreaker.CircuitBreakerEvent.StateTransitioned;
import dev.levee.circuitbreaker.CircuitBreakerEvent.ThresholdExceeded;
import dev.levee.circuitbreaker.internal.CallCounters;
import dev.levee.circuitbreaker.internal.HalfOpenProbes;
import dev.levee.circuitbreaker.internal.Phase;
import dev.levee.circuitbreaker.internal.PhaseRef;
import dev.levee.circuitbreaker.internal.SlidingWindow;
import dev.levee.circuitbreaker.internal.TimeWindow;
import dev.levee.circuitbreaker.internal.TripRules;
import dev.levee.core.CircuitOpenException;
import dev.levee.core.Classifier;
import dev.levee.core.Deadline;
import dev.levee.core.internal.EventListeners;
import dev.levee.core.Gate;
import dev.levee.core.Outcome;
import dev.levee.core.PolicyRegistry;
import dev.levee.core.RejectedException;
import dev.levee.core.Subscription;
import dev.levee.core.Ticker;
import dev.levee.core.TimeNeed;
import dev.levee.core.internal.Validate;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;
import dev.levee.core.internal.Nanos;

/**
 * A sliding-window circuit breaker: turns calls to a sick dependency into instant
 * {@link CircuitOpenException}s, so they stop eating threads, and lets a few probes find out when it
 * has recovered. Create one per dependency: {@link #of(String, CircuitBreakerConfig)},
 * {@link #ofDefaults(String)}, or a {@link #registry(CircuitBreakerConfig)}.
 *
 * <p><b>Model</b> (see {@link CircuitState} for the diagram). CLOSED records each call's outcome in a
 * sliding window (the last N calls, or the last N seconds). After every recording that can make a rule
 * true (a failure, a slow call, a success that brings the window to its minimum, and in a time window
 * the first success after buckets may have expired) it checks the rules: once the window holds at least
 * {@code minimumNumberOfCalls}, a failure rate {@code failed / calls >= failureRateThreshold} or a
 * slow-call rate {@code slow / calls >= slowCallRateThreshold} (fractions: 0.5 is 50 %) opens it; so do,
 * when switched on, {@code consecutiveFailureThreshold} failures in a row, {@code failureCountThreshold}
 * failures in the window, or a decaying failure counter (+1 per failure, −1 per success) reaching
 * {@code decayingFailureThreshold}. A call is slow when it takes longer than
 * {@code slowCallDurationThreshold}, whether it succeeded or failed. OPEN rejects every call for
 * {@code wait(n) = min(maxWaitDurationInOpen, waitDurationInOpen × waitDurationMultiplier^(n − 1))}, where
 * {@code n} counts openings in a row without a successful close, with {@code retryAfter} = the time
 * left. The first call after that moves it to HALF_OPEN (lazily: no background thread unless
 * {@code automaticTransitionToHalfOpen}). HALF_OPEN admits exactly {@code permittedCallsInHalfOpen}
 * probes, however many threads race for them, and refuses the rest with {@code retryAfter} =
 * {@code halfOpenRetryAfter} (1 s); it reopens as soon as the probes' failure (or slow) count reaches the
 * threshold share of all permitted probes, and closes, with an empty window, when all probes are back
 * under the thresholds (or, with {@code successThresholdInHalfOpen = k}, as soon as {@code k} probes
 * succeeded fast, reopening as soon as that became impossible).
 *
 * <p><b>Hung probes.</b> When every probe is out and the breaker has been HALF_OPEN for
 * {@code maxWaitInHalfOpen}, the next call starts a fresh round of probes, reopens or closes, per
 * {@link HalfOpenTimeoutAction}; the late answers of an abandoned round are ignored.
 *
 * <p><b>Which completions count.</b> A completion seen in HALF_OPEN counts as a probe only if the call
 * started after the round's era began (so a call admitted while CLOSED, or a probe of an abandoned
 * round, never counts and never frees a probe); in OPEN, FORCED_OPEN and DISABLED nothing is recorded;
 * in CLOSED every completion is recorded. {@code docs/circuitbreaker.md} explains the eras.
 *
 * <p><b>Classification</b> by the config's {@link Classifier} (default
 * {@link CircuitBreakerConfig#defaultClassifier()}): an ignored outcome is not recorded and gives a
 * half-open probe back; an exception matching {@code recordAsSuccess} counts as a success;
 * {@link #onResult} consults the result predicate only when the classifier has one.
 *
 * <p><b>Time.</b> The breaker reads the clock only when its state needs it ({@link #timeNeed()}): a CLOSED
 * count window without a slow-call rule ({@link CircuitBreakerConfig.Builder#noSlowCallRule()}) needs no
 * reading, so a pipeline or {@code execute} reads none for it; with the default slow-call rule, or a time
 * window, it needs the call's latency; OPEN needs the start reading, HALF_OPEN the latency.
 *
 * <p><b>Cost.</b> {@code tryAcquire} in CLOSED is one volatile read. A fast success in CLOSED is at most
 * one atomic increment with a count window (none at all while the window holds only fast successes)
 * or one atomic add and one volatile read with a time window, plus one ticker reading unless the caller
 * passed the end reading ({@code onResultAt}, as pipelines and {@code execute} do); nothing is allocated
 * and no lock is taken. Failures and slow calls also check the rules. Events are built only when
 * someone listens; transitions allocate a new state record.
 *
 * <p>Thread-safe. Usable as a {@link Gate} without lambdas, in a {@link dev.levee.core.Pipeline}, or
 * through {@code execute}/{@code decorate}.
 */
public final class CircuitBreaker implements Gate {
    /*
     * Implementation notes (for maintainers).
     *
     * State. One PhaseRef (a volatile reference): each Phase is one stretch of life in one state,
     * immutable apart from its counters, replaced whole by one CAS (StateTransitions.transition). A recording that raced
     * a transition lands in the phase it read — a window or probe round nobody consults any more —
     * instead of corrupting the next one.
     *
     * Eras. The permit protocol carries no token, so completions are told apart by time. An OPEN phase's
     * era start is a ticker reading taken by the winning thread right after its CAS: every call admitted
     * while CLOSED read its clock before it saw CLOSED, hence before that reading, so `start <= eraStart`
     * means "earlier era" even on a coarse or frozen clock. The trip reading itself is not enough: it is
     * the tripping call's end reading, which can be older than the start of calls admitted before the
     * CAS landed (issue 12, bug 9). The first HALF_OPEN round inherits the OPEN era; a fresh round after
     * a hung probe owns its transitioning reading (eraStart = reading − 1) so its caller may probe. Until
     * the era is stamped (Phase.UNSET) no probe is admitted. In CLOSED a straggler from before the last
     * opening is recorded (telling it apart would cost a clock reading per success).
     *
     * Packing. Window totals pack calls/failures/slow in 21 bits each (SlidingWindow); a half-open round
     * packs admitted/completed/failures/slow/good in 12 bits each (HalfOpenProbes), so admission and
     * recording are one CAS each.
     *
     * When rules are checked. SlidingWindow.record reports whether the recording can have made a rule
     * true; a fast success only when it completes the minimum (count window) or falls in a bucket where no
     * check has seen the minimum yet (time window: buckets may have expired since). Issue 12, bug 1.
     */
    private final String name;
    private final CircuitBreakerConfig config;
    private final Ticker ticker;
    private final Classifier classifier;
    private final boolean classifiesResults;
    private final @Nullable Predicate<? super Throwable> recordAsSuccess;
    private final long slowNanos;
    private final TripRules rules;
    private final double failureRateThreshold;
    private final double slowCallRateThreshold;
    private final int consecutiveFailureThreshold;
    private final int failureCountThreshold;
    private final int decayingFailureThreshold;
    private final int permittedInHalfOpen;
    private final int successThresholdInHalfOpen;
    private final long maxWaitInHalfOpenNanos;
    private final long halfOpenRetryAfterNanos;
    private final boolean timeWindow;
    /** What CLOSED (and METRICS_ONLY) needs: nothing for a count window without a slow-call rule. */
    private final TimeNeed closedNeed;

    private final String openMessage;
    private final String forcedOpenMessage;
    private final String halfOpenMessage;

    private final PhaseRef phase;
    private final StateTransitions transitions;
    private final LongAdder notPermitted = new LongAdder();
    private final EventListeners<CircuitBreakerEvent> listeners = new EventListeners<>();
    private static final int CONSECUTIVE_BIT = 8;
    private static final int DECAYING_BIT = 16;
    private volatile @Nullable CallCounters counters;
    private static final VarHandle COUNTERS;

    static {
        try {
            COUNTERS = MethodHandles.lookup().findVarHandle(CircuitBreaker.class, "counters", CallCounters.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private CircuitBreaker(String name, CircuitBreakerConfig config) {
        this.name = Validate.name(CircuitBreakerConfig.POLICY, name);
        this.config = Validate.notNull(Validate.describe(CircuitBreakerConfig.POLICY, name), "config", config);
        this.ticker = config.ticker();
        this.classifier = config.classifier();
        this.classifiesResults = classifier.classifiesResults();
        this.recordAsSuccess = config.recordAsSuccess();
        this.slowNanos = Deadline.saturatedNanos(config.slowCallDurationThreshold());
        this.failureRateThreshold = config.failureRateThreshold();
        this.slowCallRateThreshold = config.slowCallRateThreshold();
        this.failureCountThreshold = config.failureCountThreshold();
        this.rules = new TripRules(config.minimumNumberOfCalls(), failureRateThreshold, slowCallRateThreshold,
                failureCountThreshold);
        this.consecutiveFailureThreshold = config.consecutiveFailureThreshold();
        this.decayingFailureThreshold = config.decayingFailureThreshold();
        this.permittedInHalfOpen = config.permittedCallsInHalfOpen();
        this.successThresholdInHalfOpen = config.successThresholdInHalfOpen();
        this.maxWaitInHalfOpenNanos = Deadline.saturatedNanos(config.maxWaitInHalfOpen());
        this.halfOpenRetryAfterNanos = Deadline.saturatedNanos(config.halfOpenRetryAfter());
        this.timeWindow = config.slidingWindowType() == SlidingWindowType.TIME_BASED;
        this.closedNeed = !timeWindow && slowNanos == Long.MAX_VALUE ? TimeNeed.NONE : TimeNeed.LATENCY;
        this.openMessage = "CircuitBreaker '" + name + "' is OPEN";
        this.forcedOpenMessage = "CircuitBreaker '" + name + "' is FORCED_OPEN";
        this.halfOpenMessage = "CircuitBreaker '" + name + "' is HALF_OPEN with all " + permittedInHalfOpen + " probes out";
        this.transitions = new StateTransitions(name, config, listeners);
        Phase initial = transitions.initialPhase(ticker.read());
        this.phase = new PhaseRef(initial);
        transitions.attach(phase);
        if (initial.state == CircuitState.OPEN) {
            transitions.scheduleHalfOpen(initial, initial.openUntilNanos - initial.enteredAtNanos);
        }
    }

    /**
     * Creates a breaker.
     *
     * @param name the breaker's name (one per dependency), used in rejections, events, logs and metrics
     * @param config the config
     * @return a new breaker in the config's initial state (CLOSED by default)
     * @throws dev.levee.core.InvalidConfigException if the name is blank or the config null
     */
    public static CircuitBreaker of(String name, CircuitBreakerConfig config) {
        return new CircuitBreaker(name, config);
    }

    /**
     * Creates a breaker with {@link CircuitBreakerConfig#defaults()}.
     *
     * @param name the breaker's name
     * @return a new CLOSED breaker
     * @throws dev.levee.core.InvalidConfigException if the name is blank
     */
    public static CircuitBreaker ofDefaults(String name) {
        return new CircuitBreaker(name, CircuitBreakerConfig.defaults());
    }

    /**
     * A registry of breakers by name: one per dependency, created on first use from the default config
     * or a named one ({@link PolicyRegistry#addConfig}).
     *
     * @param defaultConfig the config of breakers created without a named config
     * @return a new registry
     */
    public static PolicyRegistry<CircuitBreakerConfig, CircuitBreaker> registry(CircuitBreakerConfig defaultConfig) {
        return PolicyRegistry.create(defaultConfig, CircuitBreaker::of);
    }

    @Override
    public String name() {
        return name;
    }

    /** @return the config */
    public CircuitBreakerConfig config() {
        return config;
    }

    @Override
    public Ticker ticker() {
        return ticker;
    }

    /** @return the current state */
    public CircuitState state() {
        return phase.get().state;
    }

    // ---------------------------------------------------------------- permit protocol

    /**
     * What this breaker needs for a call starting now: in CLOSED (and METRICS_ONLY), nothing for a count
     * window without a slow-call rule ({@link CircuitBreakerConfig.Builder#noSlowCallRule()}), else the
     * latency (a slow-call rule compares it; a time window buckets by the end reading); in OPEN the start
     * (to know when to half-open); in HALF_OPEN the latency (a probe's era and slowness); in FORCED_OPEN
     * and DISABLED nothing. One volatile read.
     *
     * @return the readings needed now
     */
    @Override
    public TimeNeed timeNeed() {
        switch (phase.get().state) {
            case CLOSED:
            case METRICS_ONLY:
                return closedNeed;
            case OPEN:
                return TimeNeed.START;
            case HALF_OPEN:
                return TimeNeed.LATENCY;
            default:
                return TimeNeed.NONE;
        }
    }

    /** In CLOSED: one volatile read and no clock; otherwise reads the ticker once. */
    @Override
    public boolean tryAcquire() {
        Phase p = phase.get();
        if (p.state == CircuitState.CLOSED) {
            return true;
        }
        return tryAcquireSlow(p, ticker.read());
    }

    /**
     * Grants in CLOSED, DISABLED and METRICS_ONLY; in OPEN refuses until the wait ends, then moves to
     * HALF_OPEN; in HALF_OPEN admits up to {@code permittedCallsInHalfOpen} probes. Handed
     * {@link Gate#NO_READING} (the caller asked while CLOSED and the state moved on), OPEN reads the ticker
     * itself and HALF_OPEN refuses: a probe's latency could not be measured, as for a reading of an earlier
     * era.
     */
    @Override
    public boolean tryAcquire(long nowNanos) {
        Phase p = phase.get();
        if (p.state == CircuitState.CLOSED) {
            return true;
        }
        return tryAcquireSlow(p, nowNanos);
    }

    private boolean tryAcquireSlow(Phase p, long nowNanos) {
        boolean given = nowNanos != NO_READING;
        long now = nowNanos;
        while (true) {
            switch (p.state) {
                case CLOSED:
                case DISABLED:
                case METRICS_ONLY:
                    return true;
                case OPEN:
                    if (!given) {
                        now = ticker.read();
                    }
                    if (now - p.openUntilNanos < 0) {
                        return refuse(p, now);
                    }
                    transitions.transition(p, transitions.halfOpenPhase(now, p.eraStartNanos, p.consecutiveOpens,
                            p.window), now, TransitionReason.because("wait in open elapsed"));
                    break;
                case HALF_OPEN: {
                    long era = p.eraStartNanos;
                    if (!given || era == Phase.UNSET || now - era <= 0) {
                        return refuse(p, now); // a reading of an earlier era (or the era not yet stamped)
                    }
                    HalfOpenProbes probes = probes(p);
                    if (probes.tryAdmit()) {
                        return true;
                    }
                    if (now - p.enteredAtNanos < maxWaitInHalfOpenNanos) {
                        return refuse(p, now);
                    }
                    halfOpenTimedOut(p, now);
                    break;
                }
                case FORCED_OPEN:
                default:
                    return refuse(p, now);
            }
            p = phase.get();
        }
    }

    private void halfOpenTimedOut(Phase p, long now) {
        String waited = "half-open probes not back after " + config.maxWaitInHalfOpen();
        switch (config.halfOpenTimeoutAction()) {
            case REOPEN:
                transitions.transition(p, transitions.openPhase(now, p.consecutiveOpens + 1, p.window), now,
                        TransitionReason.because(waited));
                break;
            case CLOSE:
                transitions.transition(p, transitions.closedPhase(CircuitState.CLOSED, now), now,
                        TransitionReason.because(waited + "; closing (HalfOpenTimeoutAction.CLOSE)"));
                break;
            default:
                // The new round owns the transitioning reading itself: its caller may probe.
                transitions.transition(p, transitions.halfOpenPhase(now, now - 1, p.consecutiveOpens, p.window), now,
                        TransitionReason.because(waited + "; new round of probes"));
        }
    }

    private boolean refuse(Phase p, long now) {
        notPermitted.increment();
        if (!listeners.isEmpty()) {
            listeners.publish(new CircuitBreakerEvent.Rejected(name, now == NO_READING ? ticker.read() : now, p.state));
        }
        return false;
    }

    /**
     * A {@link CircuitOpenException} whose {@code retryAfter} is the time left in OPEN,
     * {@code halfOpenRetryAfter} (default 1 s) in HALF_OPEN with every probe out, and zero (unknown) in
     * FORCED_OPEN.
     */
    @Override
    public RejectedException rejection(long nowNanos) {
        Phase p = phase.get();
        long retryAfter;
        // Messages are built once: rejections come in floods.
        String message;
        switch (p.state) {
            case OPEN:
                message = openMessage;
                retryAfter = Math.max(0L, p.openUntilNanos - (nowNanos == NO_READING ? ticker.read() : nowNanos));
                break;
            case FORCED_OPEN:
                message = forcedOpenMessage;
                retryAfter = 0L;
                break;
            case HALF_OPEN:
                message = halfOpenMessage;
                retryAfter = halfOpenRetryAfterNanos;
                break;
            default:
                message = "CircuitBreaker '" + name + "' refused the call (now " + p.state + ")";
                retryAfter = 0L;
        }
        return new CircuitOpenException(name, message, retryAfter);
    }

    @Override
    public void onSuccess(long latencyNanos) {
        succeeded(0L, false, latencyNanos);
    }

    @Override
    public void onFailure(long latencyNanos, Throwable error) {
        failed(0L, false, latencyNanos, error);
    }

    @Override
    public void onResult(long latencyNanos, Object result) {
        returned(0L, false, latencyNanos, result);
    }

    /** The pipeline's end reading saves the time window a second clock read per call. */
    @Override
    public void onResultAt(long endNanos, long latencyNanos, Object result) {
        returned(endNanos, endNanos != NO_READING, latencyNanos, result);
    }

    @Override
    public void onFailureAt(long endNanos, long latencyNanos, Throwable error) {
        failed(endNanos, endNanos != NO_READING, latencyNanos, error);
    }

    @Override
    public void onIgnored() {
        ignored(0L, false);
    }

    /** Pipelines pass the acquire reading, so a permit of an earlier era never frees a current probe. */
    @Override
    public void onIgnoredAt(long startNanos) {
        ignored(startNanos, true);
    }

    private void returned(long end, boolean endKnown, long latencyNanos, Object result) {
        if (classifiesResults && classifier.classifyResult(result) == Outcome.FAILURE) {
            complete(phase.get(), true, latencyNanos, end, endKnown);
        } else {
            succeeded(end, endKnown, latencyNanos);
        }
    }

    private void failed(long end, boolean endKnown, long latencyNanos, Throwable error) {
        Predicate<? super Throwable> asSuccess = recordAsSuccess;
        if (asSuccess != null && asSuccess.test(error)) {
            succeeded(end, endKnown, latencyNanos);
        } else if (classifier.classify(error) == Outcome.IGNORED) {
            ignored(latencyNanos == NO_READING ? NO_READING : (endKnown ? end : ticker.read()) - latencyNanos, true);
        } else {
            complete(phase.get(), true, latencyNanos, end, endKnown);
        }
    }

    private void succeeded(long end, boolean endKnown, long latencyNanos) {
        Phase p = phase.get();
        if (p.state == CircuitState.CLOSED && latencyNanos <= slowNanos) {
            CallCounters c = counters;
            if (c != null) {
                c.successful.increment();
            }
            // A count window needs no time; a time window needs the end reading, read only if not given.
            long now = timeWindow ? (endKnown ? end : ticker.read()) : 0L;
            boolean check = p.window.record(SlidingWindow.SUCCESS, now);
            if (check || p.consecutiveFailures != null || p.decayingFailures != null) {
                // Rare on a healthy breaker: kept out of line so this path stays small enough to inline.
                afterSuccess(p, check, now, end, endKnown);
            }
            return;
        }
        complete(p, false, latencyNanos, end, endKnown);
    }

    /**
     * The counting rules' bookkeeping of a fast success, and the rule check it may call for (reading the
     * clock for a count window only then).
     */
    private void afterSuccess(Phase p, boolean check, long now, long end, boolean endKnown) {
        AtomicInteger inARow = p.consecutiveFailures;
        if (inARow != null && inARow.get() != 0) {
            inARow.set(0);
        }
        AtomicInteger decaying = p.decayingFailures;
        if (decaying != null && decaying.get() != 0) {
            decay(decaying);
        }
        if (check) {
            // This success completed the minimum, or buckets may have expired: the rates can be over.
            // A count window needs the time only if a rule trips: evaluate reads it then.
            evaluate(p, timeWindow ? now : (endKnown ? end : NO_READING));
        }
    }

    /** −1, never below 0. */
    private static void decay(AtomicInteger counter) {
        int v;
        do {
            v = counter.get();
        } while (v > 0 && !counter.compareAndSet(v, v - 1));
    }

    private void ignored(long startNanos, boolean startKnown) {
        CallCounters c = counters;
        if (c != null) {
            c.ignored.increment();
        }
        Phase p = phase.get();
        if (p.state != CircuitState.HALF_OPEN) {
            return;
        }
        // A permit acquired in an earlier era (admitted while CLOSED, or a probe of an abandoned round)
        // must not free one of this round's probes. A plain onIgnored() carries no reading and is taken
        // to belong to the current round; pipelines use onIgnoredAt.
        // A permit granted on NO_READING was never a probe (HALF_OPEN refuses such an acquire).
        if (startKnown) {
            long era = p.eraStartNanos;
            if (startNanos == NO_READING || era == Phase.UNSET || startNanos - era <= 0) {
                return;
            }
        }
        probes(p).release();
    }

    private void complete(Phase p, boolean failed, long latencyNanos, long end, boolean endKnown) {
        boolean slow = latencyNanos > slowNanos;
        CallCounters c = counters;
        if (c != null) {
            c.count(failed, slow);
        }
        switch (p.state) {
            case CLOSED:
            case METRICS_ONLY: {
                // A count window needs the time only if a rule trips (read there); a time window buckets by it.
                long now = endKnown ? end : (timeWindow ? ticker.read() : NO_READING);
                boolean check = p.window.record(SlidingWindow.outcome(failed, slow), now);
                if (countersTripped(p, failed, now)) {
                    return;
                }
                if (check) {
                    evaluate(p, now);
                }
                return;
            }
            case HALF_OPEN: {
                if (latencyNanos == NO_READING) {
                    return; // not measured: the call was admitted while the breaker needed no time, so not a probe
                }
                long now = endKnown ? end : ticker.read();
                long era = p.eraStartNanos;
                if (era == Phase.UNSET || now - latencyNanos - era <= 0) {
                    return; // admitted in an earlier era: not a probe of this round
                }
                long s = probes(p).record(failed, slow);
                if (s >= 0) {
                    decideHalfOpen(p, s, now);
                }
                return;
            }
            default:
                // OPEN, FORCED_OPEN, DISABLED: nothing is recorded.
        }
    }

    /** The consecutive-failures and decaying-failures rules; true if one of them opened the breaker. */
    private boolean countersTripped(Phase p, boolean failed, long now) {
        AtomicInteger inARow = p.consecutiveFailures;
        if (inARow != null) {
            if (!failed) {
                inARow.set(0);
                clearReported(p, CONSECUTIVE_BIT); // the run ended
            } else {
                int n = inARow.incrementAndGet();
                if (n >= consecutiveFailureThreshold && tripped(p, now == NO_READING ? ticker.read() : now,
                        Rule.CONSECUTIVE_FAILURES, n, consecutiveFailureThreshold, CONSECUTIVE_BIT)) {
                    return true;
                }
            }
        }
        AtomicInteger decaying = p.decayingFailures;
        if (decaying != null) {
            if (!failed) {
                decay(decaying);
                if (decaying.get() < decayingFailureThreshold) {
                    clearReported(p, DECAYING_BIT);
                }
            } else {
                int level = decaying.incrementAndGet();
                if (level >= decayingFailureThreshold && tripped(p, now == NO_READING ? ticker.read() : now,
                        Rule.DECAYING_FAILURES, level, decayingFailureThreshold, DECAYING_BIT)) {
                    return true;
                }
            }
        }
        return false;
    }

    private void clearReported(Phase p, int bit) {
        if (p.state == CircuitState.METRICS_ONLY && (transitions.crossingsReported.get() & bit) != 0) {
            transitions.crossingsReported.getAndUpdate(r -> r & ~bit);
        }
    }

    /** Checks the window rules; {@code now} may be {@link Gate#NO_READING} for a count window (read if needed). */
    private void evaluate(Phase p, long nowOrNone) {
        long totals = p.window.totals(nowOrNone);
        if (rules.minimumReached(totals)) {
            p.window.minimumSeen(nowOrNone);
        }
        int breaches = rules.breaches(totals);
        if (breaches == 0 && p.state != CircuitState.METRICS_ONLY) {
            return;
        }
        long now = nowOrNone == NO_READING ? ticker.read() : nowOrNone;
        if (p.state == CircuitState.METRICS_ONLY) {
            reportCrossings(p, now, totals, breaches);
            return;
        }
        if (breaches == 0) {
            return;
        }
        long calls = SlidingWindow.calls(totals);
        if ((breaches & TripRules.FAILURE_RATE) != 0) {
            tripped(p, now, Rule.FAILURE_RATE, TripRules.rate(SlidingWindow.failures(totals), calls),
                    failureRateThreshold, 0);
        } else if ((breaches & TripRules.SLOW_CALL_RATE) != 0) {
            tripped(p, now, Rule.SLOW_CALL_RATE, TripRules.rate(SlidingWindow.slowCalls(totals), calls),
                    slowCallRateThreshold, 0);
        } else {
            tripped(p, now, Rule.FAILURE_COUNT, SlidingWindow.failures(totals), failureCountThreshold, 0);
        }
    }

    /**
     * METRICS_ONLY: reports each window rule once per crossing; a rule whose value went back under its
     * threshold may be reported again when it next crosses.
     */
    private void reportCrossings(Phase p, long now, long totals, int breaches) {
        int windowBits = TripRules.FAILURE_RATE | TripRules.SLOW_CALL_RATE | TripRules.FAILURE_COUNT;
        AtomicInteger reportedRef = transitions.crossingsReported;
        while (true) {
            int reported = reportedRef.get();
            int next = (reported & ~windowBits) | breaches;
            if (next != reported && !reportedRef.compareAndSet(reported, next)) {
                continue;
            }
            int fresh = breaches & ~reported;
            if (fresh != 0 && !listeners.isEmpty()) {
                long calls = SlidingWindow.calls(totals);
                if ((fresh & TripRules.FAILURE_RATE) != 0) {
                    listeners.publish(new ThresholdExceeded(name, now, Rule.FAILURE_RATE,
                            TripRules.rate(SlidingWindow.failures(totals), calls), failureRateThreshold, calls));
                }
                if ((fresh & TripRules.SLOW_CALL_RATE) != 0) {
                    listeners.publish(new ThresholdExceeded(name, now, Rule.SLOW_CALL_RATE,
                            TripRules.rate(SlidingWindow.slowCalls(totals), calls), slowCallRateThreshold, calls));
                }
                if ((fresh & TripRules.FAILURE_COUNT) != 0) {
                    listeners.publish(new ThresholdExceeded(name, now, Rule.FAILURE_COUNT,
                            SlidingWindow.failures(totals), failureCountThreshold, calls));
                }
            }
            return;
        }
    }

    /**
     * A trip rule fired: open the breaker from CLOSED, or, in METRICS_ONLY, report the crossing of a
     * counter rule once ({@code bit}).
     *
     * @return true if the breaker opened (by this thread or another)
     */
    private boolean tripped(Phase p, long now, Rule rule, double value, double threshold, int bit) {
        long calls = SlidingWindow.calls(p.window.totals(now));
        if (p.state == CircuitState.METRICS_ONLY) {
            AtomicInteger reportedRef = transitions.crossingsReported;
            int reported = reportedRef.get();
            if ((reported & bit) == 0 && reportedRef.compareAndSet(reported, reported | bit) && !listeners.isEmpty()) {
                listeners.publish(new ThresholdExceeded(name, now, rule, value, threshold, calls));
            }
            return false;
        }
        TransitionReason reason = new TransitionReason(describe(rule, value, threshold, calls), rule, value,
                threshold, calls);
        transitions.transition(p, transitions.openPhase(now, 1, p.window), now, reason);
        return true;
    }

    private String describe(Rule rule, double value, double threshold, long calls) {
        String window = timeWindow
                ? "TIME_BASED window of " + config.slidingWindowSize() + " s"
                : "COUNT_BASED window of " + config.slidingWindowSize() + " calls";
        switch (rule) {
            case CONSECUTIVE_FAILURES:
                return String.format(Locale.ROOT, "%d failures in a row >= %d (%s holds %d calls)",
                        (long) value, (long) threshold, window, calls);
            case FAILURE_COUNT:
                return String.format(Locale.ROOT, "%d failures in the window >= %d (%s holds %d calls)",
                        (long) value, (long) threshold, window, calls);
            case DECAYING_FAILURES:
                return String.format(Locale.ROOT, "decaying failure count %d >= %d (%s holds %d calls)",
                        (long) value, (long) threshold, window, calls);
            default:
                return String.format(Locale.ROOT, "%s %.1f%% >= %.1f%% over %d calls (%s)",
                        rule == Rule.FAILURE_RATE ? "failure rate" : "slow-call rate", value * 100, threshold * 100,
                        calls, window);
        }
    }

    private void decideHalfOpen(Phase p, long s, long now) {
        int completed = HalfOpenProbes.completed(s);
        int failures = HalfOpenProbes.failures(s);
        int slow = HalfOpenProbes.slow(s);
        if (successThresholdInHalfOpen > 0) {
            int good = HalfOpenProbes.good(s);
            if (good >= successThresholdInHalfOpen) {
                closeFromHalfOpen(p, now, good + " of " + completed + " probes succeeded (needed "
                        + successThresholdInHalfOpen + ")");
            } else if (good + (permittedInHalfOpen - completed) < successThresholdInHalfOpen) {
                reopen(p, now, "only " + good + " of " + completed + " probes succeeded; "
                        + successThresholdInHalfOpen + " of " + permittedInHalfOpen + " can no longer succeed");
            }
            return;
        }
        // Rates over all permitted probes: once failures alone reach the threshold share of the round,
        // the round's rate cannot end below it, so reopen at once.
        int breach = rules.probeBreach(failures, slow, permittedInHalfOpen);
        if (breach == TripRules.FAILURE_RATE) {
            reopen(p, now, String.format(Locale.ROOT, "%d of %d probes failed (failure rate threshold %.1f%%)",
                    failures, permittedInHalfOpen, failureRateThreshold * 100));
        } else if (breach == TripRules.SLOW_CALL_RATE) {
            reopen(p, now, String.format(Locale.ROOT, "%d of %d probes were slow (slow-call rate threshold %.1f%%)",
                    slow, permittedInHalfOpen, slowCallRateThreshold * 100));
        } else if (completed >= permittedInHalfOpen) {
            closeFromHalfOpen(p, now, String.format(Locale.ROOT, "%d probes back: %d failed, %d slow", completed,
                    failures, slow));
        }
    }

    private void reopen(Phase p, long now, String reason) {
        transitions.transition(p, transitions.openPhase(now, p.consecutiveOpens + 1, p.window), now,
                TransitionReason.because(reason));
    }

    private void closeFromHalfOpen(Phase p, long now, String reason) {
        transitions.transition(p, transitions.closedPhase(CircuitState.CLOSED, now), now,
                TransitionReason.because(reason));
    }


    private static HalfOpenProbes probes(Phase p) {
        HalfOpenProbes probes = p.probes;
        if (probes == null) {
            throw new IllegalStateException("a HALF_OPEN phase without probes");
        }
        return probes;
    }

    // ---------------------------------------------------------------- manual control

    /** Closes the breaker with an empty window (no-op if CLOSED). */
    public void transitionToClosed() {
        transitions.manual(CircuitState.CLOSED);
    }

    /** Opens the breaker for the wait of one more opening in a row (no-op if OPEN). */
    public void transitionToOpen() {
        transitions.manual(CircuitState.OPEN);
    }

    /**
     * Opens the breaker for {@code duration}, whatever its state (counting one more opening in a row);
     * then it probes as after any opening. For a dependency known to be down for a while (a maintenance
     * window, a {@code Retry-After} it sent).
     *
     * @param duration how long to stay OPEN, &gt; 0
     * @throws dev.levee.core.InvalidConfigException if the duration is null or not positive
     */
    public void transitionToOpenFor(Duration duration) {
        Validate.positive(Validate.describe(CircuitBreakerConfig.POLICY, name), "duration", duration);
        transitions.openFor(Nanos.ofCapped(duration), "manual transition, open for " + duration);
    }

    /**
     * Opens the breaker until {@code until} on the wall clock {@code clock} (converted once, now, to a
     * wait on the breaker's ticker), whatever its state. An instant in the past opens it for 1 ns.
     *
     * @param until when the breaker may probe again
     * @param clock the wall clock {@code until} is on (e.g. {@code Clock.systemUTC()})
     * @throws dev.levee.core.InvalidConfigException if an argument is null
     */
    public void transitionToOpenUntil(Instant until, InstantSource clock) {
        String policy = Validate.describe(CircuitBreakerConfig.POLICY, name);
        Validate.notNull(policy, "until", until);
        Validate.notNull(policy, "clock", clock);
        Duration wait = Duration.between(clock.instant(), until);
        transitions.openFor(wait.isNegative() || wait.isZero() ? 1L : Nanos.ofCapped(wait),
                "manual transition, open until " + until);
    }

    /** Starts a half-open round of probes (no-op if HALF_OPEN). */
    public void transitionToHalfOpen() {
        transitions.manual(CircuitState.HALF_OPEN);
    }

    /** Permits every call and records nothing until another transition (no-op if DISABLED). */
    public void transitionToDisabled() {
        transitions.manual(CircuitState.DISABLED);
    }

    /** Rejects every call until another transition (no-op if FORCED_OPEN). */
    public void transitionToForcedOpen() {
        transitions.manual(CircuitState.FORCED_OPEN);
    }

    /** Permits every call, records outcomes and reports threshold crossings, but never opens (no-op if METRICS_ONLY). */
    public void transitionToMetricsOnly() {
        transitions.manual(CircuitState.METRICS_ONLY);
    }

    /**
     * Back to the config's initial state (CLOSED by default) with an empty window, no openings in a row
     * and a zero not-permitted count, whatever the state.
     */
    public void reset() {
        transitions.reset();
        notPermitted.reset();
    }

    // ---------------------------------------------------------------- observability

    /**
     * Listens to every event of this breaker.
     *
     * @param listener runs synchronously on the thread that caused the event; must be fast
     * @return closing it unsubscribes
     */
    public Subscription onEvent(Consumer<? super CircuitBreakerEvent> listener) {
        return listeners.subscribe(listener);
    }

    /**
     * Listens to state transitions only.
     *
     * @param listener receives each transition
     * @return closing it unsubscribes
     */
    public Subscription onStateTransition(Consumer<? super StateTransitioned> listener) {
        Validate.notNull(Validate.describe(CircuitBreakerConfig.POLICY, name), "listener", listener);
        return listeners.subscribe(event -> {
            if (event instanceof StateTransitioned) {
                listener.accept((StateTransitioned) event);
            }
        });
    }

    /**
     * A snapshot of the window, the probes (in HALF_OPEN) and the counters. Allocates; for monitoring,
     * not for the call path.
     *
     * @return the snapshot
     */
    public CircuitBreakerMetrics metrics() {
        Phase p = phase.get();
        long now = ticker.read();
        long totals = p.window.totals(now);
        long calls = p.window instanceof TimeWindow ? ((TimeWindow) p.window).exactCalls(now) : SlidingWindow.calls(totals);
        long packedCalls = SlidingWindow.calls(totals);
        long failed = SlidingWindow.failures(totals);
        long slow = SlidingWindow.slowCalls(totals);
        double failureRate = TripRules.rate(Math.min(failed, packedCalls), packedCalls);
        double slowRate = TripRules.rate(Math.min(slow, packedCalls), packedCalls);
        if (calls != packedCalls && packedCalls > 0) {
            failed = Math.round(failed * (double) calls / packedCalls);
            slow = Math.round(slow * (double) calls / packedCalls);
        }
        HalfOpenProbes probes = p.probes;
        long s = probes == null ? 0L : probes.snapshot();
        return new CircuitBreakerMetrics(p.state, calls, failed, slow, failureRate, slowRate, notPermitted.sum(),
                config.minimumNumberOfCalls(), calls < config.minimumNumberOfCalls(),
                probes == null ? 0 : probes.permitted(), HalfOpenProbes.admitted(s), HalfOpenProbes.good(s),
                HalfOpenProbes.failures(s), HalfOpenProbes.slow(s));
    }

    /** @return calls refused since creation or the last reset */
    public long notPermittedCalls() {
        return notPermitted.sum();
    }

    /**
     * The cumulative call counters, created on first request (by the metrics binder); from then on every
     * recorded call also adds to a striped counter.
     */
    CallCounters callCounters() {
        CallCounters c = counters;
        if (c == null) {
            COUNTERS.compareAndSet(this, null, new CallCounters());
            c = counters;
        }
        return java.util.Objects.requireNonNull(c);
    }

    @Override
    public String toString() {
        return "CircuitBreaker[" + name + ", " + state() + "]";
    }
}

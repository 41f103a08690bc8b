package dev.levee.circuitbreaker;

import dev.levee.circuitbreaker.CircuitBreakerEvent.CallNotPermitted;
import dev.levee.circuitbreaker.CircuitBreakerEvent.Rule;
import dev.levee.circuitbreaker.CircuitBreakerEvent.StateTransition;
import dev.levee.circuitbreaker.CircuitBreakerEvent.ThresholdExceeded;
import dev.levee.circuitbreaker.internal.CallCounters;
import dev.levee.circuitbreaker.internal.CountWindow;
import dev.levee.circuitbreaker.internal.HalfOpenProbes;
import dev.levee.circuitbreaker.internal.Phase;
import dev.levee.circuitbreaker.internal.SlidingWindow;
import dev.levee.circuitbreaker.internal.TimeWindow;
import dev.levee.core.CircuitOpenException;
import dev.levee.core.Classifier;
import dev.levee.core.EventListeners;
import dev.levee.core.Gate;
import dev.levee.core.Outcome;
import dev.levee.core.PolicyRegistry;
import dev.levee.core.RejectedException;
import dev.levee.core.Subscription;
import dev.levee.core.Ticker;
import dev.levee.core.Validate;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A sliding-window circuit breaker: turns calls to a sick dependency into instant
 * {@link CircuitOpenException}s, so they stop eating threads, and lets a few probes find out when it
 * has recovered. Create one per dependency ({@link #registry(CircuitBreakerConfig)}).
 *
 * <p><b>Model</b> (see {@link CircuitState} for the diagram). CLOSED records each call's outcome in a
 * sliding window (the last N calls, or the last N seconds). After a failure or a slow call it checks
 * the rules: once the window holds at least {@code minimumNumberOfCalls}, a failure rate
 * {@code 100 × failed / calls >= failureRateThreshold} or a slow-call rate
 * {@code 100 × slow / calls >= slowCallRateThreshold} opens it; so do {@code consecutiveFailureThreshold}
 * failures in a row, when that rule is on. A call is slow when it takes longer than
 * {@code slowCallDurationThreshold}, whether it succeeded or failed. OPEN rejects every call for
 * {@code wait(n) = min(maxWaitDurationInOpen, waitDurationInOpen × waitDurationMultiplier^(n − 1))}, where
 * {@code n} counts openings in a row without a successful close, with {@code retryAfter} = the time
 * left. The first call after that moves it to HALF_OPEN (lazily: no background thread unless
 * {@code automaticTransitionToHalfOpen}). HALF_OPEN admits exactly {@code permittedCallsInHalfOpen}
 * probes, however many threads race for them; it reopens as soon as the probes' failure (or slow) count
 * reaches the threshold share of all permitted probes, and closes, with an empty window, when all
 * probes are back under the thresholds (or, with {@code successThresholdInHalfOpen = k}, as soon as
 * {@code k} probes succeeded fast, reopening as soon as that became impossible).
 *
 * <p><b>Hung probes.</b> When every probe is out and the breaker has been HALF_OPEN for
 * {@code maxWaitInHalfOpen}, the next call starts a fresh round of probes (or reopens, per
 * {@link HalfOpenTimeoutAction}); the late answers of the abandoned round are ignored.
 *
 * <p><b>Which completions count.</b> The permit protocol carries no token, so the breaker tells eras
 * apart by time: a completion seen in HALF_OPEN whose start ({@code now − latency}) is earlier than
 * the round's era start (when the breaker opened, for a first round) came from a call admitted while
 * CLOSED, or from an abandoned round: it is ignored and frees no probe. A completion seen in OPEN,
 * FORCED_OPEN or DISABLED is not recorded. In CLOSED every completion is recorded into the current
 * window, including a straggler admitted before the last opening (checking would cost a clock reading
 * per success). A probe is never admitted with a start reading older than its round's era start.
 *
 * <p><b>Classification</b> by the config's {@link Classifier} (default
 * {@link CircuitBreakerConfig#defaultClassifier()}): an ignored outcome is not recorded and gives a
 * half-open probe back; {@link #onResult} consults the result predicate only when the classifier has one.
 *
 * <p><b>Cost.</b> {@code tryAcquire} in CLOSED is one volatile read. A fast success in CLOSED is at most
 * one atomic increment with a count window (none at all while the window holds only fast successes:
 * nothing would change) or one atomic add with a time window, plus one ticker reading unless the caller
 * passed the end reading ({@code onResultAt}, as pipelines and {@code execute} do); nothing is
 * allocated and no lock is taken. Failures and slow calls also check the thresholds. Events are built
 * only when someone listens; transitions allocate a new state record.
 *
 * <p>Thread-safe. Usable as a {@link Gate} without lambdas, in a {@link dev.levee.core.Pipeline}, or
 * through {@code execute}/{@code decorate}.
 */
@SuppressWarnings("NullAway") // NullAway debt (issue 11): annotate this class's nullable fields and parameters, then remove
public final class CircuitBreaker implements Gate {
    private static final Logger LOG = LoggerFactory.getLogger(CircuitBreaker.class);

    private final String name;
    private final CircuitBreakerConfig config;
    private final Ticker ticker;
    private final Classifier classifier;
    private final boolean classifiesResults;
    private final long slowNanos;
    private final int minimumCalls;
    private final double failureRateThreshold;
    private final double slowCallRateThreshold;
    private final int consecutiveFailureThreshold;
    private final int permittedInHalfOpen;
    private final int successThresholdInHalfOpen;
    private final long maxWaitInHalfOpenNanos;
    private final boolean timeWindow;

    private final String openMessage;
    private final String forcedOpenMessage;
    private final String halfOpenMessage;

    private final AtomicReference<Phase> phase;
    private final LongAdder notPermitted = new LongAdder();
    private final EventListeners<CircuitBreakerEvent> listeners = new EventListeners<>();
    /** METRICS_ONLY: whether the current crossing was already reported. */
    private final AtomicBoolean crossingReported = new AtomicBoolean();
    private volatile CallCounters counters;
    private static final VarHandle COUNTERS;

    static {
        try {
            COUNTERS = MethodHandles.lookup().findVarHandle(CircuitBreaker.class, "counters", CallCounters.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private CircuitBreaker(String name, CircuitBreakerConfig config) {
        this.name = Validate.name("CircuitBreaker", name);
        this.config = Objects.requireNonNull(config, "config");
        this.ticker = config.ticker();
        this.classifier = config.classifier();
        this.classifiesResults = classifier.classifiesResults();
        this.slowNanos = saturatedNanos(config.slowCallDurationThreshold());
        this.minimumCalls = config.minimumNumberOfCalls();
        this.failureRateThreshold = config.failureRateThreshold();
        this.slowCallRateThreshold = config.slowCallRateThreshold();
        this.consecutiveFailureThreshold = config.consecutiveFailureThreshold();
        this.permittedInHalfOpen = config.permittedCallsInHalfOpen();
        this.successThresholdInHalfOpen = config.successThresholdInHalfOpen();
        this.maxWaitInHalfOpenNanos = saturatedNanos(config.maxWaitInHalfOpen());
        this.timeWindow = config.slidingWindowType() == SlidingWindowType.TIME_BASED;
        this.openMessage = "CircuitBreaker '" + name + "' is OPEN";
        this.forcedOpenMessage = "CircuitBreaker '" + name + "' is FORCED_OPEN";
        this.halfOpenMessage = "CircuitBreaker '" + name + "' is HALF_OPEN with all " + permittedInHalfOpen + " probes out";
        this.phase = new AtomicReference<>(closedPhase(CircuitState.CLOSED, ticker.read()));
    }

    /**
     * Creates a breaker.
     *
     * @param name the breaker's name (one per dependency), used in rejections, events, logs and metrics
     * @param config the config
     * @return a new CLOSED breaker
     */
    public static CircuitBreaker of(String name, CircuitBreakerConfig config) {
        return new CircuitBreaker(name, config);
    }

    /**
     * Creates a breaker with {@link CircuitBreakerConfig#defaults()}.
     *
     * @param name the breaker's name
     * @return a new CLOSED breaker
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

    @Override
    public boolean tryAcquire(long nowNanos) {
        Phase p = phase.get();
        if (p.state == CircuitState.CLOSED) {
            return true;
        }
        return tryAcquireSlow(p, nowNanos);
    }

    private boolean tryAcquireSlow(Phase p, long now) {
        while (true) {
            switch (p.state) {
                case CLOSED:
                case DISABLED:
                case METRICS_ONLY:
                    return true;
                case OPEN:
                    if (now - p.openUntilNanos < 0) {
                        return refuse(p, now);
                    }
                    transition(p, halfOpenPhase(now, p.enteredAtNanos, p.consecutiveOpens, p.window), now,
                            "wait in open elapsed", null, 0, 0, 0);
                    break;
                case HALF_OPEN:
                    if (now - p.eraStartNanos < 0) {
                        return refuse(p, now);
                    }
                    if (p.probes.tryAdmit()) {
                        return true;
                    }
                    if (now - p.enteredAtNanos < maxWaitInHalfOpenNanos) {
                        return refuse(p, now);
                    }
                    if (config.halfOpenTimeoutAction() == HalfOpenTimeoutAction.REOPEN) {
                        transition(p, openPhase(now, p.consecutiveOpens + 1, p.window), now,
                                "half-open probes not back after " + config.maxWaitInHalfOpen(), null, 0, 0, 0);
                    } else {
                        transition(p, halfOpenPhase(now, now, p.consecutiveOpens, p.window), now,
                                "half-open probes not back after " + config.maxWaitInHalfOpen() + "; new round of probes",
                                null, 0, 0, 0);
                    }
                    break;
                case FORCED_OPEN:
                default:
                    return refuse(p, now);
            }
            p = phase.get();
        }
    }

    private boolean refuse(Phase p, long now) {
        notPermitted.increment();
        if (!listeners.isEmpty()) {
            listeners.publish(new CallNotPermitted(name, now, p.state));
        }
        return false;
    }

    /**
     * A {@link CircuitOpenException} whose {@code retryAfter} is the time left in OPEN (zero in
     * FORCED_OPEN and HALF_OPEN, where it is unknown).
     */
    @Override
    public RejectedException rejection(long nowNanos) {
        Phase p = phase.get();
        long retryAfter = p.state == CircuitState.OPEN ? Math.max(0L, p.openUntilNanos - nowNanos) : 0L;
        // Messages are built once: rejections come in floods.
        String message;
        switch (p.state) {
            case OPEN:
                message = openMessage;
                break;
            case FORCED_OPEN:
                message = forcedOpenMessage;
                break;
            case HALF_OPEN:
                message = halfOpenMessage;
                break;
            default:
                message = "CircuitBreaker '" + name + "' refused the call (now " + p.state + ")";
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
        returned(endNanos, true, latencyNanos, result);
    }

    @Override
    public void onFailureAt(long endNanos, long latencyNanos, Throwable error) {
        failed(endNanos, true, latencyNanos, error);
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
        if (classifier.classify(error) == Outcome.IGNORED) {
            ignored((endKnown ? end : ticker.read()) - latencyNanos, true);
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
            p.window.record(SlidingWindow.SUCCESS, timeWindow ? (endKnown ? end : ticker.read()) : 0L);
            AtomicInteger inARow = p.consecutiveFailures;
            if (inARow != null && inARow.get() != 0) {
                inARow.set(0);
            }
            return;
        }
        complete(p, false, latencyNanos, end, endKnown);
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
        // A permit acquired before the current round began (admitted while CLOSED, or a probe of an
        // abandoned round) must not free one of this round's probes. A plain onIgnored() carries no
        // reading and is taken to belong to the current round; pipelines use onIgnoredAt.
        if (startKnown && startNanos - p.eraStartNanos < 0) {
            return;
        }
        p.probes.release();
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
                long now = endKnown ? end : ticker.read();
                p.window.record(SlidingWindow.outcome(failed, slow), now);
                AtomicInteger inARow = p.consecutiveFailures;
                if (inARow != null) {
                    if (!failed) {
                        inARow.set(0);
                    } else {
                        int n = inARow.incrementAndGet();
                        if (n >= consecutiveFailureThreshold) {
                            tripped(p, now, Rule.CONSECUTIVE_FAILURES, n, consecutiveFailureThreshold);
                            return;
                        }
                    }
                }
                if (failed || slow) {
                    evaluate(p, now);
                }
                return;
            }
            case HALF_OPEN: {
                long now = endKnown ? end : ticker.read();
                if (now - latencyNanos - p.eraStartNanos < 0) {
                    return; // admitted in an earlier era: not a probe of this round
                }
                long s = p.probes.record(failed, slow);
                if (s >= 0) {
                    decideHalfOpen(p, s, now);
                }
                return;
            }
            default:
                // OPEN, FORCED_OPEN, DISABLED: nothing is recorded.
        }
    }

    private void evaluate(Phase p, long now) {
        int breaches = p.window.breaches(now, minimumCalls, failureRateThreshold, slowCallRateThreshold);
        if (breaches == 0) {
            if (p.state == CircuitState.METRICS_ONLY && crossingReported.get()) {
                crossingReported.set(false);
            }
            return;
        }
        long totals = p.window.totals(now);
        long calls = SlidingWindow.calls(totals);
        if ((breaches & SlidingWindow.FAILURE_RATE) != 0) {
            tripped(p, now, Rule.FAILURE_RATE, percent(SlidingWindow.failures(totals), calls), failureRateThreshold);
        } else {
            tripped(p, now, Rule.SLOW_CALL_RATE, percent(SlidingWindow.slowCalls(totals), calls), slowCallRateThreshold);
        }
    }

    /** A trip rule fired: open the breaker from CLOSED, or report the crossing in METRICS_ONLY. */
    private void tripped(Phase p, long now, Rule rule, double value, double threshold) {
        long calls = SlidingWindow.calls(p.window.totals(now));
        if (p.state == CircuitState.METRICS_ONLY) {
            if (!crossingReported.get() && crossingReported.compareAndSet(false, true) && !listeners.isEmpty()) {
                listeners.publish(new ThresholdExceeded(name, now, rule, value, threshold, calls));
            }
            return;
        }
        String reason = describe(rule, value, threshold, calls);
        transition(p, openPhase(now, 1, p.window), now, reason, rule, value, threshold, calls);
    }

    private String describe(Rule rule, double value, double threshold, long calls) {
        String window = timeWindow
                ? "TIME_BASED window of " + config.slidingWindowSize() + " s"
                : "COUNT_BASED window of " + config.slidingWindowSize() + " calls";
        if (rule == Rule.CONSECUTIVE_FAILURES) {
            return String.format(Locale.ROOT, "%d failures in a row >= %d (%s holds %d calls)",
                    (long) value, (long) threshold, window, calls);
        }
        return String.format(Locale.ROOT, "%s %.1f%% >= %.1f%% over %d calls (%s)",
                rule == Rule.FAILURE_RATE ? "failure rate" : "slow-call rate", value, threshold, calls, window);
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
        if (failures * 100.0 >= failureRateThreshold * permittedInHalfOpen) {
            reopen(p, now, String.format(Locale.ROOT, "%d of %d probes failed (failure rate threshold %.1f%%)",
                    failures, permittedInHalfOpen, failureRateThreshold));
        } else if (slow * 100.0 >= slowCallRateThreshold * permittedInHalfOpen) {
            reopen(p, now, String.format(Locale.ROOT, "%d of %d probes were slow (slow-call rate threshold %.1f%%)",
                    slow, permittedInHalfOpen, slowCallRateThreshold));
        } else if (completed >= permittedInHalfOpen) {
            closeFromHalfOpen(p, now, String.format(Locale.ROOT, "%d probes back: %d failed, %d slow", completed,
                    failures, slow));
        }
    }

    private void reopen(Phase p, long now, String reason) {
        transition(p, openPhase(now, p.consecutiveOpens + 1, p.window), now, reason, null, 0, 0, 0);
    }

    private void closeFromHalfOpen(Phase p, long now, String reason) {
        transition(p, closedPhase(CircuitState.CLOSED, now), now, reason, null, 0, 0, 0);
    }

    // ---------------------------------------------------------------- phases and transitions

    private Phase closedPhase(CircuitState state, long now) {
        SlidingWindow window = timeWindow
                ? new TimeWindow(config.slidingWindowSize() * 1_000_000_000L, config.timeWindowBuckets())
                : new CountWindow(config.slidingWindowSize());
        AtomicInteger inARow = consecutiveFailureThreshold > 0 ? new AtomicInteger() : null;
        return new Phase(state, now, 0L, now, 0, window, null, inARow);
    }

    private Phase openPhase(long now, int consecutiveOpens, SlidingWindow window) {
        long wait = config.waitInOpenNanos(consecutiveOpens);
        return new Phase(CircuitState.OPEN, now, now + wait, now, consecutiveOpens, window, null, null);
    }

    private Phase halfOpenPhase(long now, long eraStart, int consecutiveOpens, SlidingWindow window) {
        return new Phase(CircuitState.HALF_OPEN, now, 0L, eraStart, consecutiveOpens, window,
                new HalfOpenProbes(permittedInHalfOpen), null);
    }

    private Phase manualPhase(CircuitState state, long now, Phase from) {
        return new Phase(state, now, 0L, now, from.consecutiveOpens, from.window, null, null);
    }

    /**
     * Replaces {@code from} by {@code to} if {@code from} is still current; the one thread that succeeds
     * publishes the events, logs, and schedules the automatic transition.
     */
    private boolean transition(Phase from, Phase to, long now, String reason, Rule rule, double value, double threshold,
            long calls) {
        if (!phase.compareAndSet(from, to)) {
            return false;
        }
        crossingReported.set(false);
        if (!listeners.isEmpty()) {
            if (rule != null) {
                listeners.publish(new ThresholdExceeded(name, now, rule, value, threshold, calls));
            }
            listeners.publish(new StateTransition(name, now, from.state, to.state, reason));
        }
        if (to.state == CircuitState.OPEN) {
            long waitNanos = to.openUntilNanos - now;
            if (LOG.isWarnEnabled()) {
                long windowTotals = from.window.totals(now);
                long windowCalls = SlidingWindow.calls(windowTotals);
                LOG.warn("Circuit breaker '{}' {} -> OPEN: {}; closed-state window: {} calls, failure rate {}%,"
                                + " slow-call rate {}% ({} window of {}); open for {} ms (opening {} in a row)",
                        name, from.state, reason, windowCalls,
                        String.format(Locale.ROOT, "%.1f", percent(SlidingWindow.failures(windowTotals), windowCalls)),
                        String.format(Locale.ROOT, "%.1f", percent(SlidingWindow.slowCalls(windowTotals), windowCalls)),
                        config.slidingWindowType(), config.slidingWindowSize(), waitNanos / 1_000_000L,
                        to.consecutiveOpens);
            }
            if (config.automaticTransitionToHalfOpen()) {
                config.scheduler().schedule(() -> {
                    Phase current = phase.get();
                    if (current == to) {
                        long t = ticker.read();
                        transition(current, halfOpenPhase(t, to.enteredAtNanos, to.consecutiveOpens, to.window), t,
                                "wait in open elapsed (scheduled)", null, 0, 0, 0);
                    }
                }, waitNanos);
            }
        } else if (LOG.isInfoEnabled()) {
            LOG.info("Circuit breaker '{}' {} -> {}: {}", name, from.state, to.state, reason);
        }
        return true;
    }

    /** A duration in nanoseconds, clamped so that adding it to a ticker reading cannot wrap in practice. */
    private static long saturatedNanos(java.time.Duration d) {
        return d.compareTo(java.time.Duration.ofNanos(Long.MAX_VALUE / 4)) >= 0 ? Long.MAX_VALUE / 4 : d.toNanos();
    }

    private static double percent(long part, long whole) {
        return whole == 0 ? 0.0 : part * 100.0 / whole;
    }

    // ---------------------------------------------------------------- manual control

    /** Closes the breaker with an empty window (no-op if CLOSED). */
    public void transitionToClosed() {
        manual(CircuitState.CLOSED);
    }

    /** Opens the breaker for the wait of one more opening in a row (no-op if OPEN). */
    public void transitionToOpen() {
        manual(CircuitState.OPEN);
    }

    /** Starts a half-open round of probes (no-op if HALF_OPEN). */
    public void transitionToHalfOpen() {
        manual(CircuitState.HALF_OPEN);
    }

    /** Permits every call and records nothing until another transition (no-op if DISABLED). */
    public void transitionToDisabled() {
        manual(CircuitState.DISABLED);
    }

    /** Rejects every call until another transition (no-op if FORCED_OPEN). */
    public void transitionToForcedOpen() {
        manual(CircuitState.FORCED_OPEN);
    }

    /** Permits every call, records outcomes and reports threshold crossings, but never opens (no-op if METRICS_ONLY). */
    public void transitionToMetricsOnly() {
        manual(CircuitState.METRICS_ONLY);
    }

    /**
     * Back to CLOSED with an empty window, no openings in a row and a zero not-permitted count, whatever
     * the state.
     */
    public void reset() {
        long now = ticker.read();
        Phase from;
        Phase to;
        do {
            from = phase.get();
            to = closedPhase(CircuitState.CLOSED, now);
        } while (!transition(from, to, now, "reset", null, 0, 0, 0));
        notPermitted.reset();
    }

    private void manual(CircuitState target) {
        while (true) {
            Phase from = phase.get();
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
                    to = halfOpenPhase(now, from.state == CircuitState.OPEN ? from.enteredAtNanos : now,
                            from.consecutiveOpens, from.window);
                    break;
                default:
                    to = manualPhase(target, now, from);
            }
            if (transition(from, to, now, "manual transition", null, 0, 0, 0)) {
                return;
            }
        }
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
    public Subscription onStateTransition(Consumer<? super StateTransition> listener) {
        Objects.requireNonNull(listener, "listener");
        return listeners.subscribe(event -> {
            if (event instanceof StateTransition) {
                listener.accept((StateTransition) event);
            }
        });
    }

    /**
     * A snapshot of the window and counters. Allocates; for monitoring, not for the call path.
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
        double failureRate = percent(Math.min(failed, packedCalls), packedCalls);
        double slowRate = percent(Math.min(slow, packedCalls), packedCalls);
        if (calls != packedCalls && packedCalls > 0) {
            failed = Math.round(failed * (double) calls / packedCalls);
            slow = Math.round(slow * (double) calls / packedCalls);
        }
        return new CircuitBreakerMetrics(p.state, calls, failed, slow, failureRate, slowRate, notPermitted.sum());
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
        return c;
    }

    @Override
    public String toString() {
        return "CircuitBreaker[" + name + ", " + state() + "]";
    }
}

package dev.levee.circuitbreaker;

import dev.levee.core.Classifier;
import dev.levee.core.DeadlineExceededException;
import dev.levee.core.RejectedException;
import dev.levee.core.Scheduler;
import dev.levee.core.Ticker;
import dev.levee.core.internal.Validate;
import java.time.Duration;
import dev.levee.core.InvalidConfigException;
import java.util.function.IntFunction;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;
import dev.levee.core.internal.Nanos;

/**
 * The immutable, nameless configuration of a {@link CircuitBreaker}, built by {@link #builder()}; one
 * config may serve many breakers ({@code CircuitBreaker.of(name, config)},
 * {@link CircuitBreaker#registry(CircuitBreakerConfig)}).
 *
 * <p><b>Defaults.</b> Where a seed of the project gives a number it is the default (seed 003: open wait
 * 30 s, slow calls over 2 s tripping at 80 %; seeds 000/002/003: 3 half-open probes; seed 000: a full
 * half-open breaker answers {@code retryAfter} 1 s, a 50 % failure rate). The window follows published
 * practice (resilience4j, Hystrix, seed 001's "over 20+ requests"): the last 100 calls, at least 20 of
 * them before a rate may trip. Every rate is a fraction in [0, 1]: {@code 0.5} is 50 %.
 * {@code docs/circuitbreaker.md} has the "seed default — Levee default — why" table.
 *
 * <table>
 *   <caption>Knobs, defaults and bounds</caption>
 *   <tr><th>knob</th><th>default</th><th>bound</th></tr>
 *   <tr><td>slidingWindowType</td><td>COUNT_BASED</td><td>not null</td></tr>
 *   <tr><td>slidingWindowSize</td>
 *       <td>{@value #DEFAULT_SLIDING_WINDOW_SIZE} (calls, or seconds when TIME_BASED)</td>
 *       <td>[1, 1 000 000] calls; [1, 86 400] s</td></tr>
 *   <tr><td>timeWindowBuckets</td><td>{@value #DEFAULT_TIME_WINDOW_BUCKETS}</td><td>[1, 1000], bucket at least 1 ms</td></tr>
 *   <tr><td>minimumNumberOfCalls</td>
 *       <td>{@value #DEFAULT_MINIMUM_NUMBER_OF_CALLS}</td>
 *       <td>[1, 1 000 000]; at most slidingWindowSize when COUNT_BASED</td></tr>
 *   <tr><td>failureRateThreshold</td><td>{@value #DEFAULT_FAILURE_RATE_THRESHOLD} (50 %)</td><td>(0, 1]</td></tr>
 *   <tr><td>slowCallRateThreshold</td><td>{@value #DEFAULT_SLOW_CALL_RATE_THRESHOLD} (80 %, seed 003)</td><td>(0, 1]</td></tr>
 *   <tr><td>slowCallDurationThreshold</td><td>2 s (seed 003); {@link #NO_SLOW_CALLS} (rule off,
 *       {@code noSlowCallRule()}) lets a CLOSED count window read no clock</td><td>&gt; 0</td></tr>
 *   <tr><td>consecutiveFailureThreshold</td><td>0 (off)</td><td>[0, 1 000 000]</td></tr>
 *   <tr><td>failureCountThreshold</td><td>0 (off)</td><td>[0, 1 000 000]</td></tr>
 *   <tr><td>decayingFailureThreshold</td><td>0 (off)</td><td>[0, 1 000 000]</td></tr>
 *   <tr><td>waitDurationInOpen</td><td>30 s (seeds 000, 002, 003)</td><td>&gt; 0</td></tr>
 *   <tr><td>waitDurationMultiplier</td><td>1.0 (fixed wait)</td><td>[1, 100]</td></tr>
 *   <tr><td>maxWaitDurationInOpen</td><td>30 min, or waitDurationInOpen if longer</td><td>&gt;= waitDurationInOpen</td></tr>
 *   <tr><td>permittedCallsInHalfOpen</td><td>{@value #DEFAULT_PERMITTED_CALLS_IN_HALF_OPEN} (seeds 000, 002)</td><td>[1, 1000]</td></tr>
 *   <tr><td>successThresholdInHalfOpen</td><td>0 (decide by rates)</td><td>[0, permittedCallsInHalfOpen]</td></tr>
 *   <tr><td>halfOpenRetryAfter</td><td>1 s (seed 000)</td><td>&gt;= 0</td></tr>
 *   <tr><td>maxWaitInHalfOpen</td><td>60 s</td><td>&gt; 0</td></tr>
 *   <tr><td>halfOpenTimeoutAction</td><td>ADMIT_NEW_PROBES</td><td>not null</td></tr>
 *   <tr><td>initialState</td><td>CLOSED</td><td>CLOSED, OPEN, DISABLED, FORCED_OPEN or METRICS_ONLY</td></tr>
 *   <tr><td>automaticTransitionToHalfOpen</td><td>false (lazy)</td><td>-</td></tr>
 *   <tr><td>classifier</td><td>{@link #defaultClassifier()}</td><td>not null</td></tr>
 *   <tr><td>recordAsSuccess</td><td>none</td><td>-</td></tr>
 *   <tr><td>ticker / scheduler</td><td>{@link Ticker#system()} / {@link Scheduler#system()}</td><td>not null</td></tr>
 * </table>
 */
public final class CircuitBreakerConfig {
    /** The policy named in config errors (a config has no name of its own). */
    static final String POLICY = "CircuitBreaker";
    private static final Classifier DEFAULT_CLASSIFIER = Classifier.builder()
            .failOn(DeadlineExceededException.class)
            .ignore(RejectedException.class)
            .build();

    /** Default window: the last 100 calls. */
    public static final int DEFAULT_SLIDING_WINDOW_SIZE = 100;
    /** Default buckets of a time window. */
    public static final int DEFAULT_TIME_WINDOW_BUCKETS = 10;
    /** Default calls the window must hold before a rate may trip the breaker (seed 001: "20+ requests"). */
    public static final int DEFAULT_MINIMUM_NUMBER_OF_CALLS = 20;
    /** Default failure-rate threshold, a fraction: 50 % (seed 000). */
    public static final double DEFAULT_FAILURE_RATE_THRESHOLD = 0.5;
    /** Default slow-call-rate threshold, a fraction: 80 % (seed 003). */
    public static final double DEFAULT_SLOW_CALL_RATE_THRESHOLD = 0.8;
    /** Default duration over which a call is slow: 2 s (seed 003). */
    public static final Duration DEFAULT_SLOW_CALL_DURATION_THRESHOLD = Duration.ofSeconds(2);
    /**
     * The {@code slowCallDurationThreshold} that switches the slow-call rule off
     * ({@link Builder#noSlowCallRule()}): {@code Long.MAX_VALUE} nanoseconds, about 292 years.
     */
    public static final Duration NO_SLOW_CALLS = Duration.ofNanos(Long.MAX_VALUE);
    /** Default wait in OPEN: 30 s (seeds 000, 002, 003). */
    public static final Duration DEFAULT_WAIT_DURATION_IN_OPEN = Duration.ofSeconds(30);
    /** Default cap of the wait in OPEN when it backs off: 30 min (or the wait itself if longer). */
    public static final Duration DEFAULT_MAX_WAIT_DURATION_IN_OPEN = Duration.ofMinutes(30);
    /** Default probes admitted in HALF_OPEN: 3 (seeds 000, 002). */
    public static final int DEFAULT_PERMITTED_CALLS_IN_HALF_OPEN = 3;
    /** Default {@code retryAfter} of a refusal by a HALF_OPEN breaker with every probe out: 1 s (seed 000). */
    public static final Duration DEFAULT_HALF_OPEN_RETRY_AFTER = Duration.ofSeconds(1);
    /** Default time HALF_OPEN waits for its last probes. */
    public static final Duration DEFAULT_MAX_WAIT_IN_HALF_OPEN = Duration.ofSeconds(60);
    /** Default state of a new breaker. */
    public static final CircuitState DEFAULT_INITIAL_STATE = CircuitState.CLOSED;

    private static final CircuitBreakerConfig DEFAULTS = builder().build();

    /** Largest count window: the packed window totals hold 21 bits per field. */
    public static final int MAX_COUNT_WINDOW = 1_000_000;
    /** Largest time window in seconds (one day). */
    public static final int MAX_TIME_WINDOW_SECONDS = 86_400;
    /** Largest number of half-open probes: the packed probe counters hold 12 bits per field. */
    public static final int MAX_PERMITTED_IN_HALF_OPEN = 1000;

    private final SlidingWindowType slidingWindowType;
    private final int slidingWindowSize;
    private final int timeWindowBuckets;
    private final int minimumNumberOfCalls;
    private final double failureRateThreshold;
    private final double slowCallRateThreshold;
    private final Duration slowCallDurationThreshold;
    private final int consecutiveFailureThreshold;
    private final int failureCountThreshold;
    private final int decayingFailureThreshold;
    private final Duration halfOpenRetryAfter;
    private final CircuitState initialState;
    private final @Nullable Predicate<? super Throwable> recordAsSuccess;
    private final Duration waitDurationInOpen;
    private final double waitDurationMultiplier;
    private final Duration maxWaitDurationInOpen;
    /** The cap as the user set it, or null when it follows the default; kept so toBuilder() keeps following it. */
    private final @Nullable Duration maxWaitDurationInOpenSet;
    private final @Nullable IntFunction<Duration> waitDurationFunction;
    private final int permittedCallsInHalfOpen;
    private final int successThresholdInHalfOpen;
    private final Duration maxWaitInHalfOpen;
    private final HalfOpenTimeoutAction halfOpenTimeoutAction;
    private final boolean automaticTransitionToHalfOpen;
    private final Classifier classifier;
    private final Ticker ticker;
    private final Scheduler scheduler;

    private CircuitBreakerConfig(Builder b) {
        this.slidingWindowType = b.slidingWindowType;
        this.slidingWindowSize = b.slidingWindowSize;
        this.timeWindowBuckets = b.timeWindowBuckets;
        this.minimumNumberOfCalls = b.minimumNumberOfCalls;
        this.failureRateThreshold = b.failureRateThreshold;
        this.slowCallRateThreshold = b.slowCallRateThreshold;
        this.slowCallDurationThreshold = b.slowCallDurationThreshold;
        this.consecutiveFailureThreshold = b.consecutiveFailureThreshold;
        this.failureCountThreshold = b.failureCountThreshold;
        this.decayingFailureThreshold = b.decayingFailureThreshold;
        this.halfOpenRetryAfter = b.halfOpenRetryAfter;
        this.initialState = b.initialState;
        this.recordAsSuccess = b.recordAsSuccess;
        this.waitDurationInOpen = b.waitDurationInOpen;
        this.waitDurationMultiplier = b.waitDurationMultiplier;
        this.maxWaitDurationInOpenSet = b.maxWaitDurationInOpen;
        this.maxWaitDurationInOpen = b.maxWaitDurationInOpen != null ? b.maxWaitDurationInOpen
                : max(DEFAULT_MAX_WAIT_DURATION_IN_OPEN, b.waitDurationInOpen);
        this.waitDurationFunction = b.waitDurationFunction;
        this.permittedCallsInHalfOpen = b.permittedCallsInHalfOpen;
        this.successThresholdInHalfOpen = b.successThresholdInHalfOpen;
        this.maxWaitInHalfOpen = b.maxWaitInHalfOpen;
        this.halfOpenTimeoutAction = b.halfOpenTimeoutAction;
        this.automaticTransitionToHalfOpen = b.automaticTransitionToHalfOpen;
        this.classifier = b.classifier;
        this.ticker = b.ticker;
        this.scheduler = b.scheduler;
    }

    /**
     * The default configuration (see the class documentation).
     *
     * @return the shared default config
     */
    public static CircuitBreakerConfig defaults() {
        return DEFAULTS;
    }

    /**
     * Starts a config from the defaults.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The breaker's default classification: a {@link DeadlineExceededException} (a timeout gave up on the
     * dependency) is a failure; every other {@link RejectedException} (a local bulkhead or limiter
     * refused, so the dependency was never asked) is ignored; an {@link Error} is ignored (core default);
     * every other exception is a failure. To extend it, start from {@code defaultClassifier().toBuilder()}.
     *
     * @return the default classifier
     */
    public static Classifier defaultClassifier() {
        return DEFAULT_CLASSIFIER;
    }

    /**
     * A builder holding this config's values.
     *
     * @return a new builder
     */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** @return the window type */
    public SlidingWindowType slidingWindowType() {
        return slidingWindowType;
    }

    /** @return calls (COUNT_BASED) or seconds (TIME_BASED) */
    public int slidingWindowSize() {
        return slidingWindowSize;
    }

    /** @return the number of buckets of a time window */
    public int timeWindowBuckets() {
        return timeWindowBuckets;
    }

    /** @return calls the window must hold before rates can trip the breaker */
    public int minimumNumberOfCalls() {
        return minimumNumberOfCalls;
    }

    /** @return the failure rate, a fraction in (0, 1], at or above which the breaker opens */
    public double failureRateThreshold() {
        return failureRateThreshold;
    }

    /** @return the slow-call rate, a fraction in (0, 1], at or above which the breaker opens */
    public double slowCallRateThreshold() {
        return slowCallRateThreshold;
    }

    /** @return a call that takes longer than this is slow, whether it succeeded or failed */
    public Duration slowCallDurationThreshold() {
        return slowCallDurationThreshold;
    }

    /** @return failures in a row that open the breaker; 0 when the rule is off */
    public int consecutiveFailureThreshold() {
        return consecutiveFailureThreshold;
    }

    /** @return failures in the window that open the breaker whatever the rate; 0 when the rule is off */
    public int failureCountThreshold() {
        return failureCountThreshold;
    }

    /**
     * @return the level of the decaying failure counter (+1 per failure, −1 per success, never below 0)
     *     that opens the breaker; 0 when the rule is off
     */
    public int decayingFailureThreshold() {
        return decayingFailureThreshold;
    }

    /** @return the {@code retryAfter} of a refusal by a HALF_OPEN breaker with every probe out */
    public Duration halfOpenRetryAfter() {
        return halfOpenRetryAfter;
    }

    /** @return the state a new breaker (and {@link CircuitBreaker#reset()}) starts in */
    public CircuitState initialState() {
        return initialState;
    }

    /**
     * @return which exceptions count as successes (resilience4j's "not a recorded exception"), or null
     *     when none do
     */
    public @Nullable Predicate<? super Throwable> recordAsSuccess() {
        return recordAsSuccess;
    }

    /** @return the wait in open after the first opening */
    public Duration waitDurationInOpen() {
        return waitDurationInOpen;
    }

    /** @return the factor applied to the wait for each further opening in a row */
    public double waitDurationMultiplier() {
        return waitDurationMultiplier;
    }

    /** @return the cap of the wait in open */
    public Duration maxWaitDurationInOpen() {
        return maxWaitDurationInOpen;
    }

    /** @return the probes admitted in half-open */
    public int permittedCallsInHalfOpen() {
        return permittedCallsInHalfOpen;
    }

    /** @return good probes that close the breaker; 0 when rates decide */
    public int successThresholdInHalfOpen() {
        return successThresholdInHalfOpen;
    }

    /** @return how long half-open may wait for its last probes before {@link #halfOpenTimeoutAction()} */
    public Duration maxWaitInHalfOpen() {
        return maxWaitInHalfOpen;
    }

    /** @return what happens when probes are out for longer than {@link #maxWaitInHalfOpen()} */
    public HalfOpenTimeoutAction halfOpenTimeoutAction() {
        return halfOpenTimeoutAction;
    }

    /** @return whether the scheduler moves OPEN to HALF_OPEN without waiting for a call */
    public boolean automaticTransitionToHalfOpen() {
        return automaticTransitionToHalfOpen;
    }

    /** @return which outcomes count as failures */
    public Classifier classifier() {
        return classifier;
    }

    /** @return the time source */
    public Ticker ticker() {
        return ticker;
    }

    /** @return the scheduler of the automatic transition */
    public Scheduler scheduler() {
        return scheduler;
    }

    /**
     * The wait in OPEN after the {@code consecutiveOpens}-th opening in a row (1 for the first):
     * {@code min(maxWaitDurationInOpen, waitDurationInOpen × waitDurationMultiplier^(consecutiveOpens − 1))},
     * or {@code min(maxWaitDurationInOpen, waitDurationFunction(consecutiveOpens))} when a function was set.
     * Called on transitions only.
     *
     * @param consecutiveOpens openings in a row without a successful close, at least 1
     * @return the wait in nanoseconds, at least 1
     */
    public long waitInOpenNanos(int consecutiveOpens) {
        int n = Math.max(1, consecutiveOpens);
        long cap = Nanos.ofCapped(maxWaitDurationInOpen);
        long wait;
        if (waitDurationFunction != null) {
            Duration d = waitDurationFunction.apply(n);
            wait = d == null || d.isNegative() || d.isZero() ? Nanos.ofCapped(waitDurationInOpen) : Nanos.ofCapped(d);
        } else {
            double scaled = Nanos.ofCapped(waitDurationInOpen) * Math.pow(waitDurationMultiplier, n - 1);
            wait = scaled >= cap ? cap : (long) scaled;
        }
        return Math.max(1L, Math.min(cap, wait));
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }


    @Override
    public String toString() {
        return "CircuitBreakerConfig[" + slidingWindowType + "(" + slidingWindowSize
                + (slidingWindowType == SlidingWindowType.TIME_BASED ? " s in " + timeWindowBuckets + " buckets" : " calls")
                + "), minimumNumberOfCalls=" + minimumNumberOfCalls + ", failureRateThreshold=" + failureRateThreshold
                + ", slowCallRateThreshold=" + slowCallRateThreshold + " over " + slowCallDurationThreshold
                + ", consecutiveFailureThreshold=" + consecutiveFailureThreshold + ", failureCountThreshold="
                + failureCountThreshold + ", decayingFailureThreshold=" + decayingFailureThreshold
                + ", initialState=" + initialState + ", waitDurationInOpen="
                + waitDurationInOpen + " x" + waitDurationMultiplier + " up to " + maxWaitDurationInOpen
                + ", permittedCallsInHalfOpen=" + permittedCallsInHalfOpen + ", successThresholdInHalfOpen="
                + successThresholdInHalfOpen + ", halfOpenRetryAfter=" + halfOpenRetryAfter + ", maxWaitInHalfOpen=" + maxWaitInHalfOpen + " then "
                + halfOpenTimeoutAction + ", automaticTransitionToHalfOpen=" + automaticTransitionToHalfOpen + "]";
    }

    /** Builds a {@link CircuitBreakerConfig}; {@link #build()} validates every field. Not thread-safe. */
    public static final class Builder {
        private SlidingWindowType slidingWindowType = SlidingWindowType.COUNT_BASED;
        private int slidingWindowSize = DEFAULT_SLIDING_WINDOW_SIZE;
        private int timeWindowBuckets = DEFAULT_TIME_WINDOW_BUCKETS;
        private int minimumNumberOfCalls = DEFAULT_MINIMUM_NUMBER_OF_CALLS;
        private double failureRateThreshold = DEFAULT_FAILURE_RATE_THRESHOLD;
        private double slowCallRateThreshold = DEFAULT_SLOW_CALL_RATE_THRESHOLD;
        private Duration slowCallDurationThreshold = DEFAULT_SLOW_CALL_DURATION_THRESHOLD;
        private int consecutiveFailureThreshold;
        private int failureCountThreshold;
        private int decayingFailureThreshold;
        private Duration halfOpenRetryAfter = DEFAULT_HALF_OPEN_RETRY_AFTER;
        private CircuitState initialState = DEFAULT_INITIAL_STATE;
        private @Nullable Predicate<? super Throwable> recordAsSuccess;
        private Duration waitDurationInOpen = DEFAULT_WAIT_DURATION_IN_OPEN;
        private double waitDurationMultiplier = 1.0;
        private @Nullable Duration maxWaitDurationInOpen;
        private @Nullable IntFunction<Duration> waitDurationFunction;
        private int permittedCallsInHalfOpen = DEFAULT_PERMITTED_CALLS_IN_HALF_OPEN;
        private int successThresholdInHalfOpen;
        private Duration maxWaitInHalfOpen = DEFAULT_MAX_WAIT_IN_HALF_OPEN;
        private HalfOpenTimeoutAction halfOpenTimeoutAction = HalfOpenTimeoutAction.ADMIT_NEW_PROBES;
        private boolean automaticTransitionToHalfOpen;
        private Classifier classifier = DEFAULT_CLASSIFIER;
        private Ticker ticker = Ticker.system();
        private Scheduler scheduler = Scheduler.system();

        private Builder() {}

        private Builder(CircuitBreakerConfig c) {
            slidingWindowType = c.slidingWindowType;
            slidingWindowSize = c.slidingWindowSize;
            timeWindowBuckets = c.timeWindowBuckets;
            minimumNumberOfCalls = c.minimumNumberOfCalls;
            failureRateThreshold = c.failureRateThreshold;
            slowCallRateThreshold = c.slowCallRateThreshold;
            slowCallDurationThreshold = c.slowCallDurationThreshold;
            consecutiveFailureThreshold = c.consecutiveFailureThreshold;
            failureCountThreshold = c.failureCountThreshold;
            decayingFailureThreshold = c.decayingFailureThreshold;
            halfOpenRetryAfter = c.halfOpenRetryAfter;
            initialState = c.initialState;
            recordAsSuccess = c.recordAsSuccess;
            waitDurationInOpen = c.waitDurationInOpen;
            waitDurationMultiplier = c.waitDurationMultiplier;
            maxWaitDurationInOpen = c.maxWaitDurationInOpenSet;
            waitDurationFunction = c.waitDurationFunction;
            permittedCallsInHalfOpen = c.permittedCallsInHalfOpen;
            successThresholdInHalfOpen = c.successThresholdInHalfOpen;
            maxWaitInHalfOpen = c.maxWaitInHalfOpen;
            halfOpenTimeoutAction = c.halfOpenTimeoutAction;
            automaticTransitionToHalfOpen = c.automaticTransitionToHalfOpen;
            classifier = c.classifier;
            ticker = c.ticker;
            scheduler = c.scheduler;
        }

        /**
         * A count window of the last {@code calls} calls.
         *
         * @param calls window size in calls, in [1, 1 000 000]; default 100
         * @return this builder
         */
        public Builder countWindow(int calls) {
            this.slidingWindowType = SlidingWindowType.COUNT_BASED;
            this.slidingWindowSize = calls;
            return this;
        }

        /**
         * A time window of the last {@code seconds} seconds in {@code buckets} buckets.
         *
         * @param seconds window length in seconds, in [1, 86 400]
         * @param buckets how many buckets the window rolls in, in [1, 1000]; default 10
         * @return this builder
         */
        public Builder timeWindow(int seconds, int buckets) {
            this.slidingWindowType = SlidingWindowType.TIME_BASED;
            this.slidingWindowSize = seconds;
            this.timeWindowBuckets = buckets;
            return this;
        }

        /**

         * @param type the window type; default COUNT_BASED

         * @return this builder

         */
        public Builder slidingWindowType(SlidingWindowType type) {
            this.slidingWindowType = type;
            return this;
        }

        /**

         * @param size calls (COUNT_BASED) or seconds (TIME_BASED); default 100

         * @return this builder

         */
        public Builder slidingWindowSize(int size) {
            this.slidingWindowSize = size;
            return this;
        }

        /**

         * @param buckets buckets of a time window, in [1, 1000]; default 10

         * @return this builder

         */
        public Builder timeWindowBuckets(int buckets) {
            this.timeWindowBuckets = buckets;
            return this;
        }

        /**
         * Calls the window must hold before the rates may trip the breaker, so a handful of early
         * failures never opens it.
         *
         * @param calls in [1, 1 000 000] and, for a count window, at most its size; default 20
         * @return this builder
         */
        public Builder minimumNumberOfCalls(int calls) {
            this.minimumNumberOfCalls = calls;
            return this;
        }

        /**
         * The failure rate that opens the breaker, a fraction: {@code 0.5} is 50 %. A value above 1 is
         * refused (it is almost certainly a percent).
         *
         * @param fraction in (0, 1]; default {@value #DEFAULT_FAILURE_RATE_THRESHOLD}
         * @return this builder
         */
        public Builder failureRateThreshold(double fraction) {
            this.failureRateThreshold = fraction;
            return this;
        }

        /**
         * The slow-call rate that opens the breaker, a fraction: {@code 0.8} is 80 %. A value above 1 is
         * refused (it is almost certainly a percent).
         *
         * @param fraction in (0, 1]; default {@value #DEFAULT_SLOW_CALL_RATE_THRESHOLD} (seed 003)
         * @return this builder
         */
        public Builder slowCallRateThreshold(double fraction) {
            this.slowCallRateThreshold = fraction;
            return this;
        }

        /**
         * A call longer than this is slow, whether it succeeded or failed. Set it from the dependency's
         * p99 latency (a little above it).
         *
         * @param duration &gt; 0; default 2 s (seed 003)
         * @return this builder
         */
        public Builder slowCallDurationThreshold(Duration duration) {
            this.slowCallDurationThreshold = duration;
            return this;
        }

        /**
         * Switches the slow-call rule off: no call is ever slow, so the slow-call rate never opens the
         * breaker, and a count-window breaker then needs no clock reading at all while CLOSED
         * ({@link dev.levee.core.Gate#timeNeed()} is {@code NONE}): a permit and a fast success read no
         * clock. Sets {@code slowCallDurationThreshold} to {@link #NO_SLOW_CALLS}; any threshold of about
         * 292 years or more has the same effect.
         *
         * @return this builder
         */
        public Builder noSlowCallRule() {
            this.slowCallDurationThreshold = NO_SLOW_CALLS;
            return this;
        }

        /**
         * Opens the breaker after this many failures in a row, whatever the window holds; 0 turns the
         * rule off. Works alongside the rate rules.
         *
         * @param failures in [0, 1 000 000]; default 0
         * @return this builder
         */
        public Builder consecutiveFailureThreshold(int failures) {
            this.consecutiveFailureThreshold = failures;
            return this;
        }

        /**
         * Count-threshold trip mode (seeds 002, 003: "5 failures"): opens the breaker as soon as the
         * window holds this many failures, whatever the rate and the minimum number of calls; 0 turns
         * the rule off. Works alongside the rate rules.
         *
         * @param failures in [0, 1 000 000]; default 0
         * @return this builder
         */
        public Builder failureCountThreshold(int failures) {
            this.failureCountThreshold = failures;
            return this;
        }

        /**
         * Seed 002's decaying failure counter: each failure adds 1, each success takes 1 away (never
         * below 0), and the breaker opens when the counter reaches this level; 0 turns the rule off. A
         * dependency failing more often than it succeeds trips it; one with scattered failures never
         * does. Works alongside the rate rules.
         *
         * @param level in [0, 1 000 000]; default 0
         * @return this builder
         */
        public Builder decayingFailureThreshold(int level) {
            this.decayingFailureThreshold = level;
            return this;
        }

        /**
         * The {@code retryAfter} a HALF_OPEN breaker with every probe out gives its refusals (seed 000:
         * 1 s); the probes' outcome is unknown, so this is a hint, not a promise.
         *
         * @param retryAfter &gt;= 0; default 1 s
         * @return this builder
         */
        public Builder halfOpenRetryAfter(Duration retryAfter) {
            this.halfOpenRetryAfter = retryAfter;
            return this;
        }

        /**
         * The state a new breaker starts in, and {@link CircuitBreaker#reset()} returns to: CLOSED, or
         * OPEN (waiting {@code waitDurationInOpen} before probing, e.g. for a dependency known to be
         * down at start-up), DISABLED, FORCED_OPEN or METRICS_ONLY. HALF_OPEN is refused: it needs an
         * opening to follow.
         *
         * @param state the initial state; default CLOSED
         * @return this builder
         */
        public Builder initialState(CircuitState state) {
            this.initialState = state;
            return this;
        }

        /**
         * Exceptions that count as successes (resilience4j's record-exceptions semantics: a call that
         * ends with one of them is recorded as a success, not as a failure and not ignored), e.g. a
         * {@code NotFoundException} that proves the dependency answered.
         *
         * @param types the exception types (subclasses included)
         * @return this builder
         */
        @SafeVarargs
        @SuppressWarnings("varargs") // the array is only read
        public final Builder recordAsSuccess(Class<? extends Throwable>... types) {
            Validate.notNull(POLICY, "recordAsSuccess", types);
            java.util.List<Class<? extends Throwable>> copy = new java.util.ArrayList<>(types.length);
            for (Class<? extends Throwable> type : types) {
                copy.add(Validate.notNull(POLICY, "recordAsSuccess", type));
            }
            return recordAsSuccessWhen(error -> {
                for (Class<? extends Throwable> type : copy) {
                    if (type.isInstance(error)) {
                        return true;
                    }
                }
                return false;
            });
        }

        /**
         * Exceptions that count as successes, by predicate (consulted before the classifier, on
         * failures only).
         *
         * @param predicate true for an exception that counts as a success
         * @return this builder
         */
        public Builder recordAsSuccessWhen(Predicate<? super Throwable> predicate) {
            this.recordAsSuccess = Validate.notNull(POLICY, "recordAsSuccessWhen", predicate);
            return this;
        }

        /**
         * @param duration the wait in OPEN after a first opening, &gt; 0; default 30 s (seeds 000, 002, 003)
         * @return this builder
         */
        public Builder waitDurationInOpen(Duration duration) {
            this.waitDurationInOpen = duration;
            return this;
        }

        /**
         * Waits longer each time the breaker opens again without having closed in between:
         * {@code wait(n) = min(max, waitDurationInOpen × multiplier^(n − 1))}.
         *
         * @param multiplier in [1, 100]; default 1 (fixed wait)
         * @param max the cap, &gt;= waitDurationInOpen; default 30 min, or waitDurationInOpen if longer
         * @return this builder
         */
        public Builder waitDurationBackoff(double multiplier, Duration max) {
            this.waitDurationMultiplier = multiplier;
            this.maxWaitDurationInOpen = max;
            return this;
        }

        /**
         * The wait in OPEN as any function of the number of openings in a row (1 for the first), capped
         * by {@code max}. A null or non-positive result falls back to {@link #waitDurationInOpen}. The
         * function runs on transitions only.
         *
         * @param byConsecutiveOpens the function
         * @param max the cap, &gt;= waitDurationInOpen
         * @return this builder
         */
        public Builder waitDurationInOpen(IntFunction<Duration> byConsecutiveOpens, Duration max) {
            this.waitDurationFunction = Validate.notNull(POLICY, "waitDurationFunction", byConsecutiveOpens);
            this.maxWaitDurationInOpen = max;
            return this;
        }

        /**

         * @param calls probes admitted in HALF_OPEN, in [1, 1000]; default 3 (seeds 000, 002)

         * @return this builder

         */
        public Builder permittedCallsInHalfOpen(int calls) {
            this.permittedCallsInHalfOpen = calls;
            return this;
        }

        /**
         * Closes the breaker as soon as this many probes succeeded without being slow, and reopens as
         * soon as that became impossible; 0 decides by the failure and slow-call rates of all probes.
         *
         * @param successes in [0, permittedCallsInHalfOpen]; default 0
         * @return this builder
         */
        public Builder successThresholdInHalfOpen(int successes) {
            this.successThresholdInHalfOpen = successes;
            return this;
        }

        /**
         * How long HALF_OPEN may wait with all probes out before {@link #halfOpenTimeoutAction}; keeps a
         * probe that never returns from wedging the breaker.
         *
         * @param duration &gt; 0; default 60 s
         * @return this builder
         */
        public Builder maxWaitInHalfOpen(Duration duration) {
            this.maxWaitInHalfOpen = duration;
            return this;
        }

        /**

         * @param action what a half-open timeout does; default ADMIT_NEW_PROBES

         * @return this builder

         */
        public Builder halfOpenTimeoutAction(HalfOpenTimeoutAction action) {
            this.halfOpenTimeoutAction = action;
            return this;
        }

        /**
         * Whether the scheduler moves OPEN to HALF_OPEN when the wait ends, so metrics show HALF_OPEN
         * without traffic. Default false: the transition happens lazily on the next call.
         *
         * @param enabled true to schedule the transition
         * @return this builder
         */
        public Builder automaticTransitionToHalfOpen(boolean enabled) {
            this.automaticTransitionToHalfOpen = enabled;
            return this;
        }

        /**

         * @param classifier which outcomes count; default {@link #defaultClassifier()}

         * @return this builder

         */
        public Builder classifier(Classifier classifier) {
            this.classifier = classifier;
            return this;
        }

        /**

         * @param ticker the time source; default {@link Ticker#system()}

         * @return this builder

         */
        public Builder ticker(Ticker ticker) {
            this.ticker = ticker;
            return this;
        }

        /**

         * @param scheduler for the automatic transition; default {@link Scheduler#system()}

         * @return this builder

         */
        public Builder scheduler(Scheduler scheduler) {
            this.scheduler = scheduler;
            return this;
        }

        /**
         * Validates and builds.
         *
         * @return the immutable config
         * @throws dev.levee.core.InvalidConfigException naming the field, bound and value, if a field is out of bounds
         */
        public CircuitBreakerConfig build() {
            Validate.notNull(POLICY, "slidingWindowType", slidingWindowType);
            if (slidingWindowType == SlidingWindowType.COUNT_BASED) {
                Validate.inRange(POLICY, "slidingWindowSize", slidingWindowSize, 1, MAX_COUNT_WINDOW);
                Validate.inRange(POLICY, "minimumNumberOfCalls", minimumNumberOfCalls, 1, MAX_COUNT_WINDOW);
                Validate.check(minimumNumberOfCalls <= slidingWindowSize, POLICY, "minimumNumberOfCalls",
                        "<= slidingWindowSize (" + slidingWindowSize + ") for a COUNT_BASED window", minimumNumberOfCalls);
            } else {
                Validate.inRange(POLICY, "slidingWindowSize", slidingWindowSize, 1, MAX_TIME_WINDOW_SECONDS);
                Validate.inRange(POLICY, "timeWindowBuckets", timeWindowBuckets, 1, 1000);
                Validate.check(timeWindowBuckets <= slidingWindowSize * 1000L, POLICY, "timeWindowBuckets",
                        "<= slidingWindowSize * 1000 (buckets of at least 1 ms)", timeWindowBuckets);
                Validate.inRange(POLICY, "minimumNumberOfCalls", minimumNumberOfCalls, 1, MAX_COUNT_WINDOW);
            }
            fraction("failureRateThreshold", failureRateThreshold);
            fraction("slowCallRateThreshold", slowCallRateThreshold);
            Validate.positive(POLICY, "slowCallDurationThreshold", slowCallDurationThreshold);
            Validate.inRange(POLICY, "consecutiveFailureThreshold", consecutiveFailureThreshold, 0, 1_000_000);
            Validate.inRange(POLICY, "failureCountThreshold", failureCountThreshold, 0, 1_000_000);
            Validate.inRange(POLICY, "decayingFailureThreshold", decayingFailureThreshold, 0, 1_000_000);
            Validate.nonNegative(POLICY, "halfOpenRetryAfter", halfOpenRetryAfter);
            Validate.notNull(POLICY, "initialState", initialState);
            Validate.check(initialState != CircuitState.HALF_OPEN, POLICY, "initialState",
                    "not HALF_OPEN (a half-open round follows an opening; start OPEN instead)", initialState);
            Validate.positive(POLICY, "waitDurationInOpen", waitDurationInOpen);
            Validate.inRange(POLICY, "waitDurationMultiplier", waitDurationMultiplier, 1.0, 100.0);
            if (maxWaitDurationInOpen != null) {
                Validate.positive(POLICY, "maxWaitDurationInOpen", maxWaitDurationInOpen);
                Validate.check(maxWaitDurationInOpen.compareTo(waitDurationInOpen) >= 0, POLICY, "maxWaitDurationInOpen",
                        ">= waitDurationInOpen (" + waitDurationInOpen + ")", maxWaitDurationInOpen);
            }
            Validate.inRange(POLICY, "permittedCallsInHalfOpen", permittedCallsInHalfOpen, 1, MAX_PERMITTED_IN_HALF_OPEN);
            Validate.inRange(POLICY, "successThresholdInHalfOpen", successThresholdInHalfOpen, 0, permittedCallsInHalfOpen);
            Validate.positive(POLICY, "maxWaitInHalfOpen", maxWaitInHalfOpen);
            Validate.notNull(POLICY, "halfOpenTimeoutAction", halfOpenTimeoutAction);
            Validate.notNull(POLICY, "classifier", classifier);
            Validate.notNull(POLICY, "ticker", ticker);
            Validate.notNull(POLICY, "scheduler", scheduler);
            return new CircuitBreakerConfig(this);
        }

        /** A rate threshold is a fraction in (0, 1]; above 1 it is almost certainly a percent. */
        private static void fraction(String field, double value) {
            if (value > 1 && value <= 100) {
                throw new InvalidConfigException(POLICY, field, "a fraction in (0, 1] (" + value
                        + " looks like a percent: write " + value / 100 + ")", value);
            }
            Validate.check(value > 0 && value <= 1, POLICY, field, "a fraction in (0, 1]", value);
        }
    }
}

package dev.levee.timeout;

import dev.levee.core.ContextPropagator;
import dev.levee.core.Deadline;
import dev.levee.core.Scheduler;
import dev.levee.core.Ticker;
import dev.levee.core.internal.Validate;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executor;
import org.jspecify.annotations.Nullable;

/**
 * The immutable configuration of a {@link Timeout}; build it with {@link #builder()}.
 *
 * <table>
 *   <caption>Fields</caption>
 *   <tr><th>field</th><th>default</th><th>bound</th><th>effect</th></tr>
 *   <tr><td>{@code timeout}</td><td>5 s</td><td>&gt; 0</td><td>the longest a call may run</td></tr>
 *   <tr><td>{@code mode}</td><td>{@link TimeoutMode#THREAD}</td><td>not null; INTERRUPT needs
 *       {@code interruptOnTimeout}</td><td>how a synchronous
 *       call is bounded</td></tr>
 *   <tr><td>{@code executor}</td><td>{@link TimeoutExecutors#defaultExecutor()}</td><td>not null</td>
 *       <td>where THREAD-mode calls run</td></tr>
 *   <tr><td>{@code interruptOnTimeout}</td><td>true</td><td>—</td><td>interrupt a THREAD-mode worker /
 *       cancel an async future at the deadline</td></tr>
 *   <tr><td>{@code reserve}</td><td>0</td><td>&ge; 0</td><td>time kept back from the current
 *       {@link Deadline} for the caller's own work after the call</td></tr>
 *   <tr><td>{@code minimumRemaining}</td><td>1 ms</td><td>&ge; 0 and &le; {@code timeout}</td>
 *       <td>fail before starting when less than this would remain</td></tr>
 *   <tr><td>{@code adaptive}</td><td>none</td><td>—</td><td>take the timeout from an
 *       {@link AdaptiveTimeout} instead of {@code timeout}</td></tr>
 *   <tr><td>{@code propagators}</td><td>none</td><td>not null</td><td>application contexts (MDC,
 *       tracing) carried to the THREAD-mode worker; the deadline is always carried</td></tr>
 *   <tr><td>{@code ticker}</td><td>{@link Ticker#system()}</td><td>not null</td><td>time source</td></tr>
 *   <tr><td>{@code scheduler}</td><td>{@link Scheduler#system()}</td><td>not null</td><td>fires the
 *       deadline of THREAD-mode calls; runs the timer wheel of INTERRUPT mode and asynchronous calls
 *       (1 ms ticks, only while a timer is pending)</td></tr>
 *   <tr><td>{@code asyncExecutor}</td><td>the common fork-join pool</td><td>not null</td><td>completes
 *       a timed-out asynchronous call's stage, so its dependents never run on the scheduler's
 *       thread</td></tr>
 * </table>
 *
 * <p>The 5 s default follows common practice for an interactive request to one dependency; choose
 * a real value from the dependency's p99 latency plus headroom (see {@code docs/timeout.md}).
 */
public final class TimeoutConfig {
    /** Default timeout: 5 s, seed 003's request timeout ("tune per dependency"). */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);
    /** Default mode: {@link TimeoutMode#THREAD}, which bounds even a call that never checks the clock. */
    public static final TimeoutMode DEFAULT_MODE = TimeoutMode.THREAD;
    /** Default: interrupt the worker (cancel the future) at the deadline. */
    public static final boolean DEFAULT_INTERRUPT_ON_TIMEOUT = true;
    /**
     * Default reserve kept from the current deadline: none. The reserve for a deadline that leaves the
     * process is kept by {@link DeadlinePropagation} (seeds 000/002); keeping it here too would count
     * it twice.
     */
    public static final Duration DEFAULT_RESERVE = Duration.ZERO;
    /** Default least time worth starting a call with: 1 ms. */
    public static final Duration DEFAULT_MINIMUM_REMAINING = Duration.ofMillis(1);
    private static final String POLICY = "Timeout";
    private static final TimeoutConfig DEFAULTS = builder().build();

    private final Duration timeout;
    private final long timeoutNanos;
    private final TimeoutMode mode;
    private final Executor executor;
    private final boolean interruptOnTimeout;
    private final Duration reserve;
    private final long reserveNanos;
    private final Duration minimumRemaining;
    private final long minimumRemainingNanos;
    private final @Nullable AdaptiveTimeout adaptive;
    private final List<ContextPropagator<?>> propagators;
    private final Ticker ticker;
    private final Scheduler scheduler;
    private final Executor asyncExecutor;

    private TimeoutConfig(Builder b, Executor executor) {
        this.timeout = b.timeout;
        this.timeoutNanos = Deadline.saturatedNanos(b.timeout);
        this.mode = b.mode;
        this.executor = executor;
        this.interruptOnTimeout = b.interruptOnTimeout;
        this.reserve = b.reserve;
        this.reserveNanos = Deadline.saturatedNanos(b.reserve);
        this.minimumRemaining = b.minimumRemaining;
        this.minimumRemainingNanos = Deadline.saturatedNanos(b.minimumRemaining);
        this.adaptive = b.adaptive;
        this.propagators = b.propagators;
        this.ticker = b.ticker;
        this.scheduler = b.scheduler;
        this.asyncExecutor = b.asyncExecutor;
    }

    /**
     * A config with every default: 5 s, THREAD mode.
     *
     * @return the default config
     */
    public static TimeoutConfig defaults() {
        return DEFAULTS;
    }

    /**
     * A 5 s, THREAD-mode config with {@code timeout} instead.
     *
     * @param timeout the timeout; &gt; 0
     * @return the config
     */
    public static TimeoutConfig of(Duration timeout) {
        return builder().timeout(timeout).build();
    }

    /**
     * Starts a builder with every default.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A builder holding this config's values, to derive a variant.
     *
     * @return a new builder
     */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.timeout = timeout;
        b.mode = mode;
        b.executor = executor;
        b.interruptOnTimeout = interruptOnTimeout;
        b.reserve = reserve;
        b.minimumRemaining = minimumRemaining;
        b.adaptive = adaptive;
        b.propagators = propagators;
        b.ticker = ticker;
        b.scheduler = scheduler;
        b.asyncExecutor = asyncExecutor;
        return b;
    }

    /** @return the configured timeout */
    public Duration timeout() {
        return timeout;
    }

    /** @return the configured timeout in nanoseconds */
    public long timeoutNanos() {
        return timeoutNanos;
    }

    /** @return how synchronous calls are bounded */
    public TimeoutMode mode() {
        return mode;
    }

    /** @return the executor of THREAD-mode calls */
    public Executor executor() {
        return executor;
    }

    /** @return whether the worker is interrupted (the future cancelled) at the deadline */
    public boolean interruptOnTimeout() {
        return interruptOnTimeout;
    }

    /** @return the time kept back from the current deadline */
    public Duration reserve() {
        return reserve;
    }

    /** @return {@link #reserve()} in nanoseconds */
    public long reserveNanos() {
        return reserveNanos;
    }

    /** @return the least effective timeout a call may start with */
    public Duration minimumRemaining() {
        return minimumRemaining;
    }

    /** @return {@link #minimumRemaining()} in nanoseconds */
    public long minimumRemainingNanos() {
        return minimumRemainingNanos;
    }

    /** @return the adaptive timeout, or null when the fixed {@link #timeout()} applies */
    public @Nullable AdaptiveTimeout adaptive() {
        return adaptive;
    }

    /** @return the application's context propagators, possibly empty */
    public List<ContextPropagator<?>> propagators() {
        return propagators;
    }

    /** @return the time source */
    public Ticker ticker() {
        return ticker;
    }

    /** @return the scheduler that fires deadlines */
    public Scheduler scheduler() {
        return scheduler;
    }

    /** @return the executor that completes timed-out asynchronous calls */
    public Executor asyncExecutor() {
        return asyncExecutor;
    }

    @Override
    public String toString() {
        return "TimeoutConfig[timeout=" + timeout + ", mode=" + mode + ", interruptOnTimeout=" + interruptOnTimeout
                + ", reserve=" + reserve + ", minimumRemaining=" + minimumRemaining
                + (adaptive != null ? ", adaptive=" + adaptive : "") + "]";
    }

    /** Builds a {@link TimeoutConfig}. Not thread-safe; {@link #build()} validates. */
    public static final class Builder {
        private Duration timeout = DEFAULT_TIMEOUT;
        private TimeoutMode mode = DEFAULT_MODE;
        private @Nullable Executor executor;
        private boolean interruptOnTimeout = DEFAULT_INTERRUPT_ON_TIMEOUT;
        private Duration reserve = DEFAULT_RESERVE;
        private Duration minimumRemaining = DEFAULT_MINIMUM_REMAINING;
        private @Nullable AdaptiveTimeout adaptive;
        private List<ContextPropagator<?>> propagators = List.of();
        private Ticker ticker = Ticker.system();
        private Scheduler scheduler = Scheduler.system();
        private Executor asyncExecutor = dev.levee.core.internal.AsyncWaitQueue.defaultExecutor();

        private Builder() {}

        /**
         * The longest a call may run (default 5 s; &gt; 0). A shorter current deadline wins.
         *
         * @param timeout the timeout
         * @return this builder
         */
        public Builder timeout(Duration timeout) {
            this.timeout = timeout;
            return this;
        }

        /**
         * How synchronous calls are bounded (default {@link TimeoutMode#THREAD}).
         *
         * @param mode the mode
         * @return this builder
         */
        public Builder mode(TimeoutMode mode) {
            this.mode = mode;
            return this;
        }

        /**
         * Where THREAD-mode calls run (default {@link TimeoutExecutors#defaultExecutor()}). Levee never
         * shuts it down.
         *
         * @param executor the executor
         * @return this builder
         */
        public Builder executor(Executor executor) {
            this.executor = Validate.notNull(POLICY, "executor", executor);
            return this;
        }

        /**
         * Whether to interrupt a THREAD-mode worker, and cancel an asynchronous call's future with
         * {@code mayInterruptIfRunning}, at the deadline (default true). With false, the caller still
         * returns at the deadline but the work runs to its end.
         *
         * @param interruptOnTimeout true to interrupt
         * @return this builder
         */
        public Builder interruptOnTimeout(boolean interruptOnTimeout) {
            this.interruptOnTimeout = interruptOnTimeout;
            return this;
        }

        /**
         * Time kept back from the current deadline for the caller's own work after the call
         * (default 0; &ge; 0): the call gets {@code remaining - reserve}.
         *
         * @param reserve the reserve
         * @return this builder
         */
        public Builder reserve(Duration reserve) {
            this.reserve = reserve;
            return this;
        }

        /**
         * Fail before starting when the effective timeout would be below this (default 1 ms;
         * &ge; 0 and &le; timeout): starting a call that cannot finish wastes the dependency's work.
         *
         * @param minimumRemaining the minimum
         * @return this builder
         */
        public Builder minimumRemaining(Duration minimumRemaining) {
            this.minimumRemaining = minimumRemaining;
            return this;
        }

        /**
         * Takes each call's timeout from {@code adaptive} (its percentile estimate times its factor,
         * clamped to its bounds) instead of {@link #timeout(Duration)}, and feeds it every call's
         * latency. Null (the default) means the fixed timeout.
         *
         * @param adaptive the adaptive timeout, or null
         * @return this builder
         */
        public Builder adaptive(@Nullable AdaptiveTimeout adaptive) {
            this.adaptive = adaptive;
            return this;
        }

        /**
         * Application contexts to carry to the THREAD-mode worker, restored in this order
         * (default none). The current deadline is always carried.
         *
         * @param propagators the propagators
         * @return this builder
         */
        public Builder propagators(List<? extends ContextPropagator<?>> propagators) {
            this.propagators = List.copyOf(Validate.notNull(POLICY, "propagators", propagators));
            return this;
        }

        /**
         * The time source (default {@link Ticker#system()}).
         *
         * @param ticker the ticker
         * @return this builder
         */
        public Builder ticker(Ticker ticker) {
            this.ticker = ticker;
            return this;
        }

        /**
         * The scheduler that fires deadlines (default {@link Scheduler#system()}).
         *
         * @param scheduler the scheduler
         * @return this builder
         */
        public Builder scheduler(Scheduler scheduler) {
            this.scheduler = scheduler;
            return this;
        }

        /**
         * Where a timed-out asynchronous call's stage is completed (default: the common fork-join pool, as
         * {@code CompletableFuture}'s {@code *Async} methods), so its dependents never run on the
         * scheduler's thread. Tests on manual time may pass {@code Runnable::run}.
         *
         * @param asyncExecutor the executor
         * @return this builder
         */
        public Builder asyncExecutor(Executor asyncExecutor) {
            this.asyncExecutor = asyncExecutor;
            return this;
        }

        /**
         * Validates and builds.
         *
         * @return the config
         * @throws dev.levee.core.InvalidConfigException naming the field, bound and value
         */
        public TimeoutConfig build() {
            Validate.positive(POLICY, "timeout", timeout);
            Validate.notNull(POLICY, "mode", mode);
            Validate.nonNegative(POLICY, "reserve", reserve);
            Validate.nonNegative(POLICY, "minimumRemaining", minimumRemaining);
            Validate.check(minimumRemaining.compareTo(timeout) <= 0, POLICY, "minimumRemaining",
                    "<= timeout (" + timeout + ")", minimumRemaining);
            Validate.notNull(POLICY, "ticker", ticker);
            Validate.notNull(POLICY, "scheduler", scheduler);
            Validate.notNull(POLICY, "asyncExecutor", asyncExecutor);
            Validate.check(mode != TimeoutMode.INTERRUPT || interruptOnTimeout, POLICY, "interruptOnTimeout",
                    "true in INTERRUPT mode (interrupting the caller is how that mode bounds a call)", interruptOnTimeout);
            Executor executor = this.executor;
            if (executor == null) {
                executor = TimeoutExecutors.defaultExecutor();
                this.executor = executor;
            }
            return new TimeoutConfig(this, executor);
        }
    }
}

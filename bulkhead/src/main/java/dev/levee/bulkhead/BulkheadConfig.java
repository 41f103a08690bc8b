package dev.levee.bulkhead;

import dev.levee.core.Deadline;
import dev.levee.core.Scheduler;
import dev.levee.core.Ticker;
import dev.levee.core.internal.Validate;
import dev.levee.core.internal.AsyncWaitQueue;
import java.time.Duration;
import java.util.concurrent.Executor;

/**
 * The immutable, nameless configuration of a semaphore {@link Bulkhead}, built by {@link #builder()};
 * one configuration can be shared by many bulkheads ({@code Bulkhead.of(name, config)}). Every default
 * is a {@code DEFAULT_*} constant of this class.
 *
 * <table>
 *   <caption>Settings</caption>
 *   <tr><th>field</th><th>default</th><th>bound</th><th>effect</th></tr>
 *   <tr><td>{@code maxConcurrentCalls}</td><td>25</td><td>[1, 1,000,000]</td>
 *       <td>calls allowed inside at once; size it with Little's law: peak rate × latency of the dependency</td></tr>
 *   <tr><td>{@code maxWait}</td><td>0 (fail fast)</td><td>[0, 1 hour]</td>
 *       <td>how long {@link Bulkhead#acquire(long)} waits for a slot; never past the current {@link Deadline}</td></tr>
 *   <tr><td>{@code fair}</td><td>false</td><td>—</td>
 *       <td>true: waiting callers are served first-come first-served and new arrivals do not barge
 *       ahead of waiters (costs one extra volatile read per acquire)</td></tr>
 *   <tr><td>{@code saturationWarning}</td><td>30 s</td><td>&gt; 0</td>
 *       <td>rejecting continuously for this long logs one WARN and publishes a
 *       {@link BulkheadEvent.Saturated} event per episode</td></tr>
 *   <tr><td>{@code ticker}</td><td>{@link Ticker#system()}</td><td>not null</td>
 *       <td>the time source for waits and the saturation warning</td></tr>
 *   <tr><td>{@code scheduler}</td><td>{@link Scheduler#system()}</td><td>not null</td>
 *       <td>ends the waits of asynchronous callers ({@code executeAsync} with a {@code maxWait}): they
 *       are scheduled, never blocking a thread</td></tr>
 *   <tr><td>{@code asyncExecutor}</td><td>the common fork-join pool (as {@code CompletableFuture}'s
 *       {@code *Async} methods)</td><td>not null</td>
 *       <td>where an asynchronous caller that waited is resumed: its call starts there, never on the
 *       scheduler's thread</td></tr>
 * </table>
 *
 * <p>The defaults follow common practice: fail fast rather than queue (a bulkhead exists to shed
 * load early), and a bound of 25 matching resilience4j's default so migrating users keep their
 * behaviour.
 */
public final class BulkheadConfig {
    /**
     * Default bound on calls inside: 25, seed 003's bulkhead (and resilience4j's default); seed 000's
     * sketch uses 10 — the seeds disagree and 003 is the organisation's standard.
     */
    public static final int DEFAULT_MAX_CONCURRENT_CALLS = 25;
    /**
     * Default wait for a slot: none, fail fast. Seeds 000 and 003 sketch a 5 s wait, but both say to
     * fail fast when the bulkhead is full; a default wait parks callers' threads exactly when the
     * dependency is saturated, the exhaustion a bulkhead exists to prevent. Set {@code maxWait(5 s)}
     * for the seeds' behaviour (asynchronous callers never block either way).
     */
    public static final Duration DEFAULT_MAX_WAIT = Duration.ZERO;
    /** Default: no fairness (no extra volatile read per acquire). */
    public static final boolean DEFAULT_FAIR = false;
    /** Default saturation warning: 30 s of continuous rejection. */
    public static final Duration DEFAULT_SATURATION_WARNING = Duration.ofSeconds(30);
    /** The largest {@code maxConcurrentCalls} accepted. */
    public static final int MAX_CONCURRENT_CALLS_LIMIT = 1_000_000;
    /** The longest {@code maxWait} accepted. */
    public static final Duration MAX_WAIT_LIMIT = Duration.ofHours(1);

    private static final String POLICY = "Bulkhead";
    private static final BulkheadConfig DEFAULTS = new Builder().build();

    private final int maxConcurrentCalls;
    private final Duration maxWait;
    private final long maxWaitNanos;
    private final boolean fair;
    private final Duration saturationWarning;
    private final long saturationWarningNanos;
    private final Ticker ticker;
    private final Scheduler scheduler;
    private final Executor asyncExecutor;

    private BulkheadConfig(Builder b) {
        this.maxConcurrentCalls = b.maxConcurrentCalls;
        this.maxWait = b.maxWait;
        this.maxWaitNanos = b.maxWait.toNanos();
        this.fair = b.fair;
        this.saturationWarning = b.saturationWarning;
        this.saturationWarningNanos = Deadline.saturatedNanos(b.saturationWarning);
        this.ticker = b.ticker;
        this.scheduler = b.scheduler;
        this.asyncExecutor = b.asyncExecutor;
    }

    /**
     * Starts a configuration with the defaults.
     *
     * @return a builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The default configuration: 25 calls, fail fast.
     *
     * @return the shared default configuration
     */
    public static BulkheadConfig defaults() {
        return DEFAULTS;
    }

    /**
     * A builder holding this configuration's values, to derive a variant.
     *
     * @return a new builder
     */
    public Builder toBuilder() {
        return new Builder()
                .maxConcurrentCalls(maxConcurrentCalls)
                .maxWait(maxWait)
                .fair(fair)
                .saturationWarning(saturationWarning)
                .ticker(ticker)
                .scheduler(scheduler)
                .asyncExecutor(asyncExecutor);
    }

    /** @return the initial bound on concurrent calls */
    public int maxConcurrentCalls() {
        return maxConcurrentCalls;
    }

    /** @return how long an acquire may wait for a slot; zero means fail fast */
    public Duration maxWait() {
        return maxWait;
    }

    /** @return {@link #maxWait()} in nanoseconds */
    public long maxWaitNanos() {
        return maxWaitNanos;
    }

    /** @return whether waiters are served in arrival order */
    public boolean fair() {
        return fair;
    }

    /** @return how long continuous rejection lasts before a WARN */
    public Duration saturationWarning() {
        return saturationWarning;
    }

    /** @return {@link #saturationWarning()} in nanoseconds */
    public long saturationWarningNanos() {
        return saturationWarningNanos;
    }

    /** @return the time source */
    public Ticker ticker() {
        return ticker;
    }

    /** @return the scheduler that ends asynchronous waits */
    public Scheduler scheduler() {
        return scheduler;
    }

    /** @return the executor asynchronous callers resume on after a wait */
    public Executor asyncExecutor() {
        return asyncExecutor;
    }

    @Override
    public String toString() {
        return "BulkheadConfig[maxConcurrentCalls=" + maxConcurrentCalls + ", maxWait=" + maxWait
                + ", fair=" + fair + ", saturationWarning=" + saturationWarning + "]";
    }

    /** Builds a {@link BulkheadConfig}. Not thread-safe; {@link #build()} validates. */
    public static final class Builder {
        private int maxConcurrentCalls = DEFAULT_MAX_CONCURRENT_CALLS;
        private Duration maxWait = DEFAULT_MAX_WAIT;
        private boolean fair = DEFAULT_FAIR;
        private Duration saturationWarning = DEFAULT_SATURATION_WARNING;
        private Ticker ticker = Ticker.system();
        private Scheduler scheduler = Scheduler.system();
        private Executor asyncExecutor = AsyncWaitQueue.defaultExecutor();

        private Builder() {}

        /**
         * The bound on calls inside at once (default 25, in [1, 1,000,000]).
         *
         * @param maxConcurrentCalls the bound
         * @return this builder
         */
        public Builder maxConcurrentCalls(int maxConcurrentCalls) {
            this.maxConcurrentCalls = maxConcurrentCalls;
            return this;
        }

        /**
         * How long a blocking acquire waits for a slot (default zero: fail fast; at most 1 hour).
         *
         * @param maxWait the wait
         * @return this builder
         */
        public Builder maxWait(Duration maxWait) {
            this.maxWait = maxWait;
            return this;
        }

        /**
         * Whether waiting callers are served in arrival order (default false).
         *
         * @param fair true for first-come first-served
         * @return this builder
         */
        public Builder fair(boolean fair) {
            this.fair = fair;
            return this;
        }

        /**
         * How long continuous rejection lasts before one WARN is logged (default 30 s, &gt; 0).
         *
         * @param saturationWarning the duration
         * @return this builder
         */
        public Builder saturationWarning(Duration saturationWarning) {
            this.saturationWarning = saturationWarning;
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
         * The scheduler that ends the waits of asynchronous callers (default {@link Scheduler#system()}).
         * It only hands work to {@link #asyncExecutor(Executor)}; it never runs the user's call.
         *
         * @param scheduler the scheduler
         * @return this builder
         */
        public Builder scheduler(Scheduler scheduler) {
            this.scheduler = scheduler;
            return this;
        }

        /**
         * Where an asynchronous caller that waited for a slot is resumed (default: the common fork-join
         * pool, as {@code CompletableFuture}'s {@code *Async} methods). Its call and every dependent
         * stage start there.
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
         * @return the configuration
         * @throws dev.levee.core.InvalidConfigException if a setting is out of bounds
         */
        public BulkheadConfig build() {
            String policy = POLICY;
            Validate.inRange(policy, "maxConcurrentCalls", maxConcurrentCalls, 1, MAX_CONCURRENT_CALLS_LIMIT);
            Validate.notNull(policy, "maxWait", maxWait);
            Validate.nonNegative(policy, "maxWait", maxWait);
            Validate.check(maxWait.compareTo(MAX_WAIT_LIMIT) <= 0, policy, "maxWait", "<= " + MAX_WAIT_LIMIT, maxWait);
            Validate.notNull(policy, "saturationWarning", saturationWarning);
            Validate.positive(policy, "saturationWarning", saturationWarning);
            Validate.notNull(policy, "ticker", ticker);
            Validate.notNull(policy, "scheduler", scheduler);
            Validate.notNull(policy, "asyncExecutor", asyncExecutor);
            return new BulkheadConfig(this);
        }
    }
}

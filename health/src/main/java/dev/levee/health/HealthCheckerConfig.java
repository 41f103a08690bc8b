package dev.levee.health;

import dev.levee.core.Scheduler;
import dev.levee.core.Ticker;
import dev.levee.core.internal.Validate;
import java.time.Clock;
import java.time.Duration;

/**
 * The immutable configuration of a {@link HealthChecker}: one timeout per level, the size of the pool
 * checks run on, and the injected time sources.
 *
 * <p>The timeouts are seed 000's: liveness 1 s, readiness 5 s, deep 30 s; the seed has no startup
 * level, so startup takes readiness's 5 s. A level's timeout bounds each of its checks (they run
 * concurrently, so it also bounds the level).
 *
 * <table>
 *   <caption>Knobs, defaults and bounds</caption>
 *   <tr><th>knob</th><th>default</th><th>bound</th></tr>
 *   <tr><td>livenessTimeout</td><td>1 s (seed 000)</td><td>(0, 1 day]</td></tr>
 *   <tr><td>readinessTimeout</td><td>5 s (seed 000)</td><td>(0, 1 day]</td></tr>
 *   <tr><td>startupTimeout</td><td>5 s</td><td>(0, 1 day]</td></tr>
 *   <tr><td>deepTimeout</td><td>30 s (seed 000)</td><td>(0, 1 day]</td></tr>
 *   <tr><td>maxConcurrentChecks</td><td>{@value #DEFAULT_MAX_CONCURRENT_CHECKS}</td><td>[1, {@value #MAX_MAX_CONCURRENT_CHECKS}]</td></tr>
 *   <tr><td>latchStartup</td><td>{@value #DEFAULT_LATCH_STARTUP}</td><td>-</td></tr>
 *   <tr><td>ticker</td><td>{@link Ticker#system()}</td><td>not null</td></tr>
 *   <tr><td>scheduler</td><td>{@link Scheduler#system()}</td><td>not null</td></tr>
 *   <tr><td>clock</td><td>{@link Clock#systemUTC()} (report timestamps only)</td><td>not null</td></tr>
 * </table>
 */
public final class HealthCheckerConfig {
    private static final String POLICY = "HealthChecker config";

    /** Default liveness timeout (seed 000). */
    public static final Duration DEFAULT_LIVENESS_TIMEOUT = Duration.ofSeconds(1);
    /** Default readiness timeout (seed 000). */
    public static final Duration DEFAULT_READINESS_TIMEOUT = Duration.ofSeconds(5);
    /** Default startup timeout (readiness's; the seed has no startup level). */
    public static final Duration DEFAULT_STARTUP_TIMEOUT = Duration.ofSeconds(5);
    /** Default deep timeout (seed 000). */
    public static final Duration DEFAULT_DEEP_TIMEOUT = Duration.ofSeconds(30);
    /** Default number of pool threads that run checks. */
    public static final int DEFAULT_MAX_CONCURRENT_CHECKS = 16;
    /** Largest pool. */
    public static final int MAX_MAX_CONCURRENT_CHECKS = 1024;
    /** Default: once the startup level has been HEALTHY, it stays HEALTHY without running its checks. */
    public static final boolean DEFAULT_LATCH_STARTUP = true;
    /** Longest timeout. */
    public static final Duration MAX_TIMEOUT = Duration.ofDays(1);

    private static final HealthCheckerConfig DEFAULTS = builder().build();

    private final Duration livenessTimeout;
    private final Duration readinessTimeout;
    private final Duration startupTimeout;
    private final Duration deepTimeout;
    private final int maxConcurrentChecks;
    private final boolean latchStartup;
    private final Ticker ticker;
    private final Scheduler scheduler;
    private final Clock clock;

    private HealthCheckerConfig(Builder b) {
        this.livenessTimeout = b.livenessTimeout;
        this.readinessTimeout = b.readinessTimeout;
        this.startupTimeout = b.startupTimeout;
        this.deepTimeout = b.deepTimeout;
        this.maxConcurrentChecks = b.maxConcurrentChecks;
        this.latchStartup = b.latchStartup;
        this.ticker = b.ticker;
        this.scheduler = b.scheduler;
        this.clock = b.clock;
    }

    /**
     * The defaults (see the class documentation).
     *
     * @return the shared default config
     */
    public static HealthCheckerConfig defaults() {
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
     * A builder holding this config's values.
     *
     * @return a new builder
     */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.livenessTimeout = livenessTimeout;
        b.readinessTimeout = readinessTimeout;
        b.startupTimeout = startupTimeout;
        b.deepTimeout = deepTimeout;
        b.maxConcurrentChecks = maxConcurrentChecks;
        b.latchStartup = latchStartup;
        b.ticker = ticker;
        b.scheduler = scheduler;
        b.clock = clock;
        return b;
    }

    /**
     * The timeout of a level.
     *
     * @param level the level
     * @return its timeout
     */
    public Duration timeout(HealthLevel level) {
        switch (level) {
            case LIVENESS:
                return livenessTimeout;
            case READINESS:
                return readinessTimeout;
            case STARTUP:
                return startupTimeout;
            default:
                return deepTimeout;
        }
    }

    /**
     * The liveness timeout.
     *
     * @return the timeout
     */
    public Duration livenessTimeout() {
        return livenessTimeout;
    }

    /**
     * The readiness timeout.
     *
     * @return the timeout
     */
    public Duration readinessTimeout() {
        return readinessTimeout;
    }

    /**
     * The startup timeout.
     *
     * @return the timeout
     */
    public Duration startupTimeout() {
        return startupTimeout;
    }

    /**
     * The deep timeout.
     *
     * @return the timeout
     */
    public Duration deepTimeout() {
        return deepTimeout;
    }

    /**
     * The number of pool threads that run checks.
     *
     * @return the pool size
     */
    public int maxConcurrentChecks() {
        return maxConcurrentChecks;
    }

    /**
     * Whether startup latches HEALTHY after its first HEALTHY report.
     *
     * @return true to latch
     */
    public boolean latchStartup() {
        return latchStartup;
    }

    /**
     * The ticker latencies, caches and timeouts are measured on.
     *
     * @return the ticker
     */
    public Ticker ticker() {
        return ticker;
    }

    /**
     * The scheduler timeouts fire on.
     *
     * @return the scheduler
     */
    public Scheduler scheduler() {
        return scheduler;
    }

    /**
     * The wall clock of report timestamps.
     *
     * @return the clock
     */
    public Clock clock() {
        return clock;
    }

    /** Builds a {@link HealthCheckerConfig}; {@link #build()} validates every field. */
    public static final class Builder {
        private Duration livenessTimeout = DEFAULT_LIVENESS_TIMEOUT;
        private Duration readinessTimeout = DEFAULT_READINESS_TIMEOUT;
        private Duration startupTimeout = DEFAULT_STARTUP_TIMEOUT;
        private Duration deepTimeout = DEFAULT_DEEP_TIMEOUT;
        private int maxConcurrentChecks = DEFAULT_MAX_CONCURRENT_CHECKS;
        private boolean latchStartup = DEFAULT_LATCH_STARTUP;
        private Ticker ticker = Ticker.system();
        private Scheduler scheduler = Scheduler.system();
        private Clock clock = Clock.systemUTC();

        private Builder() {}

        /**
         * The liveness timeout.
         *
         * @param value the timeout
         * @return this builder
         */
        public Builder livenessTimeout(Duration value) {
            this.livenessTimeout = value;
            return this;
        }

        /**
         * The readiness timeout.
         *
         * @param value the timeout
         * @return this builder
         */
        public Builder readinessTimeout(Duration value) {
            this.readinessTimeout = value;
            return this;
        }

        /**
         * The startup timeout.
         *
         * @param value the timeout
         * @return this builder
         */
        public Builder startupTimeout(Duration value) {
            this.startupTimeout = value;
            return this;
        }

        /**
         * The deep timeout.
         *
         * @param value the timeout
         * @return this builder
         */
        public Builder deepTimeout(Duration value) {
            this.deepTimeout = value;
            return this;
        }

        /**
         * The number of pool threads that run checks; more checks than threads wait in a queue.
         *
         * @param value the pool size
         * @return this builder
         */
        public Builder maxConcurrentChecks(int value) {
            this.maxConcurrentChecks = value;
            return this;
        }

        /**
         * Whether startup latches HEALTHY after its first HEALTHY report.
         *
         * @param value true to latch
         * @return this builder
         */
        public Builder latchStartup(boolean value) {
            this.latchStartup = value;
            return this;
        }

        /**
         * The ticker.
         *
         * @param value the ticker
         * @return this builder
         */
        public Builder ticker(Ticker value) {
            this.ticker = value;
            return this;
        }

        /**
         * The scheduler timeouts fire on.
         *
         * @param value the scheduler
         * @return this builder
         */
        public Builder scheduler(Scheduler value) {
            this.scheduler = value;
            return this;
        }

        /**
         * The wall clock of report timestamps.
         *
         * @param value the clock
         * @return this builder
         */
        public Builder clock(Clock value) {
            this.clock = value;
            return this;
        }

        /**
         * Validates and builds.
         *
         * @return the config
         * @throws dev.levee.core.InvalidConfigException if a field is out of bounds
         */
        public HealthCheckerConfig build() {
            timeout("livenessTimeout", livenessTimeout);
            timeout("readinessTimeout", readinessTimeout);
            timeout("startupTimeout", startupTimeout);
            timeout("deepTimeout", deepTimeout);
            Validate.inRange(POLICY, "maxConcurrentChecks", maxConcurrentChecks, 1, MAX_MAX_CONCURRENT_CHECKS);
            Validate.notNull(POLICY, "ticker", ticker);
            Validate.notNull(POLICY, "scheduler", scheduler);
            Validate.notNull(POLICY, "clock", clock);
            return new HealthCheckerConfig(this);
        }

        private static void timeout(String field, Duration value) {
            Validate.positive(POLICY, field, value);
            Validate.check(value.compareTo(MAX_TIMEOUT) <= 0, POLICY, field, "<= " + MAX_TIMEOUT, value);
        }
    }
}

package dev.levee.retry;

import dev.levee.core.Deadline;
import dev.levee.core.Ticker;
import dev.levee.core.internal.Validate;
import java.time.Duration;

/**
 * The immutable, nameless configuration of a {@link RetryBudget}. Built by {@link #builder()} (or
 * {@link #toBuilder()}); every field is validated in {@link Builder#build()} with an
 * {@link dev.levee.core.InvalidConfigException} naming the policy ({@code RetryBudget}), field, bound
 * and value.
 *
 * <table>
 *   <caption>Fields, defaults and bounds</caption>
 *   <tr><th>field</th><th>default</th><th>bound</th><th>meaning</th></tr>
 *   <tr><td>{@code retryRatio}</td><td>0.2</td><td>[0, 10]</td>
 *       <td>retries allowed per request deposited in the window (Finagle's {@code percentCanRetry})</td></tr>
 *   <tr><td>{@code minRetriesPerSecond}</td><td>10</td><td>[0, 1e9]</td>
 *       <td>a floor so a low-traffic client can still retry</td></tr>
 *   <tr><td>{@code ttl}</td><td>10 s</td><td>[1 ms, 1 h]</td>
 *       <td>how long a deposit or a withdrawal counts</td></tr>
 *   <tr><td>{@code maxConcurrentRetryRatio}</td><td>off</td><td>[0, 10]</td>
 *       <td>the optional concurrency form: retries in flight at most this fraction of requests in flight</td></tr>
 *   <tr><td>{@code minConcurrentRetries}</td><td>1</td><td>[0, 1e6]</td>
 *       <td>retries in flight always allowed by the concurrency form</td></tr>
 *   <tr><td>{@code ticker}</td><td>{@link Ticker#system()}</td><td>not null</td><td>time source</td></tr>
 * </table>
 *
 * <p>The defaults are Finagle's: 20% extra load in the worst case, at least 10 retries per second.
 */
public final class RetryBudgetConfig {
    /** Default retry ratio: 20%. */
    public static final double DEFAULT_RETRY_RATIO = 0.2;
    /** Default floor: 10 retries per second. */
    public static final double DEFAULT_MIN_RETRIES_PER_SECOND = 10;
    /** Default retries in flight always allowed by the concurrency form: 1. */
    public static final long DEFAULT_MIN_CONCURRENT_RETRIES = 1;
    /** Default time to live of deposits and withdrawals: 10 s. */
    public static final Duration DEFAULT_TTL = Duration.ofSeconds(10);

    private static final String POLICY = "RetryBudget";
    private static final RetryBudgetConfig DEFAULTS = new Builder().build();

    private final double retryRatio;
    private final double minRetriesPerSecond;
    private final long ttlNanos;
    private final double maxConcurrentRetryRatio;
    private final long minConcurrentRetries;
    private final Ticker ticker;

    private RetryBudgetConfig(Builder b) {
        this.retryRatio = b.retryRatio;
        this.minRetriesPerSecond = b.minRetriesPerSecond;
        this.ttlNanos = Deadline.saturatedNanos(b.ttl);
        this.maxConcurrentRetryRatio = b.maxConcurrentRetryRatio;
        this.minConcurrentRetries = b.minConcurrentRetries;
        this.ticker = b.ticker;
    }

    /**
     * Starts a config holding the defaults. Configs are nameless: the name goes to
     * {@link RetryBudget#of(String, RetryBudgetConfig)}.
     *
     * @return a builder holding the defaults
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The default config (Finagle's and seed 003's: 20%, 10/s, 10 s).
     *
     * @return a config with every default
     */
    public static RetryBudgetConfig defaults() {
        return DEFAULTS;
    }

    /**
     * A builder holding this config's values, to derive a variant.
     *
     * @return a new builder
     */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** @return retries allowed per request in the window */
    public double retryRatio() {
        return retryRatio;
    }

    /** @return the floor in retries per second */
    public double minRetriesPerSecond() {
        return minRetriesPerSecond;
    }

    /** @return the time to live of a deposit or withdrawal, in nanoseconds */
    public long ttlNanos() {
        return ttlNanos;
    }

    /** @return the time to live of a deposit or withdrawal */
    public Duration ttl() {
        return Duration.ofNanos(ttlNanos);
    }

    /** @return the concurrency ratio, or NaN when the concurrency form is off */
    public double maxConcurrentRetryRatio() {
        return maxConcurrentRetryRatio;
    }

    /** @return whether the concurrency form is on */
    public boolean limitsConcurrency() {
        return !Double.isNaN(maxConcurrentRetryRatio);
    }

    /** @return retries in flight always allowed by the concurrency form */
    public long minConcurrentRetries() {
        return minConcurrentRetries;
    }

    /** @return the ticker */
    public Ticker ticker() {
        return ticker;
    }

    /** Builds a {@link RetryBudgetConfig}. Not thread-safe. */
    public static final class Builder {
        private double retryRatio = DEFAULT_RETRY_RATIO;
        private double minRetriesPerSecond = DEFAULT_MIN_RETRIES_PER_SECOND;
        private Duration ttl = DEFAULT_TTL;
        private double maxConcurrentRetryRatio = Double.NaN;
        private long minConcurrentRetries = DEFAULT_MIN_CONCURRENT_RETRIES;
        private Ticker ticker = Ticker.system();

        private Builder() {
        }

        private Builder(RetryBudgetConfig c) {
            this.retryRatio = c.retryRatio;
            this.minRetriesPerSecond = c.minRetriesPerSecond;
            this.ttl = Duration.ofNanos(c.ttlNanos);
            this.maxConcurrentRetryRatio = c.maxConcurrentRetryRatio;
            this.minConcurrentRetries = c.minConcurrentRetries;
            this.ticker = c.ticker;
        }

        /**
         * Retries allowed per request deposited within the ttl; 0.2 means at most 20% extra load.
         *
         * @param retryRatio in [0, 10]
         * @return this builder
         */
        public Builder retryRatio(double retryRatio) {
            this.retryRatio = retryRatio;
            return this;
        }

        /**
         * Retries per second always allowed, whatever the traffic.
         *
         * @param minRetriesPerSecond in [0, 1e9]
         * @return this builder
         */
        public Builder minRetriesPerSecond(double minRetriesPerSecond) {
            this.minRetriesPerSecond = minRetriesPerSecond;
            return this;
        }

        /**
         * How long a deposit or a withdrawal counts.
         *
         * @param ttl in [1 ms, 1 h]
         * @return this builder
         */
        public Builder ttl(Duration ttl) {
            this.ttl = ttl;
            return this;
        }

        /**
         * Turns on the concurrency form: a retry may start only while retries in flight stay at most
         * {@code max(minConcurrentRetries, floor(ratio * requestsInFlight))}. Applies in addition to
         * the ratio over the ttl.
         *
         * @param ratio in [0, 10]
         * @param minConcurrentRetries in [0, 1e6]
         * @return this builder
         */
        public Builder maxConcurrentRetries(double ratio, long minConcurrentRetries) {
            this.maxConcurrentRetryRatio = ratio;
            this.minConcurrentRetries = minConcurrentRetries;
            return this;
        }

        /**
         * The time source.
         *
         * @param ticker not null
         * @return this builder
         */
        public Builder ticker(Ticker ticker) {
            this.ticker = ticker;
            return this;
        }

        /**
         * Validates and builds.
         *
         * @return the config
         * @throws dev.levee.core.InvalidConfigException naming the field, bound and value
         */
        public RetryBudgetConfig build() {
            String policy = POLICY;
            Validate.inRange(policy, "retryRatio", retryRatio, 0.0, 10.0);
            Validate.inRange(policy, "minRetriesPerSecond", minRetriesPerSecond, 0.0, 1e9);
            Validate.notNull(policy, "ttl", ttl);
            Validate.check(ttl.compareTo(Duration.ofMillis(1)) >= 0 && ttl.compareTo(Duration.ofHours(1)) <= 0,
                    policy, "ttl", "in [PT0.001S, PT1H]", ttl);
            if (!Double.isNaN(maxConcurrentRetryRatio) || minConcurrentRetries != DEFAULT_MIN_CONCURRENT_RETRIES) {
                Validate.inRange(policy, "maxConcurrentRetryRatio", maxConcurrentRetryRatio, 0.0, 10.0);
                Validate.inRange(policy, "minConcurrentRetries", minConcurrentRetries, 0, 1_000_000);
            }
            Validate.notNull(policy, "ticker", ticker);
            return new RetryBudgetConfig(this);
        }
    }
}

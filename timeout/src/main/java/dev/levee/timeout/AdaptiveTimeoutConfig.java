package dev.levee.timeout;

import dev.levee.core.internal.Validate;
import java.time.Duration;

/**
 * The immutable configuration of an {@link AdaptiveTimeout}; build it with {@link #builder()}.
 *
 * <table>
 *   <caption>Fields</caption>
 *   <tr><th>field</th><th>default</th><th>bound</th><th>effect</th></tr>
 *   <tr><td>{@code percentile}</td><td>0.99</td><td>in (0, 1)</td><td>the latency quantile
 *       tracked</td></tr>
 *   <tr><td>{@code factor}</td><td>1.5</td><td>in [1, 100]</td><td>headroom multiplied onto the
 *       quantile</td></tr>
 *   <tr><td>{@code minTimeout}</td><td>10 ms</td><td>&gt; 0</td><td>the timeout never goes below</td></tr>
 *   <tr><td>{@code maxTimeout}</td><td>5 s</td><td>&ge; minTimeout</td><td>the timeout never goes above; used until
 *       there are enough samples</td></tr>
 *   <tr><td>{@code minSamples}</td><td>100</td><td>&ge; 1 and &le; windowSize</td><td>samples needed
 *       before the estimate is used</td></tr>
 *   <tr><td>{@code windowSize}</td><td>1,000</td><td>in [1, 2^30]</td><td>samples per window; the
 *       estimate covers the last one to two windows</td></tr>
 * </table>
 *
 * <p>Defaults: p99 × 1.5 is the usual "p99 plus headroom" rule; 100 samples make a p99 estimate
 * from at least one tail sample; 1,000 samples per window (seed 000) adapt within a second or two at
 * 1,000 calls/s. Every default is seed 000's.
 */
public final class AdaptiveTimeoutConfig {
    /** Default quantile tracked: p99 (seed 000). */
    public static final double DEFAULT_PERCENTILE = 0.99;
    /** Default headroom on the quantile: × 1.5 (seed 000's buffer factor). */
    public static final double DEFAULT_FACTOR = 1.5;
    /** Default floor of the timeout: 10 ms (seed 000). */
    public static final Duration DEFAULT_MIN_TIMEOUT = Duration.ofMillis(10);
    /** Default ceiling of the timeout, used until there are enough samples: 5 s (seed 000). */
    public static final Duration DEFAULT_MAX_TIMEOUT = Duration.ofSeconds(5);
    /** Default samples needed before the estimate is used: 100 (seed 000). */
    public static final int DEFAULT_MIN_SAMPLES = 100;
    /** Default samples per window: 1,000 (seed 000's window of the last 1,000 latencies). */
    public static final int DEFAULT_WINDOW_SIZE = 1_000;
    private static final String POLICY = "AdaptiveTimeout";

    private final double percentile;
    private final double factor;
    private final Duration minTimeout;
    private final Duration maxTimeout;
    private final int minSamples;
    private final int windowSize;

    private AdaptiveTimeoutConfig(Builder b) {
        this.percentile = b.percentile;
        this.factor = b.factor;
        this.minTimeout = b.minTimeout;
        this.maxTimeout = b.maxTimeout;
        this.minSamples = b.minSamples;
        this.windowSize = b.windowSize;
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
     * The default configuration, every value seed 000's: p99 × 1.5 in [10 ms, 5 s] after 100 samples,
     * windows of 1,000.
     *
     * @return the default configuration
     */
    public static AdaptiveTimeoutConfig defaults() {
        return new Builder().build();
    }

    /**
     * A builder holding this configuration's values, to derive a variant.
     *
     * @return a new builder
     */
    public Builder toBuilder() {
        return new Builder().percentile(percentile).factor(factor).minTimeout(minTimeout).maxTimeout(maxTimeout)
                .minSamples(minSamples).windowSize(windowSize);
    }

    /** @return the tracked quantile, in (0, 1) */
    public double percentile() {
        return percentile;
    }

    /** @return the headroom factor */
    public double factor() {
        return factor;
    }

    /** @return the lower bound of the timeout */
    public Duration minTimeout() {
        return minTimeout;
    }

    /** @return the upper bound of the timeout, used until enough samples arrive */
    public Duration maxTimeout() {
        return maxTimeout;
    }

    /** @return samples needed before the estimate is used */
    public int minSamples() {
        return minSamples;
    }

    /** @return samples per window */
    public int windowSize() {
        return windowSize;
    }

    @Override
    public String toString() {
        return "AdaptiveTimeoutConfig[p" + percentile * 100 + " x " + factor + " in [" + minTimeout + ", " + maxTimeout
                + "], minSamples=" + minSamples + ", windowSize=" + windowSize + "]";
    }

    /** Builds an {@link AdaptiveTimeoutConfig}. Not thread-safe; {@link #build()} validates. */
    public static final class Builder {
        private double percentile = DEFAULT_PERCENTILE;
        private double factor = DEFAULT_FACTOR;
        private Duration minTimeout = DEFAULT_MIN_TIMEOUT;
        private Duration maxTimeout = DEFAULT_MAX_TIMEOUT;
        private int minSamples = DEFAULT_MIN_SAMPLES;
        private int windowSize = DEFAULT_WINDOW_SIZE;

        private Builder() {}

        /**
         * The latency quantile to track (default 0.99; in (0, 1)).
         *
         * @param percentile e.g. 0.99 for p99
         * @return this builder
         */
        public Builder percentile(double percentile) {
            this.percentile = percentile;
            return this;
        }

        /**
         * The headroom multiplied onto the quantile (default 1.5; in [1, 100]).
         *
         * @param factor the factor
         * @return this builder
         */
        public Builder factor(double factor) {
            this.factor = factor;
            return this;
        }

        /**
         * The least timeout (default 10 ms; &gt; 0).
         *
         * @param minTimeout the lower bound
         * @return this builder
         */
        public Builder minTimeout(Duration minTimeout) {
            this.minTimeout = minTimeout;
            return this;
        }

        /**
         * The greatest timeout, and the timeout until enough samples arrive (default 5 s; &ge; minTimeout).
         *
         * @param maxTimeout the upper bound
         * @return this builder
         */
        public Builder maxTimeout(Duration maxTimeout) {
            this.maxTimeout = maxTimeout;
            return this;
        }

        /**
         * Samples needed before the estimate replaces {@code maxTimeout} (default 100; in [1, windowSize]).
         *
         * @param minSamples the count
         * @return this builder
         */
        public Builder minSamples(int minSamples) {
            this.minSamples = minSamples;
            return this;
        }

        /**
         * Samples per window (default 10,000; in [1, 2^30]). The estimate always covers the latest
         * full window plus the one filling, so it forgets old latencies after two windows.
         *
         * @param windowSize the count
         * @return this builder
         */
        public Builder windowSize(int windowSize) {
            this.windowSize = windowSize;
            return this;
        }

        /**
         * Validates and builds.
         *
         * @return the config
         * @throws dev.levee.core.InvalidConfigException naming the field, bound and value
         */
        public AdaptiveTimeoutConfig build() {
            Validate.check(!(percentile > 1 && percentile <= 100), POLICY, "percentile",
                    "a fraction in (0, 1) (" + percentile + " looks like a percent: write " + percentile / 100 + ")",
                    percentile);
            Validate.check(percentile > 0 && percentile < 1, POLICY, "percentile", "in (0, 1)", percentile);
            Validate.inRange(POLICY, "factor", factor, 1.0, 100.0);
            Validate.positive(POLICY, "minTimeout", minTimeout);
            Validate.notNull(POLICY, "maxTimeout", maxTimeout);
            Validate.check(maxTimeout.compareTo(minTimeout) >= 0, POLICY, "maxTimeout", ">= minTimeout (" + minTimeout
                    + ")", maxTimeout);
            Validate.inRange(POLICY, "windowSize", windowSize, 1, 1L << 30);
            Validate.inRange(POLICY, "minSamples", minSamples, 1, windowSize);
            return new AdaptiveTimeoutConfig(this);
        }
    }
}

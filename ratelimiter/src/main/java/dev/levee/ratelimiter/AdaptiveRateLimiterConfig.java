package dev.levee.ratelimiter;

import dev.levee.core.InvalidConfigException;
import dev.levee.core.Sleeper;
import dev.levee.core.Ticker;
import dev.levee.core.internal.Validate;
import java.time.Duration;

/**
 * The immutable configuration of an {@link AdaptiveRateLimiter}. Nameless and shareable (the name goes to
 * the limiter: {@code AdaptiveRateLimiter.of(name, config)}); build with {@link #builder()}, start from
 * {@link #defaults()} or {@link #toBuilder()}.
 *
 * <table>
 *   <caption>Fields, defaults and bounds</caption>
 *   <tr><th>field</th><th>default</th><th>bound</th><th>meaning</th></tr>
 *   <tr><td>minRate</td><td>1/s</td><td>&gt; 0</td><td>the rate is never cut below this</td></tr>
 *   <tr><td>maxRate</td><td>1000/s</td><td>[minRate, 1e9]</td><td>nor raised above this</td></tr>
 *   <tr><td>initialRate</td><td>maxRate / 2</td><td>[minRate, maxRate]</td><td>the rate at start</td></tr>
 *   <tr><td>burst</td><td>10</td><td>[1, 1e6]</td><td>permits available at once (GCRA burst)</td></tr>
 *   <tr><td>adjustInterval</td><td>1 s</td><td>[1 ms, 1 h]</td><td>how often the rate is reconsidered</td></tr>
 *   <tr><td>minSamples</td><td>10</td><td>&ge; 1</td><td>calls needed in an interval to act on it</td></tr>
 *   <tr><td>latencyTolerance</td><td>2.0</td><td>(1, 100]</td><td>cut when mean latency exceeds floor × this</td></tr>
 *   <tr><td>nearFloor</td><td>1.25</td><td>[1, latencyTolerance]</td><td>raise while mean latency stays
 *       under floor × this</td></tr>
 *   <tr><td>errorRateThreshold</td><td>0.05</td><td>[0, 1]</td><td>cut when more than this share of calls
 *       failed</td></tr>
 *   <tr><td>decreaseFactor</td><td>0.75</td><td>(0, 1)</td><td>multiplicative cut</td></tr>
 *   <tr><td>increaseStep</td><td>maxRate / 100</td><td>&gt; 0</td><td>additive raise per interval, in
 *       permits per second</td></tr>
 *   <tr><td>law</td><td>{@link AdaptiveLaw#LATENCY_AIMD}</td><td>not null</td><td>how the rate moves;
 *       {@link AdaptiveLaw#RTT_RATIO} is seed 002's rule (it uses minRate, maxRate, initialRate and burst
 *       only)</td></tr>
 *   <tr><td>ticker, sleeper</td><td>system</td><td>not null</td><td>time sources</td></tr>
 * </table>
 * The shape (additive increase, multiplicative decrease, act only on enough samples) is TCP's
 * congestion control and Netflix concurrency-limits' AIMD applied to a rate; the 0.75 cut is gentler
 * than TCP's 0.5 because a rate limiter usually sits in front of a pool that recovers quickly.
 */
public final class AdaptiveRateLimiterConfig {
    /** The policy named in config errors (a config has no name of its own). */
    static final String POLICY = "AdaptiveRateLimiter";
    /** Default lowest rate: 1 permit per second. */
    public static final double DEFAULT_MIN_RATE = 1.0;
    /** Default highest rate: 1000 permits per second. */
    public static final double DEFAULT_MAX_RATE = 1000.0;
    /** Default burst: 10. */
    public static final long DEFAULT_BURST = 10;
    /** Default adjustment interval: 1 s. */
    public static final Duration DEFAULT_ADJUST_INTERVAL = Duration.ofSeconds(1);
    /** Default calls an interval needs to act on it: 10. */
    public static final long DEFAULT_MIN_SAMPLES = 10;
    /** Default latency ratio to the floor above which the rate is cut: 2. */
    public static final double DEFAULT_LATENCY_TOLERANCE = 2.0;
    /** Default latency ratio to the floor below which the rate is raised: 1.25. */
    public static final double DEFAULT_NEAR_FLOOR = 1.25;
    /** Default failure share above which the rate is cut, a fraction: 0.05. */
    public static final double DEFAULT_ERROR_RATE_THRESHOLD = 0.05;
    /** Default multiplicative cut: 0.75. */
    public static final double DEFAULT_DECREASE_FACTOR = 0.75;
    /** Default law: interval AIMD on latency and failures (why: {@link AdaptiveLaw}). */
    public static final AdaptiveLaw DEFAULT_LAW = AdaptiveLaw.LATENCY_AIMD;

    private final double minRate;
    private final double maxRate;
    private final double initialRate;
    private final long burst;
    private final long adjustIntervalNanos;
    private final long minSamples;
    private final double latencyTolerance;
    private final double nearFloor;
    private final double errorRateThreshold;
    private final double decreaseFactor;
    private final double increaseStep;
    private final AdaptiveLaw law;
    private final Ticker ticker;
    private final Sleeper sleeper;

    private AdaptiveRateLimiterConfig(Builder b, double initialRate, double increaseStep) {
        this.minRate = b.minRate;
        this.maxRate = b.maxRate;
        this.initialRate = initialRate;
        this.burst = b.burst;
        this.adjustIntervalNanos = b.adjustInterval.toNanos();
        this.minSamples = b.minSamples;
        this.latencyTolerance = b.latencyTolerance;
        this.nearFloor = b.nearFloor;
        this.errorRateThreshold = b.errorRateThreshold;
        this.decreaseFactor = b.decreaseFactor;
        this.increaseStep = increaseStep;
        this.law = b.law;
        this.ticker = b.ticker;
        this.sleeper = b.sleeper;
    }

    /**
     * Starts a config from the defaults.
     *
     * @return a builder with the defaults
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The default config.
     *
     * @return a config with every default
     */
    public static AdaptiveRateLimiterConfig defaults() {
        return builder().build();
    }

    /**
     * A builder holding this config's values.
     *
     * @return a builder
     */
    public Builder toBuilder() {
        return new Builder().minRate(minRate).maxRate(maxRate).initialRate(initialRate).burst(burst)
                .adjustInterval(Duration.ofNanos(adjustIntervalNanos)).minSamples(minSamples)
                .latencyTolerance(latencyTolerance).nearFloor(nearFloor).errorRateThreshold(errorRateThreshold)
                .decreaseFactor(decreaseFactor).increaseStep(increaseStep).law(law).ticker(ticker).sleeper(sleeper);
    }

    /** @return the minimum rate, permits per second */
    public double minRate() {
        return minRate;
    }

    /** @return the maximum rate, permits per second */
    public double maxRate() {
        return maxRate;
    }

    /** @return the starting rate, permits per second */
    public double initialRate() {
        return initialRate;
    }

    /** @return the burst */
    public long burst() {
        return burst;
    }

    /** @return the adjustment interval in nanoseconds */
    public long adjustIntervalNanos() {
        return adjustIntervalNanos;
    }

    /** @return calls needed in an interval to act on it */
    public long minSamples() {
        return minSamples;
    }

    /** @return the latency ratio to the floor above which the rate is cut */
    public double latencyTolerance() {
        return latencyTolerance;
    }

    /** @return the latency ratio to the floor below which the rate is raised */
    public double nearFloor() {
        return nearFloor;
    }

    /** @return the failure share above which the rate is cut */
    public double errorRateThreshold() {
        return errorRateThreshold;
    }

    /** @return the multiplicative cut */
    public double decreaseFactor() {
        return decreaseFactor;
    }

    /** @return the additive raise, permits per second */
    public double increaseStep() {
        return increaseStep;
    }

    /** @return the law that moves the rate */
    public AdaptiveLaw law() {
        return law;
    }

    /** @return the ticker */
    public Ticker ticker() {
        return ticker;
    }

    /** @return the sleeper */
    public Sleeper sleeper() {
        return sleeper;
    }

    /** Builds an {@link AdaptiveRateLimiterConfig}. Not thread-safe; {@link #build()} validates. */
    public static final class Builder {
        private double minRate = DEFAULT_MIN_RATE;
        private double maxRate = DEFAULT_MAX_RATE;
        private double initialRate = Double.NaN;
        private long burst = DEFAULT_BURST;
        private Duration adjustInterval = DEFAULT_ADJUST_INTERVAL;
        private long minSamples = DEFAULT_MIN_SAMPLES;
        private double latencyTolerance = DEFAULT_LATENCY_TOLERANCE;
        private double nearFloor = DEFAULT_NEAR_FLOOR;
        private double errorRateThreshold = DEFAULT_ERROR_RATE_THRESHOLD;
        private double decreaseFactor = DEFAULT_DECREASE_FACTOR;
        private double increaseStep = Double.NaN;
        private AdaptiveLaw law = DEFAULT_LAW;
        private Ticker ticker = Ticker.system();
        private Sleeper sleeper = Sleeper.system();

        private Builder() {}

        /**

         * @param minRate permits per second, &gt; 0

         * @return this builder

         */
        public Builder minRate(double minRate) {
            this.minRate = minRate;
            return this;
        }

        /**

         * @param maxRate permits per second, in [minRate, 1e9]

         * @return this builder

         */
        public Builder maxRate(double maxRate) {
            this.maxRate = maxRate;
            return this;
        }

        /**

         * @param initialRate permits per second, in [minRate, maxRate]

         * @return this builder

         */
        public Builder initialRate(double initialRate) {
            this.initialRate = initialRate;
            return this;
        }

        /**

         * @param burst in [1, 1e6]

         * @return this builder

         */
        public Builder burst(long burst) {
            this.burst = burst;
            return this;
        }

        /**

         * @param adjustInterval in [1 ms, 1 h]

         * @return this builder

         */
        public Builder adjustInterval(Duration adjustInterval) {
            this.adjustInterval = adjustInterval;
            return this;
        }

        /**

         * @param minSamples at least 1

         * @return this builder

         */
        public Builder minSamples(long minSamples) {
            this.minSamples = minSamples;
            return this;
        }

        /**

         * @param latencyTolerance in (1, 100]

         * @return this builder

         */
        public Builder latencyTolerance(double latencyTolerance) {
            this.latencyTolerance = latencyTolerance;
            return this;
        }

        /**

         * @param nearFloor in [1, latencyTolerance]

         * @return this builder

         */
        public Builder nearFloor(double nearFloor) {
            this.nearFloor = nearFloor;
            return this;
        }

        /**

         * @param errorRateThreshold in [0, 1]

         * @return this builder

         */
        public Builder errorRateThreshold(double errorRateThreshold) {
            this.errorRateThreshold = errorRateThreshold;
            return this;
        }

        /**

         * @param decreaseFactor in (0, 1)

         * @return this builder

         */
        public Builder decreaseFactor(double decreaseFactor) {
            this.decreaseFactor = decreaseFactor;
            return this;
        }

        /**

         * @param increaseStep permits per second, &gt; 0

         * @return this builder

         */
        public Builder increaseStep(double increaseStep) {
            this.increaseStep = increaseStep;
            return this;
        }

        /**
         * @param law how the rate moves, not null
         * @return this builder
         */
        public Builder law(AdaptiveLaw law) {
            this.law = law;
            return this;
        }

        /**

         * @param ticker not null

         * @return this builder

         */
        public Builder ticker(Ticker ticker) {
            this.ticker = ticker;
            return this;
        }

        /**

         * @param sleeper not null

         * @return this builder

         */
        public Builder sleeper(Sleeper sleeper) {
            this.sleeper = sleeper;
            return this;
        }

        /**
         * Validates and builds.
         *
         * @return the config
         * @throws InvalidConfigException if a field is out of bounds
         */
        public AdaptiveRateLimiterConfig build() {
            String policy = POLICY;
            Validate.positive(policy, "minRate", minRate);
            Validate.inRange(policy, "maxRate", maxRate, minRate, 1e9);
            double initial = Double.isNaN(initialRate) ? maxRate / 2 : initialRate;
            if (Double.isNaN(initialRate) && initial < minRate) {
                initial = minRate;
            }
            Validate.inRange(policy, "initialRate", initial, minRate, maxRate);
            Validate.inRange(policy, "burst", burst, 1, 1_000_000);
            Validate.notNull(policy, "adjustInterval", adjustInterval);
            Validate.check(adjustInterval.compareTo(Duration.ofMillis(1)) >= 0
                    && adjustInterval.compareTo(Duration.ofHours(1)) <= 0, policy, "adjustInterval",
                    "in [PT0.001S, PT1H]", adjustInterval);
            Validate.positive(policy, "minSamples", minSamples);
            Validate.check(latencyTolerance > 1.0 && latencyTolerance <= 100.0, policy, "latencyTolerance",
                    "in (1.0, 100.0]", latencyTolerance);
            Validate.inRange(policy, "nearFloor", nearFloor, 1.0, latencyTolerance);
            if (errorRateThreshold > 1 && errorRateThreshold <= 100) {
                throw new dev.levee.core.InvalidConfigException(policy, "errorRateThreshold", "a fraction in [0, 1] ("
                        + errorRateThreshold + " looks like a percent: write " + errorRateThreshold / 100 + ")",
                        errorRateThreshold);
            }
            Validate.inRange(policy, "errorRateThreshold", errorRateThreshold, 0.0, 1.0);
            Validate.check(decreaseFactor > 0.0 && decreaseFactor < 1.0, policy, "decreaseFactor", "in (0.0, 1.0)",
                    decreaseFactor);
            double step = Double.isNaN(increaseStep) ? maxRate / 100 : increaseStep;
            Validate.positive(policy, "increaseStep", step);
            Validate.notNull(policy, "law", law);
            Validate.notNull(policy, "ticker", ticker);
            Validate.notNull(policy, "sleeper", sleeper);
            return new AdaptiveRateLimiterConfig(this, initial, step);
        }
    }
}

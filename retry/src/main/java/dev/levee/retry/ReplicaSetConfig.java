package dev.levee.retry;

import dev.levee.core.InvalidConfigException;
import dev.levee.core.RandomSource;
import dev.levee.core.Ticker;
import dev.levee.core.internal.Nanos;
import dev.levee.core.internal.Validate;
import java.time.Duration;

/**
 * The immutable configuration of a {@link ReplicaSet}: the selection rule, outlier ejection and the
 * panic threshold. Nameless and shareable (the name and the replicas go to the set:
 * {@code ReplicaSet.of(name, config, replicas)}); build with {@link #builder()}, start from
 * {@link #defaults()} or {@link #toBuilder()}.
 *
 * <table>
 *   <caption>Fields, defaults and bounds</caption>
 *   <tr><th>field</th><th>default</th><th>bound</th><th>meaning</th></tr>
 *   <tr><td>selectionRule</td><td>{@link SelectionRule#PEAK_EWMA}</td><td>not null</td><td>how one
 *       eligible replica is chosen</td></tr>
 *   <tr><td>decayTime</td><td>10 s</td><td>[1 ms, 1 h]</td><td>Peak-EWMA's time constant (Finagle's and
 *       Linkerd's default)</td></tr>
 *   <tr><td>initialLatency</td><td>100 ms</td><td>&gt; 0</td><td>Peak-EWMA's price per call in flight of a
 *       replica with no sample yet</td></tr>
 *   <tr><td>consecutiveFailures</td><td>5</td><td>&ge; 1</td><td>failures in a row that eject a replica
 *       (Envoy's default)</td></tr>
 *   <tr><td>baseEjectionTime</td><td>30 s</td><td>&gt; 0</td><td>ejection time = base × ejections so far
 *       (Envoy's default)</td></tr>
 *   <tr><td>maxEjectionTime</td><td>300 s</td><td>&ge; baseEjectionTime</td><td>the cap on one ejection
 *       (Envoy's default)</td></tr>
 *   <tr><td>maxEjectedShare</td><td>0.1</td><td>[0, 1]</td><td>at most this share of the replicas ejected at
 *       once, and at least one replica when above 0 (Envoy's 10%); 0 turns ejection off</td></tr>
 *   <tr><td>panicThreshold</td><td>0.5</td><td>[0, 1]</td><td>below this healthy share selection ignores
 *       health (Envoy's 50%); 0 turns panic off</td></tr>
 *   <tr><td>failureRateEjection</td><td>true</td><td></td><td>eject replicas whose success rate stands out
 *       below the set's</td></tr>
 *   <tr><td>failureRateInterval</td><td>10 s</td><td>&gt; 0</td><td>how often success rates are compared
 *       (Envoy's interval)</td></tr>
 *   <tr><td>failureRateMinimumCalls</td><td>100</td><td>&ge; 1</td><td>calls a replica needs in an interval
 *       to be compared</td></tr>
 *   <tr><td>failureRateMinimumReplicas</td><td>5</td><td>&ge; 2</td><td>replicas with enough calls needed
 *       to compare at all</td></tr>
 *   <tr><td>failureRateStdevFactor</td><td>1.9</td><td>(0, 100]</td><td>eject below mean − factor ×
 *       standard deviation of the success rates</td></tr>
 *   <tr><td>healthCheckInterval</td><td>1 s</td><td>&gt; 0</td><td>how often a health signal
 *       ({@link ReplicaSet#healthSignal}) is read</td></tr>
 *   <tr><td>ticker, random</td><td>system, thread-local</td><td>not null</td><td>time and randomness</td></tr>
 * </table>
 */
public final class ReplicaSetConfig {
    /** The policy named in config errors (a config has no name of its own). */
    static final String POLICY = "ReplicaSet";
    /** Default selection rule: P2C over Peak-EWMA. */
    public static final SelectionRule DEFAULT_SELECTION_RULE = SelectionRule.PEAK_EWMA;
    /** Default Peak-EWMA time constant: 10 s. */
    public static final Duration DEFAULT_DECAY_TIME = Duration.ofSeconds(10);
    /** Default price per call in flight of a replica with no sample: 100 ms. */
    public static final Duration DEFAULT_INITIAL_LATENCY = Duration.ofMillis(100);
    /** Default consecutive failures that eject a replica: 5. */
    public static final int DEFAULT_CONSECUTIVE_FAILURES = 5;
    /** Default base ejection time: 30 s. */
    public static final Duration DEFAULT_BASE_EJECTION_TIME = Duration.ofSeconds(30);
    /** Default cap on one ejection: 300 s. */
    public static final Duration DEFAULT_MAX_EJECTION_TIME = Duration.ofSeconds(300);
    /** Default largest share of replicas ejected at once, a fraction: 0.1. */
    public static final double DEFAULT_MAX_EJECTED_SHARE = 0.1;
    /** Default healthy share below which selection ignores health, a fraction: 0.5. */
    public static final double DEFAULT_PANIC_THRESHOLD = 0.5;
    /** Default: success-rate outlier ejection on. */
    public static final boolean DEFAULT_FAILURE_RATE_EJECTION = true;
    /** Default interval between success-rate comparisons: 10 s. */
    public static final Duration DEFAULT_FAILURE_RATE_INTERVAL = Duration.ofSeconds(10);
    /** Default calls a replica needs in an interval to be compared: 100. */
    public static final int DEFAULT_FAILURE_RATE_MINIMUM_CALLS = 100;
    /** Default replicas with enough calls needed for a comparison: 5. */
    public static final int DEFAULT_FAILURE_RATE_MINIMUM_REPLICAS = 5;
    /** Default standard-deviation factor of the success-rate rule: 1.9. */
    public static final double DEFAULT_FAILURE_RATE_STDEV_FACTOR = 1.9;
    /** Default interval between reads of a health signal: 1 s. */
    public static final Duration DEFAULT_HEALTH_CHECK_INTERVAL = Duration.ofSeconds(1);

    private final SelectionRule selectionRule;
    private final long decayTimeNanos;
    private final long initialLatencyNanos;
    private final int consecutiveFailures;
    private final long baseEjectionTimeNanos;
    private final long maxEjectionTimeNanos;
    private final double maxEjectedShare;
    private final double panicThreshold;
    private final boolean failureRateEjection;
    private final long failureRateIntervalNanos;
    private final int failureRateMinimumCalls;
    private final int failureRateMinimumReplicas;
    private final double failureRateStdevFactor;
    private final long healthCheckIntervalNanos;
    private final Ticker ticker;
    private final RandomSource random;

    private ReplicaSetConfig(Builder b) {
        this.selectionRule = b.selectionRule;
        this.decayTimeNanos = b.decayTime.toNanos();
        // Durations beyond about 73 years are clamped (Nanos.ARITHMETIC_CAP) so later arithmetic cannot overflow.
        this.initialLatencyNanos = Nanos.ofCapped(b.initialLatency);
        this.consecutiveFailures = b.consecutiveFailures;
        this.baseEjectionTimeNanos = Nanos.ofCapped(b.baseEjectionTime);
        this.maxEjectionTimeNanos = Nanos.ofCapped(b.maxEjectionTime);
        this.maxEjectedShare = b.maxEjectedShare;
        this.panicThreshold = b.panicThreshold;
        this.failureRateEjection = b.failureRateEjection;
        this.failureRateIntervalNanos = Nanos.ofCapped(b.failureRateInterval);
        this.failureRateMinimumCalls = b.failureRateMinimumCalls;
        this.failureRateMinimumReplicas = b.failureRateMinimumReplicas;
        this.failureRateStdevFactor = b.failureRateStdevFactor;
        this.healthCheckIntervalNanos = Nanos.ofCapped(b.healthCheckInterval);
        this.ticker = b.ticker;
        this.random = b.random;
    }

    /**
     * Starts a config from the defaults.
     *
     * @return a builder holding the defaults
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The default config.
     *
     * @return a config with every default
     */
    public static ReplicaSetConfig defaults() {
        return builder().build();
    }

    /**
     * A builder holding this config's values.
     *
     * @return a builder
     */
    public Builder toBuilder() {
        return new Builder().selectionRule(selectionRule).decayTime(Duration.ofNanos(decayTimeNanos))
                .initialLatency(Duration.ofNanos(initialLatencyNanos)).consecutiveFailures(consecutiveFailures)
                .baseEjectionTime(Duration.ofNanos(baseEjectionTimeNanos))
                .maxEjectionTime(Duration.ofNanos(maxEjectionTimeNanos)).maxEjectedShare(maxEjectedShare)
                .panicThreshold(panicThreshold).failureRateEjection(failureRateEjection)
                .failureRateInterval(Duration.ofNanos(failureRateIntervalNanos))
                .failureRateMinimumCalls(failureRateMinimumCalls).failureRateMinimumReplicas(failureRateMinimumReplicas)
                .failureRateStdevFactor(failureRateStdevFactor)
                .healthCheckInterval(Duration.ofNanos(healthCheckIntervalNanos)).ticker(ticker).random(random);
    }

    /** @return the selection rule */
    public SelectionRule selectionRule() {
        return selectionRule;
    }

    /** @return Peak-EWMA's time constant in nanoseconds */
    public long decayTimeNanos() {
        return decayTimeNanos;
    }

    /** @return the price per call in flight of a replica with no sample, in nanoseconds */
    public long initialLatencyNanos() {
        return initialLatencyNanos;
    }

    /** @return failures in a row that eject a replica */
    public int consecutiveFailures() {
        return consecutiveFailures;
    }

    /** @return the base ejection time in nanoseconds */
    public long baseEjectionTimeNanos() {
        return baseEjectionTimeNanos;
    }

    /** @return the cap on one ejection in nanoseconds */
    public long maxEjectionTimeNanos() {
        return maxEjectionTimeNanos;
    }

    /** @return the largest share of replicas ejected at once, a fraction */
    public double maxEjectedShare() {
        return maxEjectedShare;
    }

    /** @return the healthy share below which selection ignores health, a fraction */
    public double panicThreshold() {
        return panicThreshold;
    }

    /** @return whether success-rate outlier ejection is on */
    public boolean failureRateEjection() {
        return failureRateEjection;
    }

    /** @return the interval between success-rate comparisons in nanoseconds */
    public long failureRateIntervalNanos() {
        return failureRateIntervalNanos;
    }

    /** @return calls a replica needs in an interval to be compared */
    public int failureRateMinimumCalls() {
        return failureRateMinimumCalls;
    }

    /** @return replicas with enough calls needed for a comparison */
    public int failureRateMinimumReplicas() {
        return failureRateMinimumReplicas;
    }

    /** @return the standard-deviation factor of the success-rate rule */
    public double failureRateStdevFactor() {
        return failureRateStdevFactor;
    }

    /** @return the interval between reads of a health signal in nanoseconds */
    public long healthCheckIntervalNanos() {
        return healthCheckIntervalNanos;
    }

    /** @return the ticker */
    public Ticker ticker() {
        return ticker;
    }

    /** @return the random source */
    public RandomSource random() {
        return random;
    }

    /**
     * The most replicas of a set of {@code replicas} ejected at once: {@code floor(share × replicas)},
     * at least 1 when the share is above 0.
     *
     * @param replicas the set's size
     * @return the cap
     */
    public int maxEjected(int replicas) {
        if (maxEjectedShare <= 0.0) {
            return 0;
        }
        return Math.max(1, (int) Math.floor(maxEjectedShare * replicas + 1e-9));
    }

    /** Builds a {@link ReplicaSetConfig}. Not thread-safe; {@link #build()} validates every field. */
    public static final class Builder {
        private SelectionRule selectionRule = DEFAULT_SELECTION_RULE;
        private Duration decayTime = DEFAULT_DECAY_TIME;
        private Duration initialLatency = DEFAULT_INITIAL_LATENCY;
        private int consecutiveFailures = DEFAULT_CONSECUTIVE_FAILURES;
        private Duration baseEjectionTime = DEFAULT_BASE_EJECTION_TIME;
        private Duration maxEjectionTime = DEFAULT_MAX_EJECTION_TIME;
        private double maxEjectedShare = DEFAULT_MAX_EJECTED_SHARE;
        private double panicThreshold = DEFAULT_PANIC_THRESHOLD;
        private boolean failureRateEjection = DEFAULT_FAILURE_RATE_EJECTION;
        private Duration failureRateInterval = DEFAULT_FAILURE_RATE_INTERVAL;
        private int failureRateMinimumCalls = DEFAULT_FAILURE_RATE_MINIMUM_CALLS;
        private int failureRateMinimumReplicas = DEFAULT_FAILURE_RATE_MINIMUM_REPLICAS;
        private double failureRateStdevFactor = DEFAULT_FAILURE_RATE_STDEV_FACTOR;
        private Duration healthCheckInterval = DEFAULT_HEALTH_CHECK_INTERVAL;
        private Ticker ticker = Ticker.system();
        private RandomSource random = RandomSource.threadLocal();

        private Builder() {}

        /**
         * @param selectionRule how one eligible replica is chosen
         * @return this builder
         */
        public Builder selectionRule(SelectionRule selectionRule) {
            this.selectionRule = selectionRule;
            return this;
        }

        /**
         * @param decayTime Peak-EWMA's time constant, in [1 ms, 1 h]
         * @return this builder
         */
        public Builder decayTime(Duration decayTime) {
            this.decayTime = decayTime;
            return this;
        }

        /**
         * @param initialLatency Peak-EWMA's price per call in flight of a replica with no sample, &gt; 0
         * @return this builder
         */
        public Builder initialLatency(Duration initialLatency) {
            this.initialLatency = initialLatency;
            return this;
        }

        /**
         * @param consecutiveFailures failures in a row that eject a replica, at least 1
         * @return this builder
         */
        public Builder consecutiveFailures(int consecutiveFailures) {
            this.consecutiveFailures = consecutiveFailures;
            return this;
        }

        /**
         * @param baseEjectionTime the first ejection's length (the n-th lasts n times as long), &gt; 0
         * @return this builder
         */
        public Builder baseEjectionTime(Duration baseEjectionTime) {
            this.baseEjectionTime = baseEjectionTime;
            return this;
        }

        /**
         * @param maxEjectionTime the cap on one ejection, at least baseEjectionTime
         * @return this builder
         */
        public Builder maxEjectionTime(Duration maxEjectionTime) {
            this.maxEjectionTime = maxEjectionTime;
            return this;
        }

        /**
         * @param maxEjectedShare a fraction in [0, 1]: 0.1 is 10%; 0 turns ejection off
         * @return this builder
         */
        public Builder maxEjectedShare(double maxEjectedShare) {
            this.maxEjectedShare = maxEjectedShare;
            return this;
        }

        /**
         * @param panicThreshold a fraction in [0, 1]: 0.5 is 50%; 0 turns panic off
         * @return this builder
         */
        public Builder panicThreshold(double panicThreshold) {
            this.panicThreshold = panicThreshold;
            return this;
        }

        /**
         * @param failureRateEjection whether replicas whose success rate stands out below the set's are ejected
         * @return this builder
         */
        public Builder failureRateEjection(boolean failureRateEjection) {
            this.failureRateEjection = failureRateEjection;
            return this;
        }

        /**
         * @param failureRateInterval how often success rates are compared, &gt; 0
         * @return this builder
         */
        public Builder failureRateInterval(Duration failureRateInterval) {
            this.failureRateInterval = failureRateInterval;
            return this;
        }

        /**
         * @param failureRateMinimumCalls calls a replica needs in an interval to be compared, at least 1
         * @return this builder
         */
        public Builder failureRateMinimumCalls(int failureRateMinimumCalls) {
            this.failureRateMinimumCalls = failureRateMinimumCalls;
            return this;
        }

        /**
         * @param failureRateMinimumReplicas replicas with enough calls needed to compare, at least 2
         * @return this builder
         */
        public Builder failureRateMinimumReplicas(int failureRateMinimumReplicas) {
            this.failureRateMinimumReplicas = failureRateMinimumReplicas;
            return this;
        }

        /**
         * @param failureRateStdevFactor eject below mean − factor × standard deviation, in (0, 100]
         * @return this builder
         */
        public Builder failureRateStdevFactor(double failureRateStdevFactor) {
            this.failureRateStdevFactor = failureRateStdevFactor;
            return this;
        }

        /**
         * @param healthCheckInterval how often a health signal is read, &gt; 0
         * @return this builder
         */
        public Builder healthCheckInterval(Duration healthCheckInterval) {
            this.healthCheckInterval = healthCheckInterval;
            return this;
        }

        /**
         * @param ticker the time source
         * @return this builder
         */
        public Builder ticker(Ticker ticker) {
            this.ticker = ticker;
            return this;
        }

        /**
         * @param random the random source (seed it in tests)
         * @return this builder
         */
        public Builder random(RandomSource random) {
            this.random = random;
            return this;
        }

        /**
         * Validates and builds.
         *
         * @return the config
         * @throws InvalidConfigException naming the field, its bound and the value, if one is out of bounds
         */
        public ReplicaSetConfig build() {
            String p = POLICY;
            Validate.notNull(p, "selectionRule", selectionRule);
            Validate.notNull(p, "decayTime", decayTime);
            Validate.check(decayTime.compareTo(Duration.ofMillis(1)) >= 0 && decayTime.compareTo(Duration.ofHours(1)) <= 0,
                    p, "decayTime", "in [PT0.001S, PT1H]", decayTime);
            Validate.positive(p, "initialLatency", initialLatency);
            Validate.check(consecutiveFailures >= 1, p, "consecutiveFailures", ">= 1", consecutiveFailures);
            Validate.positive(p, "baseEjectionTime", baseEjectionTime);
            Validate.notNull(p, "maxEjectionTime", maxEjectionTime);
            Validate.check(maxEjectionTime.compareTo(baseEjectionTime) >= 0, p, "maxEjectionTime",
                    ">= baseEjectionTime (" + baseEjectionTime + ")", maxEjectionTime);
            fraction(p, "maxEjectedShare", maxEjectedShare);
            fraction(p, "panicThreshold", panicThreshold);
            Validate.positive(p, "failureRateInterval", failureRateInterval);
            Validate.check(failureRateMinimumCalls >= 1, p, "failureRateMinimumCalls", ">= 1", failureRateMinimumCalls);
            Validate.check(failureRateMinimumReplicas >= 2, p, "failureRateMinimumReplicas", ">= 2",
                    failureRateMinimumReplicas);
            Validate.check(failureRateStdevFactor > 0.0 && failureRateStdevFactor <= 100.0, p, "failureRateStdevFactor",
                    "in (0.0, 100.0]", failureRateStdevFactor);
            Validate.positive(p, "healthCheckInterval", healthCheckInterval);
            Validate.notNull(p, "ticker", ticker);
            Validate.notNull(p, "random", random);
            return new ReplicaSetConfig(this);
        }

        private static void fraction(String policy, String field, double value) {
            if (value > 1.0 && value <= 100.0) {
                throw new InvalidConfigException(policy, field, "a fraction in [0, 1] (" + value
                        + " looks like a percent: write " + value / 100 + ")", value);
            }
            Validate.inRange(policy, field, value, 0.0, 1.0);
        }
    }
}

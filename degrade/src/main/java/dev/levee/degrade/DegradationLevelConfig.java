package dev.levee.degrade;

import dev.levee.core.InvalidConfigException;
import dev.levee.core.Ticker;
import dev.levee.core.internal.Validate;
import dev.levee.core.internal.Nanos;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The immutable, nameless configuration of a {@link DegradationLevel}. Build it with {@link #builder()}.
 *
 * <table>
 *   <caption>Settings</caption>
 *   <tr><th>field</th><th>default</th><th>bound</th><th>effect</th></tr>
 *   <tr><td>{@code thresholds}</td><td>{@link #DEFAULT_THRESHOLDS} (0.8, 0.95)</td><td>1 to
 *       {@link #MAX_LEVELS} values, each in (0, 1], strictly ascending</td><td>level {@code i} (1-based)
 *       is entered when the load reaches {@code thresholds[i-1]}</td></tr>
 *   <tr><td>{@code hysteresis}</td><td>{@link #DEFAULT_HYSTERESIS} (0.1)</td><td>[0, 1)</td>
 *       <td>level {@code i} is left only when the load falls below {@code thresholds[i-1] - hysteresis}</td></tr>
 *   <tr><td>{@code recoveryDelay}</td><td>{@link #DEFAULT_RECOVERY_DELAY} (10 s)</td>
 *       <td>[0, {@link #MAX_DURATION}]</td><td>the least time a level is held before stepping down, so a
 *       brief dip does not switch features back on</td></tr>
 *   <tr><td>{@code sampleInterval}</td><td>{@link #DEFAULT_SAMPLE_INTERVAL} (1 s)</td>
 *       <td>(0, {@link #MAX_DURATION}]</td><td>the load is read at most this often</td></tr>
 *   <tr><td>{@code ticker}</td><td>{@link Ticker#system()}</td><td>not null</td><td>time source</td></tr>
 * </table>
 *
 * <p>The first default threshold is seed 000's {@code max_load = 0.8} (the priority shedder starts
 * dropping above it): optional features go first, before requests are shed. Loads are fractions on
 * {@link dev.levee.core.LoadSignal}'s scale, 1.0 meaning at capacity; a threshold above 1 (probably a
 * percent) is refused.
 */
public final class DegradationLevelConfig {
    private static final String POLICY = "DegradationLevel config";

    /** Default {@code thresholds}: level 1 from 0.8, level 2 from 0.95. */
    public static final List<Double> DEFAULT_THRESHOLDS = List.of(0.8, 0.95);
    /** The most levels above {@link DegradationLevel#FULL} accepted. */
    public static final int MAX_LEVELS = 16;
    /** Default {@code hysteresis}: 0.1. */
    public static final double DEFAULT_HYSTERESIS = 0.1;
    /** Default {@code recoveryDelay}: 10 seconds. */
    public static final Duration DEFAULT_RECOVERY_DELAY = Duration.ofSeconds(10);
    /** Default {@code sampleInterval}: 1 second. */
    public static final Duration DEFAULT_SAMPLE_INTERVAL = Duration.ofSeconds(1);
    /** The longest {@code recoveryDelay} and {@code sampleInterval} accepted. */
    public static final Duration MAX_DURATION = Duration.ofHours(1);

    private static final DegradationLevelConfig DEFAULTS = builder().build();

    private final double[] thresholds;
    private final double hysteresis;
    private final Duration recoveryDelay;
    private final Duration sampleInterval;
    private final Ticker ticker;

    private DegradationLevelConfig(Builder b, double[] thresholds) {
        this.thresholds = thresholds.clone();
        this.hysteresis = b.hysteresis;
        this.recoveryDelay = b.recoveryDelay;
        this.sampleInterval = b.sampleInterval;
        this.ticker = b.ticker;
    }

    /**
     * Every default.
     *
     * @return the default config
     */
    public static DegradationLevelConfig defaults() {
        return DEFAULTS;
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
     * A builder holding this config's values.
     *
     * @return a new builder
     */
    public Builder toBuilder() {
        return new Builder().thresholds(thresholds).hysteresis(hysteresis).recoveryDelay(recoveryDelay)
                .sampleInterval(sampleInterval).ticker(ticker);
    }

    /** @return a copy of the entry thresholds, ascending */
    public double[] thresholds() {
        return thresholds.clone();
    }

    /** @return the number of levels above {@link DegradationLevel#FULL} */
    public int levels() {
        return thresholds.length;
    }

    /**
     * @param level a level, 1-based
     * @return the load at which it is entered
     */
    public double threshold(int level) {
        return thresholds[level - 1];
    }

    /** @return how far below its threshold the load must fall to leave a level */
    public double hysteresis() {
        return hysteresis;
    }

    /** @return the least time a level is held before stepping down */
    public Duration recoveryDelay() {
        return recoveryDelay;
    }

    /** @return {@link #recoveryDelay()} in nanoseconds */
    public long recoveryDelayNanos() {
        return Nanos.of(recoveryDelay);
    }

    /** @return how often the load is read at most */
    public Duration sampleInterval() {
        return sampleInterval;
    }

    /** @return {@link #sampleInterval()} in nanoseconds */
    public long sampleIntervalNanos() {
        return Nanos.of(sampleInterval);
    }

    /** @return the time source */
    public Ticker ticker() {
        return ticker;
    }

    @Override
    public String toString() {
        return "DegradationLevelConfig[thresholds=" + Arrays.toString(thresholds) + ", hysteresis=" + hysteresis
                + ", recoveryDelay=" + recoveryDelay + ", sampleInterval=" + sampleInterval + "]";
    }

    /** Builds a {@link DegradationLevelConfig}. Not thread-safe; {@link #build()} validates. */
    public static final class Builder {
        private double @Nullable [] thresholds = DEFAULT_THRESHOLDS.stream().mapToDouble(Double::doubleValue).toArray();
        private double hysteresis = DEFAULT_HYSTERESIS;
        private Duration recoveryDelay = DEFAULT_RECOVERY_DELAY;
        private Duration sampleInterval = DEFAULT_SAMPLE_INTERVAL;
        private Ticker ticker = Ticker.system();

        private Builder() {}

        /**
         * The loads at which levels 1, 2, ... are entered (default 0.8, 0.95).
         *
         * @param thresholds 1 to 16 values in (0, 1], strictly ascending
         * @return this builder
         */
        public Builder thresholds(double @Nullable ... thresholds) {
            this.thresholds = thresholds == null ? null : thresholds.clone();
            return this;
        }

        /**
         * How far below its threshold the load must fall to leave a level (default 0.1).
         *
         * @param hysteresis in [0, 1)
         * @return this builder
         */
        public Builder hysteresis(double hysteresis) {
            this.hysteresis = hysteresis;
            return this;
        }

        /**
         * The least time a level is held before stepping down (default 10 s).
         *
         * @param recoveryDelay in [0, 1 hour]
         * @return this builder
         */
        public Builder recoveryDelay(Duration recoveryDelay) {
            this.recoveryDelay = recoveryDelay;
            return this;
        }

        /**
         * How often the load is read at most (default 1 s).
         *
         * @param sampleInterval in (0, 1 hour]
         * @return this builder
         */
        public Builder sampleInterval(Duration sampleInterval) {
            this.sampleInterval = sampleInterval;
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
         * Validates and builds.
         *
         * @return the config
         * @throws InvalidConfigException naming the field, the bound and the value
         */
        public DegradationLevelConfig build() {
            double[] thresholds = Validate.notNull(POLICY, "thresholds", this.thresholds);
            Validate.inRange(POLICY, "thresholds.length", thresholds.length, 1, MAX_LEVELS);
            for (int i = 0; i < thresholds.length; i++) {
                double t = thresholds[i];
                if (t > 1.0 && t <= 100.0) {
                    throw new InvalidConfigException(POLICY, "thresholds[" + i + "]",
                            "in (0, 1] (a fraction of capacity, not a percent)", t);
                }
                Validate.check(t > 0.0 && t <= 1.0, POLICY, "thresholds[" + i + "]", "in (0, 1]", t);
                if (i > 0) {
                    Validate.check(t > thresholds[i - 1], POLICY, "thresholds[" + i + "]",
                            "> thresholds[" + (i - 1) + "] (" + thresholds[i - 1] + ")", t);
                }
            }
            Validate.check(hysteresis >= 0.0 && hysteresis < 1.0, POLICY, "hysteresis", "in [0, 1)", hysteresis);
            Validate.nonNegative(POLICY, "recoveryDelay", recoveryDelay);
            Validate.check(recoveryDelay.compareTo(MAX_DURATION) <= 0, POLICY, "recoveryDelay", "<= " + MAX_DURATION,
                    recoveryDelay);
            Validate.positive(POLICY, "sampleInterval", sampleInterval);
            Validate.check(sampleInterval.compareTo(MAX_DURATION) <= 0, POLICY, "sampleInterval", "<= " + MAX_DURATION,
                    sampleInterval);
            Validate.notNull(POLICY, "ticker", ticker);
            return new DegradationLevelConfig(this, thresholds);
        }
    }
}

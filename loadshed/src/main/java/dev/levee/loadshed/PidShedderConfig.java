package dev.levee.loadshed;

import dev.levee.core.RandomSource;
import dev.levee.core.Scheduler;
import dev.levee.core.Ticker;
import dev.levee.core.internal.Validate;
import java.time.Duration;
import java.util.function.DoubleSupplier;
import org.jspecify.annotations.Nullable;

/**
 * The immutable, nameless configuration of a {@link PidShedder}.
 *
 * <table>
 *   <caption>Settings (formula and setpoint from seed 000, "PID Controllers in Load Shedding")</caption>
 *   <tr><th>field</th><th>default</th><th>bound</th><th>effect</th></tr>
 *   <tr><td>{@code setpoint}</td><td>{@value #DEFAULT_SETPOINT} (ms)</td><td>finite</td>
 *       <td>the value the measurement is held at (seed 000: p99 latency 200 ms)</td></tr>
 *   <tr><td>{@code measurement}</td><td>the built-in one (below)</td><td>—</td>
 *       <td>any process variable in the setpoint's unit (CPU utilisation, queue delay); read once per update</td></tr>
 *   <tr><td>{@code builtInMeasurement}</td><td>{@code ESTIMATED_LATENCY}</td><td>not null</td>
 *       <td>{@link BuiltInMeasurement}: Little's-law latency estimate, or the p99 of completions</td></tr>
 *   <tr><td>{@code quantile}</td><td>{@value #DEFAULT_QUANTILE}</td><td>(0, 1]</td>
 *       <td>which latency quantile the built-in measurement takes</td></tr>
 *   <tr><td>{@code kp}</td><td>{@value #DEFAULT_KP}</td><td>&gt;= 0, finite</td><td>proportional gain</td></tr>
 *   <tr><td>{@code ki}</td><td>{@value #DEFAULT_KI}</td><td>&gt;= 0, finite</td><td>integral gain</td></tr>
 *   <tr><td>{@code kd}</td><td>{@value #DEFAULT_KD}</td><td>&gt;= 0, finite</td><td>derivative gain</td></tr>
 *   <tr><td>{@code maxIntegral}</td><td>{@value #DEFAULT_MAX_INTEGRAL}</td><td>&gt; 0</td>
 *       <td>anti-windup clamp of the integral, [0, maxIntegral] (seed 000: 100)</td></tr>
 *   <tr><td>{@code outputScale}</td><td>{@value #DEFAULT_OUTPUT_SCALE}</td><td>&gt; 0</td>
 *       <td>the divisor from controller output to probability (seed 000: 1000)</td></tr>
 *   <tr><td>{@code updateInterval}</td><td>{@value #DEFAULT_UPDATE_INTERVAL_MILLIS} ms</td><td>[1 ms, 1 min]</td>
 *       <td>how often the controller runs on the scheduler; never per call</td></tr>
 *   <tr><td>{@code priorityAware}</td><td>{@value #DEFAULT_PRIORITY_AWARE}</td><td>—</td>
 *       <td>true: the rejection share is taken from the lowest priority upward (critical shed last)</td></tr>
 *   <tr><td>{@code retryAfter}</td><td>5 s</td><td>[0, 1 hour]</td><td>the hint in a refusal</td></tr>
 *   <tr><td>{@code random}, {@code scheduler}, {@code ticker}</td><td>thread-local, system, system</td>
 *       <td>not null</td><td>injected randomness, update scheduling and time</td></tr>
 * </table>
 *
 * <p><b>Gains.</b> Seed 000 gives the formula but no gains. The defaults are tuned on the simulated
 * server ({@code PidShedderSimulationTest}) for a latency in milliseconds against the 200 ms setpoint:
 * the integral term alone can reach a full rejection ({@code ki · maxIntegral = outputScale}), so a
 * sustained overload of any size (2×, 3×, 5× measured) is held near the setpoint; {@code kp} makes a
 * 100 ms excess shed 10 % at once; {@code kd} stays zero (it only added swing in the simulation).
 *
 * <p><b>Why the default measurement is an estimate, not the seed's p99.</b> The p99 of completed
 * requests lags by the latency itself (a request reports when it ends). In the simulation at 3× load
 * a controller on it, with these or smaller gains, swung between shedding nothing and shedding
 * everything; on Little's-law estimate {@code inFlight / completion rate} the same gains settle with
 * the p99 at 215–260 ms. The p99 remains available ({@link BuiltInMeasurement#LATENCY_QUANTILE}).
 */
public final class PidShedderConfig {
    /** Default setpoint: 200 (ms of latency, seed 000's p99 target). */
    public static final double DEFAULT_SETPOINT = 200.0;
    /** Default quantile of the built-in measurement: p99 (seed 000). */
    public static final double DEFAULT_QUANTILE = 0.99;
    /** Default proportional gain. */
    public static final double DEFAULT_KP = 1.0;
    /** Default integral gain: {@code ki · maxIntegral = outputScale}. */
    public static final double DEFAULT_KI = 10.0;
    /** Default derivative gain. */
    public static final double DEFAULT_KD = 0.0;
    /** Default integral clamp (seed 000: {@code max(0, min(100, …))}). */
    public static final double DEFAULT_MAX_INTEGRAL = 100.0;
    /** Default output divisor (seed 000: {@code output / 1000.0}). */
    public static final double DEFAULT_OUTPUT_SCALE = 1000.0;
    /** Default update interval in milliseconds. */
    public static final long DEFAULT_UPDATE_INTERVAL_MILLIS = 100;
    /** What the shedder measures when no {@code measurement} is given. */
    public enum BuiltInMeasurement {
        /**
         * The {@code quantile} (p99) of the latencies its permits reported in the last interval, in ms:
         * seed 000's process variable. It lags by the latency itself (a request reports when it ends),
         * which makes a fast controller oscillate; pair it with small gains.
         */
        LATENCY_QUANTILE,
        /**
         * Little's law: {@code inFlight / completion rate}, in ms, the time a request admitted now can
         * expect to spend inside. It reacts at once to a growing backlog, so the default gains settle.
         */
        ESTIMATED_LATENCY
    }

    /** The default built-in measurement (see {@link BuiltInMeasurement#ESTIMATED_LATENCY}). */
    public static final BuiltInMeasurement DEFAULT_BUILT_IN_MEASUREMENT = BuiltInMeasurement.ESTIMATED_LATENCY;

    /** Priority-blind by default, as the seed's controller. */
    public static final boolean DEFAULT_PRIORITY_AWARE = false;
    /** The longest update interval accepted. */
    public static final Duration MAX_UPDATE_INTERVAL = Duration.ofMinutes(1);

    private static final String POLICY = "PidShedder";

    private final double setpoint;
    private final @Nullable DoubleSupplier measurement;
    private final double quantile;
    private final BuiltInMeasurement builtInMeasurement;
    private final double kp;
    private final double ki;
    private final double kd;
    private final double maxIntegral;
    private final double outputScale;
    private final Duration updateInterval;
    private final boolean priorityAware;
    private final Duration retryAfter;
    private final RandomSource random;
    private final Scheduler scheduler;
    private final Ticker ticker;

    private PidShedderConfig(Builder b) {
        this.setpoint = b.setpoint;
        this.measurement = b.measurement;
        this.quantile = b.quantile;
        this.builtInMeasurement = b.builtInMeasurement;
        this.kp = b.kp;
        this.ki = b.ki;
        this.kd = b.kd;
        this.maxIntegral = b.maxIntegral;
        this.outputScale = b.outputScale;
        this.updateInterval = b.updateInterval;
        this.priorityAware = b.priorityAware;
        this.retryAfter = b.retryAfter;
        this.random = b.random;
        this.scheduler = b.scheduler;
        this.ticker = b.ticker;
    }

    /** @return a builder with the defaults */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the defaults (system scheduler and ticker, own p99 latency) */
    public static PidShedderConfig defaults() {
        return builder().build();
    }

    /** @return a builder holding this configuration */
    public Builder toBuilder() {
        Builder b = new Builder().setpoint(setpoint).quantile(quantile).kp(kp).ki(ki).kd(kd).maxIntegral(maxIntegral)
                .outputScale(outputScale).updateInterval(updateInterval).priorityAware(priorityAware)
                .retryAfter(retryAfter).random(random).scheduler(scheduler).ticker(ticker);
        b.measurement = measurement;
        return b;
    }

    /** @return the setpoint */
    public double setpoint() {
        return setpoint;
    }

    /** @return the measurement, or null for the built-in latency quantile */
    public @Nullable DoubleSupplier measurement() {
        return measurement;
    }

    /** @return which built-in measurement is used when no {@code measurement} is given */
    public BuiltInMeasurement builtInMeasurement() {
        return builtInMeasurement;
    }

    /** @return the quantile of the built-in measurement */
    public double quantile() {
        return quantile;
    }

    /** @return the proportional gain */
    public double kp() {
        return kp;
    }

    /** @return the integral gain */
    public double ki() {
        return ki;
    }

    /** @return the derivative gain */
    public double kd() {
        return kd;
    }

    /** @return the integral clamp */
    public double maxIntegral() {
        return maxIntegral;
    }

    /** @return the output divisor */
    public double outputScale() {
        return outputScale;
    }

    /** @return the update interval */
    public Duration updateInterval() {
        return updateInterval;
    }

    /** @return whether shedding goes from the lowest priority up */
    public boolean priorityAware() {
        return priorityAware;
    }

    /** @return the retry-after hint */
    public Duration retryAfter() {
        return retryAfter;
    }

    /** @return the randomness */
    public RandomSource random() {
        return random;
    }

    /** @return the scheduler running updates */
    public Scheduler scheduler() {
        return scheduler;
    }

    /** @return the time source */
    public Ticker ticker() {
        return ticker;
    }

    /** Builds a {@link PidShedderConfig}; {@link #build()} validates. */
    public static final class Builder {
        private double setpoint = DEFAULT_SETPOINT;
        private @Nullable DoubleSupplier measurement;
        private double quantile = DEFAULT_QUANTILE;
        private BuiltInMeasurement builtInMeasurement = DEFAULT_BUILT_IN_MEASUREMENT;
        private double kp = DEFAULT_KP;
        private double ki = DEFAULT_KI;
        private double kd = DEFAULT_KD;
        private double maxIntegral = DEFAULT_MAX_INTEGRAL;
        private double outputScale = DEFAULT_OUTPUT_SCALE;
        private Duration updateInterval = Duration.ofMillis(DEFAULT_UPDATE_INTERVAL_MILLIS);
        private boolean priorityAware = DEFAULT_PRIORITY_AWARE;
        private Duration retryAfter = Duration.ofSeconds(PriorityShedderConfig.DEFAULT_RETRY_AFTER_SECONDS);
        private RandomSource random = RandomSource.threadLocal();
        private Scheduler scheduler = Scheduler.system();
        private Ticker ticker = Ticker.system();

        private Builder() {}

        /**
         * @param setpoint the value to hold the measurement at (default 200)
         * @return this builder
         */
        public Builder setpoint(double setpoint) {
            this.setpoint = setpoint;
            return this;
        }

        /**
         * @param measurement the process variable, read once per update (default: own p99 latency in ms)
         * @return this builder
         */
        public Builder measurement(DoubleSupplier measurement) {
            this.measurement = measurement;
            return this;
        }

        /**
         * @param builtIn which built-in measurement to use when none is given (default estimated latency)
         * @return this builder
         */
        public Builder builtInMeasurement(BuiltInMeasurement builtIn) {
            this.builtInMeasurement = builtIn;
            return this;
        }

        /**
         * @param quantile the built-in measurement's quantile (default 0.99)
         * @return this builder
         */
        public Builder quantile(double quantile) {
            this.quantile = quantile;
            return this;
        }

        /**
         * @param kp proportional gain (default 1.0)
         * @return this builder
         */
        public Builder kp(double kp) {
            this.kp = kp;
            return this;
        }

        /**
         * @param ki integral gain (default 10.0)
         * @return this builder
         */
        public Builder ki(double ki) {
            this.ki = ki;
            return this;
        }

        /**
         * @param kd derivative gain (default 0)
         * @return this builder
         */
        public Builder kd(double kd) {
            this.kd = kd;
            return this;
        }

        /**
         * @param maxIntegral the integral clamp (default 100)
         * @return this builder
         */
        public Builder maxIntegral(double maxIntegral) {
            this.maxIntegral = maxIntegral;
            return this;
        }

        /**
         * @param outputScale output divisor (default 1000)
         * @return this builder
         */
        public Builder outputScale(double outputScale) {
            this.outputScale = outputScale;
            return this;
        }

        /**
         * @param updateInterval how often the controller runs (default 100 ms)
         * @return this builder
         */
        public Builder updateInterval(Duration updateInterval) {
            this.updateInterval = updateInterval;
            return this;
        }

        /**
         * @param priorityAware shed from the lowest priority upward (default false)
         * @return this builder
         */
        public Builder priorityAware(boolean priorityAware) {
            this.priorityAware = priorityAware;
            return this;
        }

        /**
         * @param retryAfter the hint in a refusal (default 5 s)
         * @return this builder
         */
        public Builder retryAfter(Duration retryAfter) {
            this.retryAfter = retryAfter;
            return this;
        }

        /**
         * @param random the randomness of the drop draw (default thread-local)
         * @return this builder
         */
        public Builder random(RandomSource random) {
            this.random = random;
            return this;
        }

        /**
         * @param scheduler runs the updates (default the shared system scheduler)
         * @return this builder
         */
        public Builder scheduler(Scheduler scheduler) {
            this.scheduler = scheduler;
            return this;
        }

        /**
         * @param ticker the time source (default the system ticker)
         * @return this builder
         */
        public Builder ticker(Ticker ticker) {
            this.ticker = ticker;
            return this;
        }

        /**
         * Validates and builds.
         *
         * @return the configuration
         * @throws dev.levee.core.InvalidConfigException naming the field, bound and value
         */
        public PidShedderConfig build() {
            Validate.check(Double.isFinite(setpoint), POLICY, "setpoint", "finite", setpoint);
            Validate.notNull(POLICY, "builtInMeasurement", builtInMeasurement);
            Validate.check(quantile > 0.0 && quantile <= 1.0, POLICY, "quantile",
                    quantile > 1.0 ? "a fraction in (0, 1] (was it given in percent?)" : "a fraction in (0, 1]", quantile);
            gain("kp", kp);
            gain("ki", ki);
            gain("kd", kd);
            Validate.positive(POLICY, "maxIntegral", maxIntegral);
            Validate.positive(POLICY, "outputScale", outputScale);
            Validate.notNull(POLICY, "updateInterval", updateInterval);
            Validate.check(updateInterval.compareTo(Duration.ofMillis(1)) >= 0
                    && updateInterval.compareTo(MAX_UPDATE_INTERVAL) <= 0, POLICY, "updateInterval",
                    "in [1 ms, " + MAX_UPDATE_INTERVAL + "]", updateInterval);
            Validate.nonNegative(POLICY, "retryAfter", retryAfter);
            Validate.check(retryAfter.compareTo(PriorityShedderConfig.MAX_RETRY_AFTER) <= 0, POLICY, "retryAfter",
                    "<= " + PriorityShedderConfig.MAX_RETRY_AFTER, retryAfter);
            Validate.notNull(POLICY, "random", random);
            Validate.notNull(POLICY, "scheduler", scheduler);
            Validate.notNull(POLICY, "ticker", ticker);
            return new PidShedderConfig(this);
        }

        private static void gain(String field, double v) {
            Validate.check(v >= 0.0 && Double.isFinite(v), POLICY, field, ">= 0 and finite", v);
        }
    }
}

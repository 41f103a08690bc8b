package dev.levee.timeout;

import dev.levee.core.Ticker;
import dev.levee.core.internal.Validate;
import java.time.Duration;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * The immutable plan of a {@link TimeoutBudget}: one total spread over a sequence of steps by
 * weight. Build once, {@link TimeoutBudget#of(String, TimeoutBudgetConfig) start} one budget per request.
 *
 * <table>
 *   <caption>Fields</caption>
 *   <tr><th>field</th><th>default</th><th>bound</th><th>effect</th></tr>
 *   <tr><td>{@code total}</td><td>5 s</td><td>&gt; 0</td><td>time for all steps together</td></tr>
 *   <tr><td>{@code weights}</td><td>{@code [1]}</td><td>1 to 1,000 weights, each finite and &gt; 0</td>
 *       <td>the relative share of each step</td></tr>
 *   <tr><td>{@code rollover}</td><td>true</td><td>—</td><td>time a fast step leaves unused goes to the
 *       later steps</td></tr>
 *   <tr><td>{@code ticker}</td><td>{@link Ticker#system()}</td><td>not null</td><td>time source</td></tr>
 * </table>
 */
public final class TimeoutBudgetConfig {
    /** Default total budget: 5 s, seed 003's request timeout. */
    public static final Duration DEFAULT_TOTAL = Duration.ofSeconds(5);
    /** Default: unused time of one step rolls over to the next. */
    public static final boolean DEFAULT_ROLLOVER = true;
    private static final String POLICY = "TimeoutBudget";

    private final Duration total;
    private final double[] weights;
    private final boolean rollover;
    private final Ticker ticker;

    private TimeoutBudgetConfig(Builder b, double[] weights) {
        this.total = b.total;
        this.weights = weights.clone();
        this.rollover = b.rollover;
        this.ticker = b.ticker;
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
     * The default plan: 5 s (seed 003) in one step, with rollover.
     *
     * @return a default configuration
     */
    public static TimeoutBudgetConfig defaults() {
        return builder().build();
    }

    /**
     * A builder holding this configuration's values, to derive a variant.
     *
     * @return a new builder
     */
    public Builder toBuilder() {
        return builder().total(total).weights(weights.clone()).rollover(rollover).ticker(ticker);
    }

    /**
     * {@code steps} equal shares of {@code total}, with rollover.
     *
     * @param total the total; &gt; 0
     * @param steps the number of steps; in [1, 1000]
     * @param ticker the time source
     * @return the config
     */
    public static TimeoutBudgetConfig equalSteps(Duration total, int steps, Ticker ticker) {
        Validate.inRange(POLICY, "steps", steps, 1, 1000);
        double[] w = new double[steps];
        Arrays.fill(w, 1.0);
        return builder().total(total).weights(w).ticker(ticker).build();
    }

    /** @return the total */
    public Duration total() {
        return total;
    }

    /** @return a copy of the weights */
    public double[] weights() {
        return weights.clone();
    }

    /** @return the number of planned steps */
    public int steps() {
        return weights.length;
    }

    double weight(int step) {
        return weights[step];
    }

    /** @return whether unused time rolls over to later steps */
    public boolean rollover() {
        return rollover;
    }

    /** @return the time source */
    public Ticker ticker() {
        return ticker;
    }

    @Override
    public String toString() {
        return "TimeoutBudgetConfig[total=" + total + ", weights=" + Arrays.toString(weights) + ", rollover="
                + rollover + "]";
    }

    /** Builds a {@link TimeoutBudgetConfig}. Not thread-safe; {@link #build()} validates. */
    public static final class Builder {
        private Duration total = DEFAULT_TOTAL;
        private double @Nullable [] weights = {1.0};
        private boolean rollover = DEFAULT_ROLLOVER;
        private Ticker ticker = Ticker.system();

        private Builder() {}

        /**
         * The time for all steps together (default 5 s; &gt; 0).
         *
         * @param total the total
         * @return this builder
         */
        public Builder total(Duration total) {
            this.total = total;
            return this;
        }

        /**
         * The steps' relative shares, in order (default one step; 1 to 1,000 weights, each &gt; 0).
         * {@code weights(1, 3)}: the first step gets a quarter, the second three quarters.
         *
         * @param weights the weights
         * @return this builder
         */
        public Builder weights(double @Nullable ... weights) {
            this.weights = weights == null ? null : weights.clone();
            return this;
        }

        /**
         * Whether time a step leaves unused goes to later steps (default true). With false each step
         * gets exactly its share of the total, or what remains if less.
         *
         * @param rollover true to roll over
         * @return this builder
         */
        public Builder rollover(boolean rollover) {
            this.rollover = rollover;
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
         * @throws dev.levee.core.InvalidConfigException naming the field, bound and value
         */
        public TimeoutBudgetConfig build() {
            Validate.positive(POLICY, "total", total);
            double[] weights = Validate.notNull(POLICY, "weights", this.weights);
            Validate.inRange(POLICY, "weights.length", weights.length, 1, 1000);
            for (int i = 0; i < weights.length; i++) {
                Validate.positive(POLICY, "weights[" + i + "]", weights[i]);
            }
            Validate.notNull(POLICY, "ticker", ticker);
            return new TimeoutBudgetConfig(this, weights);
        }
    }
}

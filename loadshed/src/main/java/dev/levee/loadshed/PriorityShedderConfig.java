package dev.levee.loadshed;

import dev.levee.core.LoadSignal;
import dev.levee.core.Ticker;
import dev.levee.core.internal.Validate;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * The immutable, nameless configuration of a {@link PriorityShedder}.
 *
 * <table>
 *   <caption>Settings (seed 000, {@code PriorityLoadShedder})</caption>
 *   <tr><th>field</th><th>default</th><th>bound</th><th>effect</th></tr>
 *   <tr><td>{@code load}</td><td>none (required)</td><td>not null</td>
 *       <td>the {@link LoadSignal} read on every decision (CPU, in-flight share, queue delay, …)</td></tr>
 *   <tr><td>{@code maxLoad}</td><td>{@value #DEFAULT_MAX_LOAD}</td><td>[0, 1)</td>
 *       <td>below it everything is admitted; above it, {@code overload = (load − maxLoad) / (1 − maxLoad)}</td></tr>
 *   <tr><td>{@code shedLowInFirstStage}</td><td>{@value #DEFAULT_SHED_LOW_IN_FIRST_STAGE}</td><td>—</td>
 *       <td>false: the seed's code (the first stage admits LOW, sheds only levels below it); true: the
 *       seed's comment (the first stage already sheds LOW)</td></tr>
 *   <tr><td>{@code retryAfter}</td><td>{@value #DEFAULT_RETRY_AFTER_SECONDS} s</td><td>[0, 1 hour]</td>
 *       <td>the hint in a refusal (seed 002's {@code Retry-After: 5})</td></tr>
 *   <tr><td>{@code ticker}</td><td>{@link Ticker#system()}</td><td>not null</td><td>the time source</td></tr>
 * </table>
 */
public final class PriorityShedderConfig {
    /** Default maximum load before shedding starts (seed 000: {@code max_load = 0.8}). */
    public static final double DEFAULT_MAX_LOAD = 0.8;
    /** By default the first overload stage admits LOW, as the seed's code does. */
    public static final boolean DEFAULT_SHED_LOW_IN_FIRST_STAGE = false;
    /** Default retry-after hint in seconds (seed 002's 503 carries {@code Retry-After: 5}). */
    public static final long DEFAULT_RETRY_AFTER_SECONDS = 5;
    /** The longest retry-after hint accepted. */
    public static final Duration MAX_RETRY_AFTER = Duration.ofHours(1);

    private static final String POLICY = "PriorityShedder";

    private final LoadSignal load;
    private final double maxLoad;
    private final boolean shedLowInFirstStage;
    private final Duration retryAfter;
    private final Ticker ticker;

    private PriorityShedderConfig(Builder b) {
        this.load = Validate.notNull(POLICY, "load", b.load);
        this.maxLoad = b.maxLoad;
        this.shedLowInFirstStage = b.shedLowInFirstStage;
        this.retryAfter = b.retryAfter;
        this.ticker = b.ticker;
    }

    /**
     * A builder with the defaults; {@code load} must be set.
     *
     * @return the builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /** @return a builder holding this configuration */
    public Builder toBuilder() {
        Builder b = new Builder().maxLoad(maxLoad).shedLowInFirstStage(shedLowInFirstStage).retryAfter(retryAfter)
                .ticker(ticker);
        b.load = load;
        return b;
    }

    /** @return the load signal */
    public LoadSignal load() {
        return load;
    }

    /** @return the load above which shedding starts */
    public double maxLoad() {
        return maxLoad;
    }

    /** @return whether the first stage sheds LOW too */
    public boolean shedLowInFirstStage() {
        return shedLowInFirstStage;
    }

    /** @return the retry-after hint */
    public Duration retryAfter() {
        return retryAfter;
    }

    /** @return the time source */
    public Ticker ticker() {
        return ticker;
    }

    /** Builds a {@link PriorityShedderConfig}; {@link #build()} validates. */
    public static final class Builder {
        private @Nullable LoadSignal load;
        private double maxLoad = DEFAULT_MAX_LOAD;
        private boolean shedLowInFirstStage = DEFAULT_SHED_LOW_IN_FIRST_STAGE;
        private Duration retryAfter = Duration.ofSeconds(DEFAULT_RETRY_AFTER_SECONDS);
        private Ticker ticker = Ticker.system();

        private Builder() {}

        /**
         * @param load the load signal (required)
         * @return this builder
         */
        public Builder load(LoadSignal load) {
            this.load = load;
            return this;
        }

        /**
         * @param maxLoad the load above which shedding starts (default 0.8; a fraction in [0, 1))
         * @return this builder
         */
        public Builder maxLoad(double maxLoad) {
            this.maxLoad = maxLoad;
            return this;
        }

        /**
         * @param shed true to shed LOW already in the first stage (default false)
         * @return this builder
         */
        public Builder shedLowInFirstStage(boolean shed) {
            this.shedLowInFirstStage = shed;
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
        public PriorityShedderConfig build() {
            Validate.notNull(POLICY, "load", load);
            Validate.check(maxLoad >= 0.0 && maxLoad < 1.0, POLICY, "maxLoad",
                    maxLoad > 1.0 ? "a fraction in [0, 1) (was it given in percent?)" : "a fraction in [0, 1)", maxLoad);
            Validate.nonNegative(POLICY, "retryAfter", retryAfter);
            Validate.check(retryAfter.compareTo(MAX_RETRY_AFTER) <= 0, POLICY, "retryAfter", "<= " + MAX_RETRY_AFTER, retryAfter);
            Validate.notNull(POLICY, "ticker", ticker);
            return new PriorityShedderConfig(this);
        }
    }
}

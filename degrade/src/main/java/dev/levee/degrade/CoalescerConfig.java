package dev.levee.degrade;

import dev.levee.core.InvalidConfigException;
import dev.levee.core.RandomSource;
import dev.levee.core.Scheduler;
import dev.levee.core.Ticker;
import dev.levee.core.internal.Validate;
import dev.levee.core.internal.Nanos;
import java.time.Duration;

/**
 * The immutable, nameless configuration of a {@link Coalescer}. Build it with {@link #builder()}.
 *
 * <table>
 *   <caption>Settings</caption>
 *   <tr><th>field</th><th>default</th><th>bound</th><th>effect</th></tr>
 *   <tr><td>{@code maxEntries}</td><td>{@link #DEFAULT_MAX_ENTRIES} (10,000)</td>
 *       <td>[1, {@link #MAX_MAX_ENTRIES}]</td><td>the hard bound on keys in flight (or held); a call
 *       for a new key when it is reached runs on its own, not coalesced</td></tr>
 *   <tr><td>{@code holdWindow}</td><td>{@link #DEFAULT_HOLD_WINDOW} (0: off)</td>
 *       <td>[0, {@link #MAX_HOLD_WINDOW}]</td><td>how long a successful value keeps answering calls
 *       for its key after the load completed (failures are never held)</td></tr>
 *   <tr><td>{@code earlyRefreshBeta}</td><td>{@link #DEFAULT_EARLY_REFRESH_BETA} (1.0)</td>
 *       <td>[0, {@link #MAX_EARLY_REFRESH_BETA}]</td><td>XFetch eagerness for held values: one caller
 *       reloads before the hold window ends while the others are still served; 0 disables</td></tr>
 *   <tr><td>{@code ticker}</td><td>{@link Ticker#system()}</td><td>not null</td><td>hold window,
 *       load durations</td></tr>
 *   <tr><td>{@code scheduler}</td><td>{@link Scheduler#system()}</td><td>not null</td><td>removes held
 *       values at the end of their window</td></tr>
 *   <tr><td>{@code random}</td><td>{@link RandomSource#threadLocal()}</td><td>not null</td><td>XFetch's
 *       draws</td></tr>
 * </table>
 *
 * <p>Seed 000's request coalescer holds nothing after completion, hence the 0 default; beta 1.0 is
 * the XFetch paper's optimum (it matters only when a hold window is set).
 */
public final class CoalescerConfig {
    private static final String POLICY = "Coalescer config";

    /** Default {@code maxEntries}: 10,000 keys. */
    public static final int DEFAULT_MAX_ENTRIES = 10_000;
    /** The largest {@code maxEntries} accepted. */
    public static final int MAX_MAX_ENTRIES = 10_000_000;
    /** Default {@code holdWindow}: zero, nothing is held after completion. */
    public static final Duration DEFAULT_HOLD_WINDOW = Duration.ZERO;
    /** The longest {@code holdWindow} accepted. */
    public static final Duration MAX_HOLD_WINDOW = Duration.ofHours(1);
    /** Default {@code earlyRefreshBeta}: 1.0, the XFetch paper's optimum. */
    public static final double DEFAULT_EARLY_REFRESH_BETA = 1.0;
    /** The largest {@code earlyRefreshBeta} accepted. */
    public static final double MAX_EARLY_REFRESH_BETA = 100.0;

    private static final CoalescerConfig DEFAULTS = builder().build();

    private final int maxEntries;
    private final Duration holdWindow;
    private final long holdWindowNanos;
    private final double earlyRefreshBeta;
    private final Ticker ticker;
    private final Scheduler scheduler;
    private final RandomSource random;

    private CoalescerConfig(Builder b) {
        this.maxEntries = b.maxEntries;
        this.holdWindow = b.holdWindow;
        this.holdWindowNanos = Nanos.of(b.holdWindow);
        this.earlyRefreshBeta = b.earlyRefreshBeta;
        this.ticker = b.ticker;
        this.scheduler = b.scheduler;
        this.random = b.random;
    }

    /**
     * Every default.
     *
     * @return the default config
     */
    public static CoalescerConfig defaults() {
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
        return new Builder().maxEntries(maxEntries).holdWindow(holdWindow).earlyRefreshBeta(earlyRefreshBeta)
                .ticker(ticker).scheduler(scheduler).random(random);
    }

    /** @return the bound on keys in flight or held */
    public int maxEntries() {
        return maxEntries;
    }

    /** @return how long a value keeps answering after its load */
    public Duration holdWindow() {
        return holdWindow;
    }

    /** @return {@link #holdWindow()} in nanoseconds */
    public long holdWindowNanos() {
        return holdWindowNanos;
    }

    /** @return XFetch's beta; 0 disables early refresh */
    public double earlyRefreshBeta() {
        return earlyRefreshBeta;
    }

    /** @return the time source */
    public Ticker ticker() {
        return ticker;
    }

    /** @return the scheduler removing held values */
    public Scheduler scheduler() {
        return scheduler;
    }

    /** @return the random source of XFetch's draws */
    public RandomSource random() {
        return random;
    }

    @Override
    public String toString() {
        return "CoalescerConfig[maxEntries=" + maxEntries + ", holdWindow=" + holdWindow + ", earlyRefreshBeta="
                + earlyRefreshBeta + "]";
    }

    /** Builds a {@link CoalescerConfig}. Not thread-safe; {@link #build()} validates. */
    public static final class Builder {
        private int maxEntries = DEFAULT_MAX_ENTRIES;
        private Duration holdWindow = DEFAULT_HOLD_WINDOW;
        private double earlyRefreshBeta = DEFAULT_EARLY_REFRESH_BETA;
        private Ticker ticker = Ticker.system();
        private Scheduler scheduler = Scheduler.system();
        private RandomSource random = RandomSource.threadLocal();

        private Builder() {}

        /**
         * The bound on keys in flight or held (default 10,000).
         *
         * @param maxEntries in [1, 10,000,000]
         * @return this builder
         */
        public Builder maxEntries(int maxEntries) {
            this.maxEntries = maxEntries;
            return this;
        }

        /**
         * How long a successful value keeps answering calls for its key (default 0: off).
         *
         * @param holdWindow in [0, 1 hour]
         * @return this builder
         */
        public Builder holdWindow(Duration holdWindow) {
            this.holdWindow = holdWindow;
            return this;
        }

        /**
         * XFetch's beta for held values (default 1.0; 0 disables early refresh).
         *
         * @param earlyRefreshBeta in [0, 100]
         * @return this builder
         */
        public Builder earlyRefreshBeta(double earlyRefreshBeta) {
            this.earlyRefreshBeta = earlyRefreshBeta;
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
         * The scheduler removing held values (default {@link Scheduler#system()}).
         *
         * @param scheduler the scheduler
         * @return this builder
         */
        public Builder scheduler(Scheduler scheduler) {
            this.scheduler = scheduler;
            return this;
        }

        /**
         * The random source of XFetch's draws (default {@link RandomSource#threadLocal()}).
         *
         * @param random the source
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
         * @throws InvalidConfigException naming the field, the bound and the value
         */
        public CoalescerConfig build() {
            Validate.inRange(POLICY, "maxEntries", maxEntries, 1, MAX_MAX_ENTRIES);
            Validate.nonNegative(POLICY, "holdWindow", holdWindow);
            Validate.check(holdWindow.compareTo(MAX_HOLD_WINDOW) <= 0, POLICY, "holdWindow", "<= " + MAX_HOLD_WINDOW,
                    holdWindow);
            Validate.inRange(POLICY, "earlyRefreshBeta", earlyRefreshBeta, 0.0, MAX_EARLY_REFRESH_BETA);
            Validate.notNull(POLICY, "ticker", ticker);
            Validate.notNull(POLICY, "scheduler", scheduler);
            Validate.notNull(POLICY, "random", random);
            return new CoalescerConfig(this);
        }
    }
}

package dev.levee.degrade;

import dev.levee.core.InvalidConfigException;
import dev.levee.core.internal.Validate;
import dev.levee.core.internal.Nanos;
import java.time.Duration;

/**
 * The immutable, nameless configuration of a {@link LastKnownGood}. Build it with {@link #builder()}.
 *
 * <table>
 *   <caption>Settings</caption>
 *   <tr><th>field</th><th>default</th><th>bound</th><th>effect</th></tr>
 *   <tr><td>{@code maxStaleness}</td><td>{@link #DEFAULT_MAX_STALENESS} (5 min)</td>
 *       <td>(0, {@link #MAX_MAX_STALENESS}]</td><td>T, the oldest a remembered value may be when
 *       served: a value of age {@code <= T} is served, an older one never</td></tr>
 *   <tr><td>{@code maxEntries}</td><td>{@link #DEFAULT_MAX_ENTRIES} (10,000)</td>
 *       <td>[1, {@link #MAX_MAX_ENTRIES}]</td><td>the hard bound on keys remembered (core's
 *       {@code KeyedRegistry}: idle entries and then the least recently used go first)</td></tr>
 *   <tr><td>{@code fallback}</td><td>{@link FallbackConfig#defaults()}</td><td>not null</td>
 *       <td>which failures serve a remembered value, the WARN interval, the ticker</td></tr>
 * </table>
 *
 * <p>Seed 000 (scenario 2, "bounded staleness") asks for a bound T without giving a number; five
 * minutes suits reference data (prices, profiles, catalogue pages) that changes in minutes. Choose T
 * from what the data's consumers can tolerate, not from how long the outage may last.
 */
public final class LastKnownGoodConfig {
    private static final String POLICY = "LastKnownGood config";

    /** Default {@code maxStaleness}: 5 minutes. */
    public static final Duration DEFAULT_MAX_STALENESS = Duration.ofMinutes(5);
    /** The largest {@code maxStaleness} accepted: 7 days. */
    public static final Duration MAX_MAX_STALENESS = Duration.ofDays(7);
    /** Default {@code maxEntries}: 10,000 keys. */
    public static final int DEFAULT_MAX_ENTRIES = 10_000;
    /** The largest {@code maxEntries} accepted. */
    public static final int MAX_MAX_ENTRIES = 10_000_000;

    private static final LastKnownGoodConfig DEFAULTS = builder().build();

    private final Duration maxStaleness;
    private final long maxStalenessNanos;
    private final int maxEntries;
    private final FallbackConfig fallback;

    private LastKnownGoodConfig(Builder b) {
        this.maxStaleness = b.maxStaleness;
        this.maxStalenessNanos = Nanos.of(b.maxStaleness);
        this.maxEntries = b.maxEntries;
        this.fallback = b.fallback;
    }

    /**
     * Every default.
     *
     * @return the default config
     */
    public static LastKnownGoodConfig defaults() {
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
        return new Builder().maxStaleness(maxStaleness).maxEntries(maxEntries).fallback(fallback);
    }

    /** @return T, the oldest a served value may be */
    public Duration maxStaleness() {
        return maxStaleness;
    }

    /** @return {@link #maxStaleness()} in nanoseconds */
    public long maxStalenessNanos() {
        return maxStalenessNanos;
    }

    /** @return the bound on keys remembered */
    public int maxEntries() {
        return maxEntries;
    }

    /** @return the fallback side: classifier, reasons, WARN interval, ticker */
    public FallbackConfig fallback() {
        return fallback;
    }

    @Override
    public String toString() {
        return "LastKnownGoodConfig[maxStaleness=" + maxStaleness + ", maxEntries=" + maxEntries + ", " + fallback + "]";
    }

    /** Builds a {@link LastKnownGoodConfig}. Not thread-safe; {@link #build()} validates. */
    public static final class Builder {
        private Duration maxStaleness = DEFAULT_MAX_STALENESS;
        private int maxEntries = DEFAULT_MAX_ENTRIES;
        private FallbackConfig fallback = FallbackConfig.defaults();

        private Builder() {}

        /**
         * T: the oldest a remembered value may be when served (default 5 minutes).
         *
         * @param maxStaleness in (0, 7 days]
         * @return this builder
         */
        public Builder maxStaleness(Duration maxStaleness) {
            this.maxStaleness = maxStaleness;
            return this;
        }

        /**
         * The hard bound on keys remembered (default 10,000).
         *
         * @param maxEntries in [1, 10,000,000]
         * @return this builder
         */
        public Builder maxEntries(int maxEntries) {
            this.maxEntries = maxEntries;
            return this;
        }

        /**
         * Which failures serve a remembered value, the WARN interval and the ticker (default
         * {@link FallbackConfig#defaults()}).
         *
         * @param fallback the fallback config
         * @return this builder
         */
        public Builder fallback(FallbackConfig fallback) {
            this.fallback = fallback;
            return this;
        }

        /**
         * Validates and builds.
         *
         * @return the config
         * @throws InvalidConfigException naming the field, the bound and the value
         */
        public LastKnownGoodConfig build() {
            Validate.positive(POLICY, "maxStaleness", maxStaleness);
            Validate.check(maxStaleness.compareTo(MAX_MAX_STALENESS) <= 0, POLICY, "maxStaleness",
                    "<= " + MAX_MAX_STALENESS, maxStaleness);
            Validate.inRange(POLICY, "maxEntries", maxEntries, 1, MAX_MAX_ENTRIES);
            Validate.notNull(POLICY, "fallback", fallback);
            return new LastKnownGoodConfig(this);
        }
    }
}

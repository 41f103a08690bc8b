package dev.levee.bulkhead;

import dev.levee.core.internal.Validate;
import java.time.Duration;

/**
 * The immutable, nameless configuration of a {@link KeyedBulkhead}, built by {@link #builder()}.
 *
 * <table>
 *   <caption>Settings</caption>
 *   <tr><th>field</th><th>default</th><th>bound</th><th>effect</th></tr>
 *   <tr><td>{@code perKey}</td><td>{@link BulkheadConfig#defaults()}</td><td>not null</td>
 *       <td>the configuration of each key's semaphore bulkhead (its ticker also measures idleness)</td></tr>
 *   <tr><td>{@code maxEntries}</td><td>10,000</td><td>[1, 10,000,000]</td>
 *       <td>bulkheads kept at once; beyond it the least recently used key is evicted</td></tr>
 *   <tr><td>{@code idleTimeout}</td><td>10 min</td><td>&gt; 0</td>
 *       <td>a key unused this long may be evicted without space pressure</td></tr>
 * </table>
 */
public final class KeyedBulkheadConfig {
    /** Default bound on keys with a bulkhead: 10,000. */
    public static final int DEFAULT_MAX_ENTRIES = 10_000;
    /** Default idle time before a key's bulkhead may be evicted: 10 min. */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofMinutes(10);
    /** The largest {@code maxEntries} accepted. */
    public static final int MAX_ENTRIES_LIMIT = 10_000_000;

    private static final String POLICY = "KeyedBulkhead";
    private static final KeyedBulkheadConfig DEFAULTS = new Builder().build();

    private final BulkheadConfig perKey;
    private final int maxEntries;
    private final Duration idleTimeout;

    private KeyedBulkheadConfig(Builder b) {
        this.perKey = b.perKey;
        this.maxEntries = b.maxEntries;
        this.idleTimeout = b.idleTimeout;
    }

    /**
     * Starts a configuration with the defaults.
     *
     * @return a builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The default configuration: each key a default bulkhead, 10,000 keys, 10 min idle timeout.
     *
     * @return the shared default configuration
     */
    public static KeyedBulkheadConfig defaults() {
        return DEFAULTS;
    }

    /**
     * A builder holding this configuration's values, to derive a variant.
     *
     * @return a new builder
     */
    public Builder toBuilder() {
        return new Builder().perKey(perKey).maxEntries(maxEntries).idleTimeout(idleTimeout);
    }

    /** @return each key's bulkhead configuration */
    public BulkheadConfig perKey() {
        return perKey;
    }

    /** @return the bound on keys kept */
    public int maxEntries() {
        return maxEntries;
    }

    /** @return how long an unused key is kept */
    public Duration idleTimeout() {
        return idleTimeout;
    }

    @Override
    public String toString() {
        return "KeyedBulkheadConfig[perKey=" + perKey + ", maxEntries=" + maxEntries + ", idleTimeout=" + idleTimeout
                + "]";
    }

    /** Builds a {@link KeyedBulkheadConfig}. Not thread-safe; {@link #build()} validates. */
    public static final class Builder {
        private BulkheadConfig perKey = BulkheadConfig.defaults();
        private int maxEntries = DEFAULT_MAX_ENTRIES;
        private Duration idleTimeout = DEFAULT_IDLE_TIMEOUT;

        private Builder() {}

        /**
         * The configuration of each key's bulkhead (default {@link BulkheadConfig#defaults()}).
         *
         * @param perKey the configuration
         * @return this builder
         */
        public Builder perKey(BulkheadConfig perKey) {
            this.perKey = perKey;
            return this;
        }

        /**
         * The bound on keys with a bulkhead (default 10,000; in [1, 10,000,000]).
         *
         * @param maxEntries the bound
         * @return this builder
         */
        public Builder maxEntries(int maxEntries) {
            this.maxEntries = maxEntries;
            return this;
        }

        /**
         * How long an unused key is kept (default 10 min; &gt; 0).
         *
         * @param idleTimeout the time
         * @return this builder
         */
        public Builder idleTimeout(Duration idleTimeout) {
            this.idleTimeout = idleTimeout;
            return this;
        }

        /**
         * Validates and builds.
         *
         * @return the configuration
         * @throws dev.levee.core.InvalidConfigException if a setting is out of bounds
         */
        public KeyedBulkheadConfig build() {
            Validate.notNull(POLICY, "perKey", perKey);
            Validate.inRange(POLICY, "maxEntries", maxEntries, 1, MAX_ENTRIES_LIMIT);
            Validate.positive(POLICY, "idleTimeout", idleTimeout);
            return new KeyedBulkheadConfig(this);
        }
    }
}

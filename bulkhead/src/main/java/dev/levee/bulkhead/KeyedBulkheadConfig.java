package dev.levee.bulkhead;

import dev.levee.core.Validate;
import java.time.Duration;

/**
 * The immutable configuration of a {@link KeyedBulkhead}, built by {@link #builder(String, BulkheadConfig)}.
 *
 * <table>
 *   <caption>Settings</caption>
 *   <tr><th>field</th><th>default</th><th>bound</th><th>effect</th></tr>
 *   <tr><td>{@code perKey}</td><td>(required)</td><td>not null</td>
 *       <td>the configuration of each key's semaphore bulkhead (its ticker also measures idleness)</td></tr>
 *   <tr><td>{@code maxKeys}</td><td>10,000</td><td>[1, 10,000,000]</td>
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
    /** The largest {@code maxKeys} accepted. */
    public static final int MAX_KEYS_LIMIT = 10_000_000;

    private final String name;
    private final BulkheadConfig perKey;
    private final int maxKeys;
    private final Duration idleTimeout;

    private KeyedBulkheadConfig(Builder b) {
        this.name = b.name;
        this.perKey = b.perKey;
        this.maxKeys = b.maxKeys;
        this.idleTimeout = b.idleTimeout;
    }

    /**
     * Starts a configuration.
     *
     * @param name the keyed bulkhead's name; each key's bulkhead is named {@code name[key]}
     * @param perKey the configuration of each key's bulkhead
     * @return a builder with the defaults
     */
    public static Builder builder(String name, BulkheadConfig perKey) {
        return new Builder(name, perKey);
    }

    /** @return the name */
    public String name() {
        return name;
    }

    /** @return each key's bulkhead configuration */
    public BulkheadConfig perKey() {
        return perKey;
    }

    /** @return the bound on keys kept */
    public int maxKeys() {
        return maxKeys;
    }

    /** @return how long an unused key is kept */
    public Duration idleTimeout() {
        return idleTimeout;
    }

    /** Builds a {@link KeyedBulkheadConfig}. Not thread-safe; {@link #build()} validates. */
    public static final class Builder {
        private final String name;
        private final BulkheadConfig perKey;
        private int maxKeys = DEFAULT_MAX_ENTRIES;
        private Duration idleTimeout = DEFAULT_IDLE_TIMEOUT;

        private Builder(String name, BulkheadConfig perKey) {
            this.name = name;
            this.perKey = perKey;
        }

        /**
         * Bulkheads kept at once (default 10,000; [1, 10,000,000]).
         *
         * @param maxKeys the bound
         * @return this builder
         */
        public Builder maxKeys(int maxKeys) {
            this.maxKeys = maxKeys;
            return this;
        }

        /**
         * How long an unused key is kept (default 10 minutes; &gt; 0).
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
            Validate.name("KeyedBulkhead", name);
            String policy = Validate.describe("KeyedBulkhead", name);
            Validate.notNull(policy, "perKey", perKey);
            Validate.inRange(policy, "maxKeys", maxKeys, 1, MAX_KEYS_LIMIT);
            Validate.positive(policy, "idleTimeout", idleTimeout);
            return new KeyedBulkheadConfig(this);
        }
    }
}

package dev.levee.redis.idempotency;

import dev.levee.circuitbreaker.CircuitBreakerConfig;
import dev.levee.core.InvalidConfigException;
import dev.levee.core.internal.Validate;
import dev.levee.redis.internal.RedisCallDefaults;
import java.time.Duration;

/**
 * The immutable configuration of a {@link RedisIdempotencyStore}: where the records live in Redis, how
 * long a call may take, how large a stored response may be, and the circuit breaker around Redis.
 *
 * <p>Nameless and shareable; the name goes to the store (its logs, events, metrics and breaker). Build
 * with {@link #builder()} (or {@link #defaults()}, {@link #toBuilder()}); {@link Builder#build()}
 * validates every field and names the policy ({@code RedisIdempotencyStore}), the field, the bound and
 * the value. The lease and the time to live are not here: the guard passes them with each call.
 *
 * <table>
 *   <caption>Fields, defaults and bounds</caption>
 *   <tr><th>field</th><th>default</th><th>bound</th><th>meaning</th></tr>
 *   <tr><td>keyPrefix</td><td>{@value #DEFAULT_KEY_PREFIX}</td><td>not null, at most 200 characters</td>
 *       <td>a record's key is {@code keyPrefix + recordKey} (the guard's scope and the client's key)</td></tr>
 *   <tr><td>callTimeout</td><td>100 ms</td><td>[1 ms, 60 s]</td><td>the longest a call waits for Redis
 *       (the {@code EVAL} fallback after {@code NOSCRIPT} included); then the call throws
 *       {@link dev.levee.idempotency.IdempotencyStoreException} and the guard's outage policy
 *       applies</td></tr>
 *   <tr><td>maxResponseBytes</td><td>{@value #DEFAULT_MAX_RESPONSE_BYTES} (1 MiB)</td><td>[64, 512 MiB]</td>
 *       <td>the largest encoded response {@code complete} stores (status, kept headers and body)</td></tr>
 *   <tr><td>storeBreaker</td><td>{@link #DEFAULT_STORE_BREAKER}: open after 3 consecutive failures,
 *       probe after 1 s with one call</td><td>not null</td><td>the circuit breaker around Redis; while it
 *       is open calls fail at once, without a round trip</td></tr>
 * </table>
 */
public final class RedisIdempotencyStoreConfig {
    static final String POLICY = "RedisIdempotencyStore";

    /** The default key prefix. */
    public static final String DEFAULT_KEY_PREFIX = "levee:idem:";
    /** The default call timeout, the shared limits' ({@code RedisRateLimiterConfig.DEFAULT_CALL_TIMEOUT}). */
    public static final Duration DEFAULT_CALL_TIMEOUT = RedisCallDefaults.CALL_TIMEOUT;
    /** The default largest stored response: 1 MiB encoded. */
    public static final int DEFAULT_MAX_RESPONSE_BYTES = 1 << 20;
    /** The smallest {@code maxResponseBytes}: room for a status and a short header. */
    public static final int MIN_MAX_RESPONSE_BYTES = 64;
    /** The largest {@code maxResponseBytes}: Redis's largest string. */
    public static final int MAX_MAX_RESPONSE_BYTES = 512 << 20;
    /**
     * The default breaker around Redis, the shared limits' (a dead store fails every call): opens after
     * 3 consecutive failed calls, probes after 1 s with one call, closes on its success.
     */
    public static final CircuitBreakerConfig DEFAULT_STORE_BREAKER = RedisCallDefaults.STORE_BREAKER;

    private static final RedisIdempotencyStoreConfig DEFAULTS = new Builder().build();

    private final String keyPrefix;
    private final long callTimeoutNanos;
    private final int maxResponseBytes;
    private final CircuitBreakerConfig storeBreaker;

    private RedisIdempotencyStoreConfig(Builder b) {
        this.keyPrefix = b.keyPrefix;
        this.callTimeoutNanos = b.callTimeout.toNanos();
        this.maxResponseBytes = b.maxResponseBytes;
        this.storeBreaker = b.storeBreaker;
    }

    /**
     * A builder with every default.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The config with every default.
     *
     * @return the defaults
     */
    public static RedisIdempotencyStoreConfig defaults() {
        return DEFAULTS;
    }

    /**
     * A builder holding this config's values.
     *
     * @return a new builder
     */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.keyPrefix = keyPrefix;
        b.callTimeout = Duration.ofNanos(callTimeoutNanos);
        b.maxResponseBytes = maxResponseBytes;
        b.storeBreaker = storeBreaker;
        return b;
    }

    /**
     * The prefix of every record's key.
     *
     * @return the prefix
     */
    public String keyPrefix() {
        return keyPrefix;
    }

    /**
     * The longest a call waits for Redis.
     *
     * @return nanoseconds
     */
    public long callTimeoutNanos() {
        return callTimeoutNanos;
    }

    /**
     * The largest encoded response {@code complete} stores.
     *
     * @return bytes
     */
    public int maxResponseBytes() {
        return maxResponseBytes;
    }

    /**
     * The config of the circuit breaker around Redis.
     *
     * @return the breaker config
     */
    public CircuitBreakerConfig storeBreaker() {
        return storeBreaker;
    }

    @Override
    public String toString() {
        return "RedisIdempotencyStoreConfig[keyPrefix=" + keyPrefix + ", callTimeout=" + Duration.ofNanos(callTimeoutNanos)
                + ", maxResponseBytes=" + maxResponseBytes + "]";
    }

    /** Builds a {@link RedisIdempotencyStoreConfig}. Not thread-safe; {@link #build()} validates. */
    public static final class Builder {
        private String keyPrefix = DEFAULT_KEY_PREFIX;
        private Duration callTimeout = DEFAULT_CALL_TIMEOUT;
        private int maxResponseBytes = DEFAULT_MAX_RESPONSE_BYTES;
        private CircuitBreakerConfig storeBreaker = DEFAULT_STORE_BREAKER;

        private Builder() {}

        /**
         * The prefix of every record's key.
         *
         * @param keyPrefix at most 200 characters; default {@value #DEFAULT_KEY_PREFIX}
         * @return this builder
         */
        public Builder keyPrefix(String keyPrefix) {
            this.keyPrefix = keyPrefix;
            return this;
        }

        /**
         * The longest a call waits for Redis.
         *
         * @param callTimeout in [1 ms, 60 s]; default 100 ms
         * @return this builder
         */
        public Builder callTimeout(Duration callTimeout) {
            this.callTimeout = callTimeout;
            return this;
        }

        /**
         * The largest encoded response {@code complete} stores; a larger one is refused with a
         * {@link dev.levee.idempotency.ResponseTooLargeException} and nothing is written.
         *
         * @param maxResponseBytes in [64, 512 MiB]; default 1 MiB
         * @return this builder
         */
        public Builder maxResponseBytes(int maxResponseBytes) {
            this.maxResponseBytes = maxResponseBytes;
            return this;
        }

        /**
         * The circuit breaker around Redis.
         *
         * @param storeBreaker the breaker config; default {@link #DEFAULT_STORE_BREAKER}
         * @return this builder
         */
        public Builder storeBreaker(CircuitBreakerConfig storeBreaker) {
            this.storeBreaker = storeBreaker;
            return this;
        }

        /**
         * Validates and builds.
         *
         * @return the config
         * @throws InvalidConfigException naming the field, bound and value, if a field is out of bounds
         */
        public RedisIdempotencyStoreConfig build() {
            String policy = POLICY;
            Validate.notNull(policy, "keyPrefix", keyPrefix);
            Validate.check(keyPrefix.length() <= 200, policy, "keyPrefix", "at most 200 characters", keyPrefix);
            RedisCallDefaults.checkCallTimeout(policy, callTimeout);
            Validate.inRange(policy, "maxResponseBytes", maxResponseBytes, MIN_MAX_RESPONSE_BYTES, MAX_MAX_RESPONSE_BYTES);
            Validate.notNull(policy, "storeBreaker", storeBreaker);
            return new RedisIdempotencyStoreConfig(this);
        }
    }
}

package dev.levee.redis.ratelimiter;

import dev.levee.circuitbreaker.CircuitBreakerConfig;
import dev.levee.core.InvalidConfigException;
import dev.levee.core.internal.Validate;
import dev.levee.ratelimiter.RateLimitAlgorithm;
import dev.levee.ratelimiter.RateLimiterConfig;
import dev.levee.redis.internal.RedisCallDefaults;
import dev.levee.redis.internal.RedisScript;
import java.time.Duration;

/**
 * The immutable configuration of a {@link RedisRateLimiter}: the rate (a {@link RateLimiterConfig},
 * exactly as for a local limiter), where the state lives in Redis, how long a decision may take, what
 * to do while Redis is unavailable, and the optional lease mode.
 *
 * <p>Nameless and shareable; the name goes to the limiter and into its Redis key. Build with
 * {@link #builder()} (or {@link #defaults()}, {@link #toBuilder()}); {@link Builder#build()} validates
 * every field and names the policy ({@code RedisRateLimiter}), the field, the bound and the value.
 *
 * <table>
 *   <caption>Fields, defaults and bounds</caption>
 *   <tr><th>field</th><th>default</th><th>bound</th><th>meaning</th></tr>
 *   <tr><td>rate</td><td>{@link RateLimiterConfig#defaults()} (GCRA, 100 per second)</td><td>GCRA,
 *       TOKEN_BUCKET, SLIDING_WINDOW_COUNTER (one bucket) or FIXED_WINDOW; no warm-up; at most one permit per
 *       microsecond; period a whole number of microseconds (rounded up)</td><td>algorithm, limit,
 *       period, burst, initialTokens, maxWait, ticker and sleeper, as for a local limiter</td></tr>
 *   <tr><td>keyPrefix</td><td>{@value #DEFAULT_KEY_PREFIX}</td><td>not null, no braces, at most 200
 *       characters</td><td>the key is {@code prefix + "{" + name + "}:" + algorithm}</td></tr>
 *   <tr><td>callTimeout</td><td>100 ms</td><td>[1 ms, 60 s]</td><td>the longest a decision waits for
 *       Redis (the {@code EVAL} fallback included); then the outage policy decides</td></tr>
 *   <tr><td>outagePolicy</td><td>{@link OutagePolicy#LOCAL_FALLBACK}</td><td>not null</td><td>what
 *       to decide while Redis is unavailable</td></tr>
 *   <tr><td>expectedInstances</td><td>{@value #DEFAULT_EXPECTED_INSTANCES}</td><td>[1, 1,000,000]</td>
 *       <td>the local fallback runs at {@code limit / expectedInstances}</td></tr>
 *   <tr><td>storeBreaker</td><td>{@link #DEFAULT_STORE_BREAKER}: open after 3 consecutive failures,
 *       probe after 1 s with one call</td><td>not null</td><td>the circuit breaker around Redis</td></tr>
 *   <tr><td>leaseSize</td><td>0 (off)</td><td>[0, burst] (windows: [0, limit])</td><td>lease mode:
 *       permits taken from Redis per batch and spent locally</td></tr>
 *   <tr><td>leaseRefillThreshold</td><td>{@value #DEFAULT_LEASE_REFILL_THRESHOLD}</td><td>[0, 1]</td>
 *       <td>a lease is refilled asynchronously when the local stock falls to this fraction of
 *       {@code leaseSize}</td></tr>
 * </table>
 */
public final class RedisRateLimiterConfig {
    static final String POLICY = "RedisRateLimiter";

    /** The default key prefix. */
    public static final String DEFAULT_KEY_PREFIX = "levee:rl:";
    /** The default call timeout: far above a healthy Redis round trip (well under a millisecond). */
    public static final Duration DEFAULT_CALL_TIMEOUT = RedisCallDefaults.CALL_TIMEOUT;
    /** The default outage policy: keep limiting, locally. */
    public static final OutagePolicy DEFAULT_OUTAGE_POLICY = OutagePolicy.LOCAL_FALLBACK;
    /** The default expected instance count (the local fallback then runs at the full rate). */
    public static final int DEFAULT_EXPECTED_INSTANCES = 1;
    /** The default lease size: 0, lease mode off (every decision asks Redis). */
    public static final int DEFAULT_LEASE_SIZE = 0;
    /** The default refill threshold of lease mode: refill when half the lease is spent. */
    public static final double DEFAULT_LEASE_REFILL_THRESHOLD = 0.5;
    /**
     * The default breaker around Redis: opens after 3 consecutive failed calls (a dead store fails
     * every call, so a rate over a window of 100 would hammer it far too long), probes after 1 s with
     * one call, closes on its success.
     */
    public static final CircuitBreakerConfig DEFAULT_STORE_BREAKER = RedisCallDefaults.STORE_BREAKER;

    /** The largest {@code burst × T} in microseconds: the scripts' arithmetic is exact below 2^53. */
    static final long MAX_TOLERANCE_MICROS = 1L << 50;

    private static final RedisRateLimiterConfig DEFAULTS = new Builder().build();

    private final RateLimiterConfig rate;
    private final String keyPrefix;
    private final long callTimeoutNanos;
    private final OutagePolicy outagePolicy;
    private final int expectedInstances;
    private final CircuitBreakerConfig storeBreaker;
    private final int leaseSize;
    private final double leaseRefillThreshold;

    private RedisRateLimiterConfig(Builder b) {
        this.rate = b.rate;
        this.keyPrefix = b.keyPrefix;
        this.callTimeoutNanos = b.callTimeout.toNanos();
        this.outagePolicy = b.outagePolicy;
        this.expectedInstances = b.expectedInstances;
        this.storeBreaker = b.storeBreaker;
        this.leaseSize = b.leaseSize;
        this.leaseRefillThreshold = b.leaseRefillThreshold;
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
    public static RedisRateLimiterConfig defaults() {
        return DEFAULTS;
    }

    /**
     * A builder holding this config's values.
     *
     * @return a new builder
     */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.rate = rate;
        b.keyPrefix = keyPrefix;
        b.callTimeout = Duration.ofNanos(callTimeoutNanos);
        b.outagePolicy = outagePolicy;
        b.expectedInstances = expectedInstances;
        b.storeBreaker = storeBreaker;
        b.leaseSize = leaseSize;
        b.leaseRefillThreshold = leaseRefillThreshold;
        return b;
    }

    /**
     * The rate: algorithm, limit, period, burst and time sources.
     *
     * @return the rate config
     */
    public RateLimiterConfig rate() {
        return rate;
    }

    /**
     * The prefix of the limiter's Redis key.
     *
     * @return the prefix
     */
    public String keyPrefix() {
        return keyPrefix;
    }

    /**
     * The longest a decision waits for Redis.
     *
     * @return nanoseconds
     */
    public long callTimeoutNanos() {
        return callTimeoutNanos;
    }

    /**
     * What to decide while Redis is unavailable.
     *
     * @return the policy
     */
    public OutagePolicy outagePolicy() {
        return outagePolicy;
    }

    /**
     * How many instances are expected to share the limit (sizes the local fallback).
     *
     * @return at least 1
     */
    public int expectedInstances() {
        return expectedInstances;
    }

    /**
     * The config of the circuit breaker around Redis.
     *
     * @return the breaker config
     */
    public CircuitBreakerConfig storeBreaker() {
        return storeBreaker;
    }

    /**
     * Permits taken from Redis per batch in lease mode; 0 when lease mode is off.
     *
     * @return at least 0
     */
    public int leaseSize() {
        return leaseSize;
    }

    /**
     * The local stock, as a fraction of the lease size, at which a lease is refilled.
     *
     * @return in [0, 1]
     */
    public double leaseRefillThreshold() {
        return leaseRefillThreshold;
    }

    @Override
    public String toString() {
        return "RedisRateLimiterConfig[rate=" + rate + ", keyPrefix=" + keyPrefix + ", callTimeout="
                + Duration.ofNanos(callTimeoutNanos) + ", outagePolicy=" + outagePolicy + ", expectedInstances="
                + expectedInstances + ", leaseSize=" + leaseSize + ", leaseRefillThreshold=" + leaseRefillThreshold + "]";
    }

    /**
     * The period in whole microseconds, rounded up: the unit of the scripts.
     *
     * @param rate the rate
     * @return microseconds, at least 1
     */
    static long periodMicros(RateLimiterConfig rate) {
        return (rate.periodNanos() + 999) / 1000;
    }

    /**
     * The emission interval of GCRA and the refill interval of the token bucket in whole microseconds,
     * {@code T = ceil(P / L)}: rounded up, so the shared limit never runs faster than configured.
     *
     * @param periodMicros the period
     * @param limit the limit
     * @return microseconds, at least 1
     */
    static long intervalMicros(long periodMicros, long limit) {
        return (periodMicros + limit - 1) / limit;
    }

    /** Builds a {@link RedisRateLimiterConfig}. Not thread-safe; {@link #build()} validates. */
    public static final class Builder {
        private RateLimiterConfig rate = RateLimiterConfig.defaults();
        private String keyPrefix = DEFAULT_KEY_PREFIX;
        private Duration callTimeout = DEFAULT_CALL_TIMEOUT;
        private OutagePolicy outagePolicy = DEFAULT_OUTAGE_POLICY;
        private int expectedInstances = DEFAULT_EXPECTED_INSTANCES;
        private CircuitBreakerConfig storeBreaker = DEFAULT_STORE_BREAKER;
        private int leaseSize = DEFAULT_LEASE_SIZE;
        private double leaseRefillThreshold = DEFAULT_LEASE_REFILL_THRESHOLD;

        private Builder() {}

        /**
         * The rate, as for a local limiter.
         *
         * @param rate GCRA, TOKEN_BUCKET, SLIDING_WINDOW_COUNTER or FIXED_WINDOW, without warm-up
         * @return this builder
         */
        public Builder rate(RateLimiterConfig rate) {
            this.rate = rate;
            return this;
        }

        /**
         * The prefix of the Redis key.
         *
         * @param keyPrefix no braces (the key's hash tag is the limiter's name); default {@value #DEFAULT_KEY_PREFIX}
         * @return this builder
         */
        public Builder keyPrefix(String keyPrefix) {
            this.keyPrefix = keyPrefix;
            return this;
        }

        /**
         * The longest a decision waits for Redis.
         *
         * @param callTimeout in [1 ms, 60 s]; default 100 ms
         * @return this builder
         */
        public Builder callTimeout(Duration callTimeout) {
            this.callTimeout = callTimeout;
            return this;
        }

        /**
         * What to decide while Redis is unavailable.
         *
         * @param outagePolicy the policy; default {@link OutagePolicy#LOCAL_FALLBACK}
         * @return this builder
         */
        public Builder outagePolicy(OutagePolicy outagePolicy) {
            this.outagePolicy = outagePolicy;
            return this;
        }

        /**
         * How many instances share the limit; the local fallback runs at {@code limit / expectedInstances}.
         *
         * @param expectedInstances in [1, 1,000,000]; default {@value #DEFAULT_EXPECTED_INSTANCES}
         * @return this builder
         */
        public Builder expectedInstances(int expectedInstances) {
            this.expectedInstances = expectedInstances;
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
         * Lease mode: permits taken from Redis per batch and spent locally. Over-admission is bounded
         * by {@code instances × leaseSize} permits in any interval (see {@link RedisRateLimiter}).
         *
         * @param leaseSize 0 (off, the default) up to the burst (windows: the limit)
         * @return this builder
         */
        public Builder leaseSize(int leaseSize) {
            this.leaseSize = leaseSize;
            return this;
        }

        /**
         * When to refill a lease: when the local stock falls to this fraction of the lease size.
         *
         * @param fraction in [0, 1]; default {@value #DEFAULT_LEASE_REFILL_THRESHOLD}
         * @return this builder
         */
        public Builder leaseRefillThreshold(double fraction) {
            this.leaseRefillThreshold = fraction;
            return this;
        }

        /**
         * Validates and builds.
         *
         * @return the config
         * @throws InvalidConfigException naming the field, bound and value, if a field is out of bounds
         */
        public RedisRateLimiterConfig build() {
            String policy = POLICY;
            Validate.notNull(policy, "rate", rate);
            RateLimitAlgorithm algorithm = rate.algorithm();
            Validate.check(RedisScript.supports(algorithm), policy, "rate.algorithm",
                    "GCRA, TOKEN_BUCKET, SLIDING_WINDOW_COUNTER or FIXED_WINDOW", algorithm);
            Validate.check(rate.warmUpNanos() == 0, policy, "rate.warmUp", "0 (no warm-up on Redis)",
                    Duration.ofNanos(rate.warmUpNanos()));
            Validate.check(rate.buckets() == 1, policy, "rate.buckets",
                    "1 (the Redis sliding-window counter is the classic two-window one)", rate.buckets());
            long periodMicros = periodMicros(rate);
            Validate.check(rate.limit() <= periodMicros, policy, "rate.limit",
                    "<= period in microseconds (" + periodMicros + "): at most one permit per microsecond", rate.limit());
            boolean window = algorithm == RateLimitAlgorithm.FIXED_WINDOW
                    || algorithm == RateLimitAlgorithm.SLIDING_WINDOW_COUNTER;
            long interval = intervalMicros(periodMicros, rate.limit());
            if (!window) {
                Validate.check(rate.burst() <= MAX_TOLERANCE_MICROS / interval, policy, "rate.burst",
                        "<= " + (MAX_TOLERANCE_MICROS / interval) + " (burst × interval in µs must stay below 2^50)",
                        rate.burst());
            }
            Validate.notNull(policy, "keyPrefix", keyPrefix);
            Validate.check(keyPrefix.indexOf('{') < 0 && keyPrefix.indexOf('}') < 0 && keyPrefix.length() <= 200,
                    policy, "keyPrefix", "no braces and at most 200 characters", keyPrefix);
            RedisCallDefaults.checkCallTimeout(policy, callTimeout);
            Validate.notNull(policy, "outagePolicy", outagePolicy);
            Validate.inRange(policy, "expectedInstances", expectedInstances, 1, 1_000_000);
            Validate.notNull(policy, "storeBreaker", storeBreaker);
            long maxLease = Math.min(Integer.MAX_VALUE, window ? rate.limit() : rate.burst());
            Validate.inRange(policy, "leaseSize", leaseSize, 0, maxLease);
            Validate.inRange(policy, "leaseRefillThreshold", leaseRefillThreshold, 0.0, 1.0);
            return new RedisRateLimiterConfig(this);
        }
    }
}

package dev.levee.ratelimiter;

import dev.levee.core.Deadline;
import dev.levee.core.InvalidConfigException;
import dev.levee.core.Scheduler;
import dev.levee.core.Sleeper;
import dev.levee.core.internal.AsyncWaitQueue;
import java.util.concurrent.Executor;
import dev.levee.core.Ticker;
import dev.levee.core.internal.Validate;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * The immutable configuration of a {@link RateLimiter}: which algorithm, how many permits per period,
 * how large a burst, how long a caller may wait, optional warm-up, and the time sources.
 *
 * <p>Nameless and shareable: the name goes to the limiter ({@code RateLimiter.of(name, config)}), so one
 * config serves many limiters. Build with {@link #builder()} (or start from {@link #defaults()} or
 * {@link #toBuilder()}); {@link Builder#build()} validates every field and names the policy
 * ({@code RateLimiter}), the field, the bound and the value in its {@link InvalidConfigException},
 * nulls included. Each default is a {@code DEFAULT_*} constant; {@code docs/ratelimiter.md} has the
 * "seed default — Levee default — why" table.
 *
 * <table>
 *   <caption>Fields, defaults and bounds</caption>
 *   <tr><th>field</th><th>default</th><th>bound</th><th>meaning</th></tr>
 *   <tr><td>algorithm</td><td>GCRA</td><td>any</td><td>see {@link RateLimitAlgorithm}</td></tr>
 *   <tr><td>limit</td><td>100</td><td>[1, 1,000,000,000]; window and log algorithms
 *       [1, {@value #MAX_WINDOW_LIMIT}]</td><td>permits per period</td></tr>
 *   <tr><td>period</td><td>1 s</td><td>[1 µs, 366 days]</td><td>the period of the limit (the window
 *       of window algorithms)</td></tr>
 *   <tr><td>burst</td><td>= limit</td><td>[1, 1,000,000,000]</td><td>permits available at once
 *       (GCRA, token bucket capacity); ignored by windows and the leaky bucket</td></tr>
 *   <tr><td>initialTokens</td><td>= burst (a full bucket, seed 002)</td><td>[0, burst]; token bucket
 *       only</td><td>tokens a new token bucket holds</td></tr>
 *   <tr><td>maxWait</td><td>0 (leaky bucket: 1 s)</td><td>&ge; 0</td><td>how long a call through
 *       the policy may wait for a permit</td></tr>
 *   <tr><td>warmUp</td><td>0 (off)</td><td>&ge; 0; GCRA and leaky bucket only</td><td>a new limiter
 *       ramps from {@code limit / coldFactor} to {@code limit} over this time</td></tr>
 *   <tr><td>buckets</td><td>1</td><td>[1, {@value #MAX_BUCKETS}], window / buckets &ge; 1 µs;
 *       SLIDING_WINDOW_COUNTER only</td><td>sub-window buckets per window: 1 is the classic two-window
 *       counter; k &gt; 1 bounds the estimate's error by one bucket's permits (formula and bound on
 *       {@link RateLimitAlgorithm#SLIDING_WINDOW_COUNTER})</td></tr>
 *   <tr><td>coldFactor</td><td>3.0</td><td>[1, 100]</td><td>how much slower a cold limiter
 *       starts</td></tr>
 *   <tr><td>ticker, sleeper</td><td>system</td><td>not null</td><td>time sources</td></tr>
 *   <tr><td>scheduler</td><td>{@link Scheduler#system()}</td><td>not null</td><td>times the waits of
 *       asynchronous callers ({@code executeAsync} with a {@code maxWait}); never blocks a thread</td></tr>
 *   <tr><td>asyncExecutor</td><td>the common fork-join pool</td><td>not null</td><td>where an
 *       asynchronous caller that waited is resumed; its call never runs on the scheduler's thread</td></tr>
 * </table>
 *
 * <p>The default limit (100 per second, burst 100, no waiting) is a starting point for an API
 * client; the default of not waiting follows the advice to fail fast and let the caller decide
 * (a thread parked in a limiter holds its resources).
 */
public final class RateLimiterConfig {
    /** The largest limit of the window and log algorithms (their state packs counts into bits). */
    public static final long MAX_WINDOW_LIMIT = 1_000_000L;
    /** The largest limit and burst of the continuous algorithms. */
    public static final long MAX_LIMIT = 1_000_000_000L;
    static final long MIN_PERIOD_NANOS = 1_000L;
    static final long MAX_PERIOD_NANOS = Duration.ofDays(366).toNanos();
    /** The policy named in config errors (a config has no name of its own). */
    static final String POLICY = "RateLimiter";

    /** Default algorithm: GCRA (seed 000: "GCRA … handles rate limiting with sub-millisecond precision"). */
    public static final RateLimitAlgorithm DEFAULT_ALGORITHM = RateLimitAlgorithm.GCRA;
    /** Default sub-window buckets per window of the sliding-window counter: 1 (the classic counter). */
    public static final int DEFAULT_BUCKETS = 1;
    /** The most sub-window buckets per window. */
    public static final int MAX_BUCKETS = 1_000;
    /** Default limit: 100 permits per period. */
    public static final long DEFAULT_LIMIT = 100;
    /** Default period: 1 s. */
    public static final Duration DEFAULT_PERIOD = Duration.ofSeconds(1);
    /** Default wait of a call through the policy: none (fail fast). */
    public static final Duration DEFAULT_MAX_WAIT = Duration.ZERO;
    /** Default wait of the leaky bucket, whose point is queueing: 1 s. */
    public static final Duration DEFAULT_LEAKY_BUCKET_MAX_WAIT = Duration.ofSeconds(1);
    /** Default warm-up: none. */
    public static final Duration DEFAULT_WARM_UP = Duration.ZERO;
    /** Default cold factor of a warming limiter: 3 (Guava's). */
    public static final double DEFAULT_COLD_FACTOR = 3.0;

    private static final RateLimiterConfig DEFAULTS = builder().build();

    private final RateLimitAlgorithm algorithm;
    private final long limit;
    private final long periodNanos;
    private final long burst;
    private final long initialTokens;
    private final long maxWaitNanos;
    private final long warmUpNanos;
    private final double coldFactor;
    private final int buckets;
    private final Ticker ticker;
    private final Sleeper sleeper;
    private final Scheduler scheduler;
    private final Executor asyncExecutor;

    private RateLimiterConfig(Builder b, long burst, long initialTokens, long maxWaitNanos) {
        this.algorithm = b.algorithm;
        this.limit = b.limit;
        this.periodNanos = b.period.toNanos();
        this.burst = burst;
        this.initialTokens = initialTokens;
        this.maxWaitNanos = maxWaitNanos;
        this.warmUpNanos = b.warmUp.toNanos();
        this.coldFactor = b.coldFactor;
        this.buckets = b.buckets;
        this.ticker = b.ticker;
        this.sleeper = b.sleeper;
        this.scheduler = b.scheduler;
        this.asyncExecutor = b.asyncExecutor;
    }

    /**
     * Starts a config from the defaults.
     *
     * @return a builder with the defaults
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The default config: GCRA, 100 per second, burst 100, no waiting.
     *
     * @return the shared default config
     */
    public static RateLimiterConfig defaults() {
        return DEFAULTS;
    }

    /**
     * A builder holding this config's values, to derive a variant.
     *
     * @return a builder
     */
    public Builder toBuilder() {
        Builder b = new Builder()
                .algorithm(algorithm)
                .limit(limit)
                .period(Duration.ofNanos(periodNanos))
                .maxWait(Duration.ofNanos(maxWaitNanos))
                .warmUp(Duration.ofNanos(warmUpNanos))
                .coldFactor(coldFactor)
                .buckets(buckets)
                .ticker(ticker)
                .sleeper(sleeper)
                .scheduler(scheduler)
                .asyncExecutor(asyncExecutor);
        b.burst = burst;
        if (algorithm == RateLimitAlgorithm.TOKEN_BUCKET && initialTokens != burst) {
            b.initialTokens = initialTokens; // set by the user: keep it (a full bucket follows the burst)
        }
        return b;
    }

    /** @return sub-window buckets per window (sliding-window counter; 1 otherwise) */
    public int buckets() {
        return buckets;
    }

    /** @return the algorithm */
    public RateLimitAlgorithm algorithm() {
        return algorithm;
    }

    /** @return permits per period */
    public long limit() {
        return limit;
    }

    /** @return the period in nanoseconds */
    public long periodNanos() {
        return periodNanos;
    }

    /** @return the period */
    public Duration period() {
        return Duration.ofNanos(periodNanos);
    }

    /** @return permits available at once (bucket capacity) */
    public long burst() {
        return burst;
    }

    /** @return tokens a new token bucket holds (the burst unless set) */
    public long initialTokens() {
        return initialTokens;
    }

    /** @return how long a call through the policy may wait, in nanoseconds */
    public long maxWaitNanos() {
        return maxWaitNanos;
    }

    /** @return the warm-up period in nanoseconds, 0 if off */
    public long warmUpNanos() {
        return warmUpNanos;
    }

    /** @return how much slower a cold limiter starts */
    public double coldFactor() {
        return coldFactor;
    }

    /** @return the ticker */
    public Ticker ticker() {
        return ticker;
    }

    /** @return the sleeper */
    public Sleeper sleeper() {
        return sleeper;
    }

    /** @return the scheduler that times asynchronous waits */
    public Scheduler scheduler() {
        return scheduler;
    }

    /** @return the executor asynchronous callers resume on after a wait */
    public Executor asyncExecutor() {
        return asyncExecutor;
    }

    @Override
    public String toString() {
        return "RateLimiterConfig[" + algorithm + ", " + limit + " per " + periodNanos + "ns, burst "
                + burst + ", initialTokens " + initialTokens + ", maxWait " + maxWaitNanos + "ns, warmUp "
                + warmUpNanos + "ns]";
    }

    /**
     * Validates a rate for {@code algorithm}; shared by {@code build()} and the limiters' {@code setRate}.
     *
     * @param policy the policy description for messages
     * @param algorithm the algorithm
     * @param limit permits per period
     * @param period the period
     */
    public static void validateRate(String policy, RateLimitAlgorithm algorithm, long limit, Duration period) {
        Validate.notNull(policy, "period", period);
        long max = isWindow(algorithm) ? MAX_WINDOW_LIMIT : MAX_LIMIT;
        Validate.inRange(policy, "limit", limit, 1, max);
        long nanos = Deadline.saturatedNanos(period);
        if (nanos < MIN_PERIOD_NANOS || nanos > MAX_PERIOD_NANOS) {
            throw new InvalidConfigException(policy, "period", "in [PT0.000001S, P366D]", period);
        }
        if (algorithm == RateLimitAlgorithm.GCRA || algorithm == RateLimitAlgorithm.LEAKY_BUCKET) {
            // T = ceil(period / limit); a limit above the period in nanoseconds would need T < 1 ns.
            Validate.check(nanos / limit >= 1, policy, "limit", "<= period in nanoseconds (" + nanos + ")", limit);
        }
        if (algorithm == RateLimitAlgorithm.TOKEN_BUCKET) {
            // produced(e) = (e / P)·L + ((e % P)·L) / P needs P·L to fit in a long.
            Validate.check(Math.multiplyHigh(nanos, limit) == 0 && nanos * limit > 0, policy, "limit",
                    "<= " + (Long.MAX_VALUE / nanos) + " (limit × period in ns must fit in 63 bits)", limit);
        }
        if (algorithm == RateLimitAlgorithm.SLIDING_WINDOW_COUNTER) {
            // (limit − curr − n)·W ≥ prev·(W − elapsed) must not overflow.
            Validate.check(limit <= (Long.MAX_VALUE / 4) / nanos, policy, "limit",
                    "<= " + ((Long.MAX_VALUE / 4) / nanos) + " (limit × window in ns must fit in 61 bits)", limit);
        }
    }

    static boolean isWindow(RateLimitAlgorithm algorithm) {
        return algorithm == RateLimitAlgorithm.FIXED_WINDOW
                || algorithm == RateLimitAlgorithm.SLIDING_WINDOW_COUNTER
                || algorithm == RateLimitAlgorithm.SLIDING_LOG;
    }

    /** Builds a {@link RateLimiterConfig}. Not thread-safe; {@link #build()} validates. */
    public static final class Builder {
        private RateLimitAlgorithm algorithm = DEFAULT_ALGORITHM;
        private long limit = DEFAULT_LIMIT;
        private Duration period = DEFAULT_PERIOD;
        private long burst = -1;
        private long initialTokens = -1;
        private @Nullable Duration maxWait;
        private Duration warmUp = DEFAULT_WARM_UP;
        private double coldFactor = DEFAULT_COLD_FACTOR;
        private int buckets = DEFAULT_BUCKETS;
        private Ticker ticker = Ticker.system();
        private Sleeper sleeper = Sleeper.system();
        private Scheduler scheduler = Scheduler.system();
        private Executor asyncExecutor = AsyncWaitQueue.defaultExecutor();

        private Builder() {}

        /**
         * The algorithm (default {@link RateLimitAlgorithm#GCRA}).
         *
         * @param algorithm the algorithm
         * @return this builder
         */
        public Builder algorithm(RateLimitAlgorithm algorithm) {
            this.algorithm = algorithm;
            return this;
        }

        /**
         * Permits per period (default 100).
         *
         * @param limit at least 1
         * @return this builder
         */
        public Builder limit(long limit) {
            this.limit = limit;
            return this;
        }

        /**
         * The period of the limit (default 1 s).
         *
         * @param period in [1 µs, 366 days]
         * @return this builder
         */
        public Builder period(Duration period) {
            this.period = period;
            return this;
        }

        /**
         * Sets limit and period at once: {@code limit(100).period(1s)} is {@code rate(100, 1s)}.
         *
         * @param limit permits per period
         * @param period the period
         * @return this builder
         */
        public Builder rate(long limit, Duration period) {
            return limit(limit).period(period);
        }

        /**
         * Permits available at once after a quiet spell (default: equal to the limit). For the token
         * bucket this is its capacity.
         *
         * @param burst at least 1
         * @return this builder
         */
        public Builder burst(long burst) {
            this.burst = burst;
            return this;
        }

        /**
         * Tokens a new token bucket holds (default: the burst, a full bucket, as in seed 002). Zero
         * starts it empty, so a restarted instance cannot spend a whole burst at once.
         *
         * @param initialTokens in [0, burst]; token bucket only
         * @return this builder
         */
        public Builder initialTokens(long initialTokens) {
            this.initialTokens = initialTokens;
            return this;
        }

        /**
         * How long a call through the policy (and {@link RateLimiter#acquire(long)}) may wait for a
         * permit (default 0, or 1 s for the leaky bucket, where it is the longest queueing time).
         *
         * @param maxWait at least 0
         * @return this builder
         */
        public Builder maxWait(Duration maxWait) {
            this.maxWait = maxWait;
            return this;
        }

        /**
         * Warm-up period for GCRA and the leaky bucket (default 0, off): from creation the emission
         * interval falls linearly from {@code coldFactor·T} to {@code T}, and the burst is 1 until
         * warm-up ends.
         *
         * @param warmUp at least 0
         * @return this builder
         */
        public Builder warmUp(Duration warmUp) {
            this.warmUp = warmUp;
            return this;
        }

        /**
         * Sub-window buckets per window of the sliding-window counter (default 1). More buckets bound the
         * estimate's error by fewer permits, at one more read per bucket per decision.
         *
         * @param buckets in [1, {@value #MAX_BUCKETS}], with window / buckets at least 1 µs
         * @return this builder
         */
        public Builder buckets(int buckets) {
            this.buckets = buckets;
            return this;
        }

        /**
         * How much slower a cold limiter starts (default 3.0, as in Guava's warming-up limiter).
         *
         * @param coldFactor in [1, 100]
         * @return this builder
         */
        public Builder coldFactor(double coldFactor) {
            this.coldFactor = coldFactor;
            return this;
        }

        /**
         * The time source (default {@link Ticker#system()}).
         *
         * @param ticker not null
         * @return this builder
         */
        public Builder ticker(Ticker ticker) {
            this.ticker = ticker;
            return this;
        }

        /**
         * How waiting callers wait (default {@link Sleeper#system()}; a {@link dev.levee.core.ManualTicker}
         * in tests).
         *
         * @param sleeper not null
         * @return this builder
         */
        public Builder sleeper(Sleeper sleeper) {
            this.sleeper = sleeper;
            return this;
        }

        /**
         * Times the waits of asynchronous callers (default {@link Scheduler#system()}; a
         * {@link dev.levee.core.ManualScheduler} in tests). Its thread only hands work to the
         * {@linkplain #asyncExecutor(Executor) async executor}.
         *
         * @param scheduler not null
         * @return this builder
         */
        public Builder scheduler(Scheduler scheduler) {
            this.scheduler = scheduler;
            return this;
        }

        /**
         * Where an asynchronous caller that waited for permits is resumed (default: the common fork-join
         * pool, as {@code CompletableFuture}'s {@code *Async} methods).
         *
         * @param asyncExecutor not null
         * @return this builder
         */
        public Builder asyncExecutor(Executor asyncExecutor) {
            this.asyncExecutor = asyncExecutor;
            return this;
        }

        /**
         * Validates and builds.
         *
         * @return the config
         * @throws InvalidConfigException naming the field, bound and value, if a field is out of bounds
         */
        public RateLimiterConfig build() {
            String policy = POLICY;
            Validate.notNull(policy, "algorithm", algorithm);
            validateRate(policy, algorithm, limit, period);
            long b = burst == -1 ? Math.min(limit, MAX_LIMIT) : burst;
            Validate.inRange(policy, "burst", b, 1, MAX_LIMIT);
            long tokens = initialTokens == -1 ? b : initialTokens;
            if (initialTokens != -1) {
                Validate.check(algorithm == RateLimitAlgorithm.TOKEN_BUCKET, policy, "initialTokens",
                        "unset for " + algorithm + " (initial tokens are for TOKEN_BUCKET)", initialTokens);
                Validate.inRange(policy, "initialTokens", initialTokens, 0, b);
            }
            if (algorithm == RateLimitAlgorithm.GCRA) {
                long interval = dev.levee.ratelimiter.internal.GcraLimiter.emissionInterval(period.toNanos(), limit);
                Validate.check(b <= Long.MAX_VALUE / 4 / interval, policy, "burst",
                        "<= " + (Long.MAX_VALUE / 4 / interval) + " (burst × interval must fit in 61 bits)", b);
            }
            Duration wait = maxWait != null ? maxWait
                    : algorithm == RateLimitAlgorithm.LEAKY_BUCKET ? DEFAULT_LEAKY_BUCKET_MAX_WAIT : DEFAULT_MAX_WAIT;
            Validate.nonNegative(policy, "maxWait", wait);
            Validate.notNull(policy, "warmUp", warmUp);
            Validate.nonNegative(policy, "warmUp", warmUp);
            if (!warmUp.isZero()) {
                Validate.check(algorithm == RateLimitAlgorithm.GCRA || algorithm == RateLimitAlgorithm.LEAKY_BUCKET,
                        policy, "warmUp", "0 for " + algorithm + " (warm-up is for GCRA and LEAKY_BUCKET)", warmUp);
                Validate.check(warmUp.compareTo(Duration.ofDays(366)) <= 0, policy, "warmUp", "<= P366D", warmUp);
            }
            Validate.inRange(policy, "coldFactor", coldFactor, 1.0, 100.0);
            Validate.inRange(policy, "buckets", buckets, 1, MAX_BUCKETS);
            if (buckets != 1) {
                Validate.check(algorithm == RateLimitAlgorithm.SLIDING_WINDOW_COUNTER, policy, "buckets",
                        "1 for " + algorithm + " (sub-window buckets are for SLIDING_WINDOW_COUNTER)", buckets);
                Validate.check(period.toNanos() / buckets >= 1_000, policy, "buckets",
                        "<= period / 1 µs (" + period.toNanos() / 1_000 + ")", buckets);
            }
            Validate.notNull(policy, "ticker", ticker);
            Validate.notNull(policy, "sleeper", sleeper);
            return new RateLimiterConfig(this, b, tokens, Deadline.saturatedNanos(wait));
        }
    }
}

package dev.levee.loadshed.queue;

import dev.levee.core.Scheduler;
import dev.levee.core.Ticker;
import dev.levee.core.internal.AsyncWaitQueue;
import dev.levee.core.internal.Validate;
import java.time.Duration;
import java.util.concurrent.Executor;

/**
 * The immutable, nameless configuration of a {@link CoDelQueue} and of a {@code CoDelGate}.
 *
 * <table>
 *   <caption>Settings (numbers from seed 002, "CoDel (Controlled Delay) Algorithm")</caption>
 *   <tr><th>field</th><th>default</th><th>bound</th><th>effect</th></tr>
 *   <tr><td>{@code target}</td><td>{@value #DEFAULT_TARGET_MILLIS} ms</td><td>(0, interval]</td>
 *       <td>the standing queue delay CoDel tolerates</td></tr>
 *   <tr><td>{@code interval}</td><td>{@value #DEFAULT_INTERVAL_MILLIS} ms</td><td>(0, 1 min]</td>
 *       <td>how long the delay may stay at or above target before drops start; drops then come every
 *       {@code interval / √count}</td></tr>
 *   <tr><td>{@code maxSize}</td><td>{@value #DEFAULT_MAX_SIZE}</td><td>[1, {@value #MAX_SIZE_LIMIT}]</td>
 *       <td>entries held at most; an offer beyond is refused ({@code queue_full})</td></tr>
 *   <tr><td>{@code adaptiveLifo}</td><td>{@value #DEFAULT_ADAPTIVE_LIFO}</td><td>—</td>
 *       <td>while congested (the last sample was at or above target) serve the newest entry first</td></tr>
 *   <tr><td>{@code ticker}</td><td>{@link Ticker#system()}</td><td>not null</td><td>the time source
 *       (a {@code CoDelGate} reads its inner gate's instead)</td></tr>
 *   <tr><td>{@code scheduler}</td><td>{@link Scheduler#system()}</td><td>not null</td>
 *       <td>{@code CoDelGate} only: ends the waits of asynchronous callers ({@code maxWait}, the
 *       deadline) and re-checks the inner gate every {@code interval} for them; it only hands work to
 *       {@code asyncExecutor}</td></tr>
 *   <tr><td>{@code asyncExecutor}</td><td>the common fork-join pool (as {@code CompletableFuture}'s
 *       {@code *Async} methods use; a thread per task if that pool has one thread)</td><td>not null</td>
 *       <td>{@code CoDelGate} only: where an asynchronous caller that waited is resumed (granted or
 *       refused), never the scheduler's thread nor under the gate's lock</td></tr>
 * </table>
 */
public final class CoDelQueueConfig {
    /** Default target in milliseconds (seed 002: {@code target_delay = 0.005}). */
    public static final long DEFAULT_TARGET_MILLIS = 5;
    /** Default interval in milliseconds (seed 002: {@code interval = 0.100}). */
    public static final long DEFAULT_INTERVAL_MILLIS = 100;
    /** Default target (seed 002). */
    public static final Duration DEFAULT_TARGET = Duration.ofMillis(DEFAULT_TARGET_MILLIS);
    /** Default interval (seed 002). */
    public static final Duration DEFAULT_INTERVAL = Duration.ofMillis(DEFAULT_INTERVAL_MILLIS);
    /** Default bound on entries (seed 002: {@code max_queue = 1000}). */
    public static final int DEFAULT_MAX_SIZE = 1000;
    /** Adaptive LIFO is on by default (Facebook's practice; the issue asks for it). */
    public static final boolean DEFAULT_ADAPTIVE_LIFO = true;
    /** The largest {@code maxSize} accepted. */
    public static final int MAX_SIZE_LIMIT = 10_000_000;
    /** The longest {@code interval} accepted. */
    public static final Duration MAX_INTERVAL = Duration.ofMinutes(1);

    private static final String POLICY = "CoDelQueue";
    private static final CoDelQueueConfig DEFAULTS = builder().build();

    private final Duration target;
    private final Duration interval;
    private final int maxSize;
    private final boolean adaptiveLifo;
    private final Ticker ticker;
    private final Scheduler scheduler;
    private final Executor asyncExecutor;

    private CoDelQueueConfig(Builder b) {
        this.target = b.target;
        this.interval = b.interval;
        this.maxSize = b.maxSize;
        this.adaptiveLifo = b.adaptiveLifo;
        this.ticker = b.ticker;
        this.scheduler = b.scheduler;
        this.asyncExecutor = b.asyncExecutor;
    }

    /** @return the defaults */
    public static CoDelQueueConfig defaults() {
        return DEFAULTS;
    }

    /** @return a builder with the defaults */
    public static Builder builder() {
        return new Builder();
    }

    /** @return a builder holding this configuration */
    public Builder toBuilder() {
        return new Builder().target(target).interval(interval).maxSize(maxSize).adaptiveLifo(adaptiveLifo).ticker(ticker)
                .scheduler(scheduler).asyncExecutor(asyncExecutor);
    }

    /** @return the target standing delay */
    public Duration target() {
        return target;
    }

    /** @return the interval */
    public Duration interval() {
        return interval;
    }

    /** @return the bound on entries */
    public int maxSize() {
        return maxSize;
    }

    /** @return whether congested queues serve newest first */
    public boolean adaptiveLifo() {
        return adaptiveLifo;
    }

    /** @return the time source */
    public Ticker ticker() {
        return ticker;
    }

    /** @return the scheduler that ends a {@code CoDelGate}'s asynchronous waits */
    public Scheduler scheduler() {
        return scheduler;
    }

    /** @return the executor that resumes a {@code CoDelGate}'s asynchronous callers */
    public Executor asyncExecutor() {
        return asyncExecutor;
    }

    @Override
    public String toString() {
        return "CoDelQueueConfig[target=" + target + ", interval=" + interval + ", maxSize=" + maxSize
                + ", adaptiveLifo=" + adaptiveLifo + "]";
    }

    /** Builds a {@link CoDelQueueConfig}; {@link #build()} validates. Not thread-safe. */
    public static final class Builder {
        private Duration target = DEFAULT_TARGET;
        private Duration interval = DEFAULT_INTERVAL;
        private int maxSize = DEFAULT_MAX_SIZE;
        private boolean adaptiveLifo = DEFAULT_ADAPTIVE_LIFO;
        private Ticker ticker = Ticker.system();
        private Scheduler scheduler = Scheduler.system();
        private Executor asyncExecutor = AsyncWaitQueue.defaultExecutor();

        private Builder() {}

        /**
         * @param target the tolerated standing delay (default 5 ms; &gt; 0 and &lt;= interval)
         * @return this builder
         */
        public Builder target(Duration target) {
            this.target = target;
            return this;
        }

        /**
         * @param interval how long delay may stay above target before dropping (default 100 ms; at most 1 min)
         * @return this builder
         */
        public Builder interval(Duration interval) {
            this.interval = interval;
            return this;
        }

        /**
         * @param maxSize entries held at most (default 1000)
         * @return this builder
         */
        public Builder maxSize(int maxSize) {
            this.maxSize = maxSize;
            return this;
        }

        /**
         * @param adaptiveLifo serve newest first while congested (default true)
         * @return this builder
         */
        public Builder adaptiveLifo(boolean adaptiveLifo) {
            this.adaptiveLifo = adaptiveLifo;
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
         * The scheduler that ends the waits of a {@code CoDelGate}'s asynchronous callers (default
         * {@link Scheduler#system()}). It only hands work to {@link #asyncExecutor(Executor)}; it never
         * runs the user's call. A {@link CoDelQueue} does not use it.
         *
         * @param scheduler the scheduler
         * @return this builder
         */
        public Builder scheduler(Scheduler scheduler) {
            this.scheduler = scheduler;
            return this;
        }

        /**
         * Where a {@code CoDelGate}'s asynchronous caller that waited is resumed, granted or refused
         * (default the common fork-join pool, as {@code CompletableFuture}'s {@code *Async} methods use).
         * A {@link CoDelQueue} does not use it.
         *
         * @param asyncExecutor the executor
         * @return this builder
         */
        public Builder asyncExecutor(Executor asyncExecutor) {
            this.asyncExecutor = asyncExecutor;
            return this;
        }

        /**
         * Validates and builds.
         *
         * @return the configuration
         * @throws dev.levee.core.InvalidConfigException naming the field, bound and value
         */
        public CoDelQueueConfig build() {
            Validate.positive(POLICY, "interval", interval);
            Validate.check(interval.compareTo(MAX_INTERVAL) <= 0, POLICY, "interval", "<= " + MAX_INTERVAL, interval);
            Validate.positive(POLICY, "target", target);
            Validate.check(target.compareTo(interval) <= 0, POLICY, "target", "<= interval (" + interval + ")", target);
            Validate.inRange(POLICY, "maxSize", maxSize, 1, MAX_SIZE_LIMIT);
            Validate.notNull(POLICY, "ticker", ticker);
            Validate.notNull(POLICY, "scheduler", scheduler);
            Validate.notNull(POLICY, "asyncExecutor", asyncExecutor);
            return new CoDelQueueConfig(this);
        }
    }
}

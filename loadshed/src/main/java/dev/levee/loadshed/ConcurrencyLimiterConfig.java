package dev.levee.loadshed;

import dev.levee.core.Classifier;
import dev.levee.core.Deadline;
import dev.levee.core.Scheduler;
import dev.levee.core.Ticker;
import dev.levee.core.internal.AsyncWaitQueue;
import dev.levee.core.internal.Validate;
import dev.levee.loadshed.limit.LatencyAimdLimit;
import dev.levee.loadshed.limit.LimitAlgorithm;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * The immutable, nameless configuration of a {@link ConcurrencyLimiter}, shareable between limiters.
 *
 * <table>
 *   <caption>Settings</caption>
 *   <tr><th>field</th><th>default</th><th>bound</th><th>effect</th></tr>
 *   <tr><td>{@code algorithm}</td><td>{@link LatencyAimdLimit#defaults()} (seed 002)</td><td>not null</td>
 *       <td>makes each limiter's {@link LimitAlgorithm}; called once per limiter (per key, per partitioned limiter)</td></tr>
 *   <tr><td>{@code maxWait}</td><td>0 (fail fast)</td><td>[0, 1 hour]</td>
 *       <td>how long {@link ConcurrencyLimiter#acquire(long)} (and {@link ConcurrencyLimiter#acquireAsync(long)})
 *       waits for a slot; never past the current {@link Deadline}</td></tr>
 *   <tr><td>{@code maxWaiters}</td><td>{@value #DEFAULT_MAX_WAITERS}</td><td>[1, 1,000,000]</td>
 *       <td>callers allowed to wait at once (threads and asynchronous callers together); more are refused at once</td></tr>
 *   <tr><td>{@code waitOrder}</td><td>{@link WaitOrder#FIFO}</td><td>not null</td>
 *       <td>which waiter a freed slot goes to; {@link WaitOrder#LIFO} serves the freshest request first under overload</td></tr>
 *   <tr><td>{@code classifier}</td><td>{@link Classifier#defaults()}</td><td>not null</td>
 *       <td>a failure it counts is a <em>drop</em> (an overload signal); one it ignores returns the slot without a sample</td></tr>
 *   <tr><td>{@code ticker}</td><td>{@link Ticker#system()}</td><td>not null</td>
 *       <td>the time source for waits and event times</td></tr>
 *   <tr><td>{@code scheduler}</td><td>{@link Scheduler#system()}</td><td>not null</td>
 *       <td>ends the waits of asynchronous callers: they are scheduled, never blocking a thread</td></tr>
 *   <tr><td>{@code asyncExecutor}</td><td>the common fork-join pool (as {@code CompletableFuture}'s
 *       {@code *Async} methods)</td><td>not null</td>
 *       <td>where an asynchronous caller that waited is resumed: its call starts there, never on the
 *       scheduler's thread</td></tr>
 * </table>
 */
public final class ConcurrencyLimiterConfig {
    /** Default: fail fast, no waiting. */
    public static final Duration DEFAULT_MAX_WAIT = Duration.ZERO;
    /** The longest {@code maxWait} accepted. */
    public static final Duration MAX_WAIT_BOUND = Duration.ofHours(1);
    /** Default bound on waiting threads. */
    public static final int DEFAULT_MAX_WAITERS = 1000;
    /** The largest {@code maxWaiters} accepted. */
    public static final int MAX_WAITERS_BOUND = 1_000_000;
    /** Default order among waiters. */
    public static final WaitOrder DEFAULT_WAIT_ORDER = WaitOrder.FIFO;

    private static final ConcurrencyLimiterConfig DEFAULTS = builder().build();

    /** Which waiting caller a freed slot goes to. */
    public enum WaitOrder {
        /** The longest-waiting caller: fair, but under overload every waiter may wait its full time. */
        FIFO,
        /**
         * The most recent caller: under overload the freshest requests, the ones whose clients still
         * wait for an answer, are served, and the oldest time out ("adaptive LIFO").
         */
        LIFO
    }

    private final Supplier<? extends LimitAlgorithm> algorithm;
    private final Duration maxWait;
    private final long maxWaitNanos;
    private final int maxWaiters;
    private final WaitOrder waitOrder;
    private final Classifier classifier;
    private final Ticker ticker;
    private final Scheduler scheduler;
    private final Executor asyncExecutor;

    private ConcurrencyLimiterConfig(Builder b) {
        this.algorithm = b.algorithm;
        this.maxWait = b.maxWait;
        this.maxWaitNanos = b.maxWait.toNanos();
        this.maxWaiters = b.maxWaiters;
        this.waitOrder = b.waitOrder;
        this.classifier = b.classifier;
        this.ticker = b.ticker;
        this.scheduler = b.scheduler;
        this.asyncExecutor = b.asyncExecutor;
    }

    /** @return a builder with the defaults */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the default configuration */
    public static ConcurrencyLimiterConfig defaults() {
        return DEFAULTS;
    }

    /** @return a builder holding this configuration's values */
    public Builder toBuilder() {
        return new Builder().algorithm(algorithm).maxWait(maxWait).maxWaiters(maxWaiters).waitOrder(waitOrder)
                .classifier(classifier).ticker(ticker).scheduler(scheduler).asyncExecutor(asyncExecutor);
    }

    /** @return the factory of each limiter's algorithm */
    public Supplier<? extends LimitAlgorithm> algorithm() {
        return algorithm;
    }

    /** @return how long an acquire may wait; zero means fail fast */
    public Duration maxWait() {
        return maxWait;
    }

    /** @return {@link #maxWait()} in nanoseconds */
    public long maxWaitNanos() {
        return maxWaitNanos;
    }

    /** @return the bound on waiting threads */
    public int maxWaiters() {
        return maxWaiters;
    }

    /** @return the order among waiters */
    public WaitOrder waitOrder() {
        return waitOrder;
    }

    /** @return which failures are drops */
    public Classifier classifier() {
        return classifier;
    }

    /** @return the time source */
    public Ticker ticker() {
        return ticker;
    }

    /** @return the scheduler that ends asynchronous waits */
    public Scheduler scheduler() {
        return scheduler;
    }

    /** @return where asynchronous callers that waited are resumed */
    public Executor asyncExecutor() {
        return asyncExecutor;
    }

    @Override
    public String toString() {
        return "ConcurrencyLimiterConfig[maxWait=" + maxWait + ", maxWaiters=" + maxWaiters + ", waitOrder="
                + waitOrder + "]";
    }

    /** Builds a {@link ConcurrencyLimiterConfig}. Not thread-safe; {@link #build()} validates. */
    public static final class Builder {
        private Supplier<? extends LimitAlgorithm> algorithm = LatencyAimdLimit::defaults;
        private Duration maxWait = DEFAULT_MAX_WAIT;
        private int maxWaiters = DEFAULT_MAX_WAITERS;
        private WaitOrder waitOrder = DEFAULT_WAIT_ORDER;
        private Classifier classifier = Classifier.defaults();
        private Ticker ticker = Ticker.system();
        private Scheduler scheduler = Scheduler.system();
        private Executor asyncExecutor = AsyncWaitQueue.defaultExecutor();

        private Builder() {}

        /**
         * The algorithm: a factory, because an algorithm has state and belongs to one limiter.
         *
         * <pre>{@code
         * .algorithm(() -> GradientLimit.builder().maxLimit(200).build())
         * }</pre>
         *
         * @param algorithm called once per limiter (default {@link LatencyAimdLimit#defaults()})
         * @return this builder
         */
        public Builder algorithm(Supplier<? extends LimitAlgorithm> algorithm) {
            this.algorithm = algorithm;
            return this;
        }

        /**
         * @param maxWait how long a blocking acquire waits for a slot (default zero: fail fast; at most 1 hour)
         * @return this builder
         */
        public Builder maxWait(Duration maxWait) {
            this.maxWait = maxWait;
            return this;
        }

        /**
         * @param maxWaiters threads allowed to wait at once (default {@value #DEFAULT_MAX_WAITERS}), in [1, 1,000,000]
         * @return this builder
         */
        public Builder maxWaiters(int maxWaiters) {
            this.maxWaiters = maxWaiters;
            return this;
        }

        /**
         * @param waitOrder which waiter a freed slot goes to (default FIFO)
         * @return this builder
         */
        public Builder waitOrder(WaitOrder waitOrder) {
            this.waitOrder = waitOrder;
            return this;
        }

        /**
         * @param classifier counted failures are drops, ignored ones are forgotten (default {@link Classifier#defaults()})
         * @return this builder
         */
        public Builder classifier(Classifier classifier) {
            this.classifier = classifier;
            return this;
        }

        /**
         * @param ticker the time source (default {@link Ticker#system()})
         * @return this builder
         */
        public Builder ticker(Ticker ticker) {
            this.ticker = ticker;
            return this;
        }

        /**
         * The scheduler that ends the waits of asynchronous callers (default {@link Scheduler#system()}).
         * It only hands work to {@link #asyncExecutor(Executor)}; it never runs the user's call.
         *
         * @param scheduler the scheduler
         * @return this builder
         */
        public Builder scheduler(Scheduler scheduler) {
            this.scheduler = scheduler;
            return this;
        }

        /**
         * Where an asynchronous caller that waited for a slot is resumed (default: the common fork-join
         * pool, as {@code CompletableFuture}'s {@code *Async} methods). Its call and every dependent
         * stage start there.
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
         * @throws dev.levee.core.InvalidConfigException naming the field, the bound and the value
         */
        public ConcurrencyLimiterConfig build() {
            String p = "ConcurrencyLimiter";
            Validate.notNull(p, "algorithm", algorithm);
            Validate.notNull(p, "maxWait", maxWait);
            Validate.nonNegative(p, "maxWait", maxWait);
            Validate.check(maxWait.compareTo(MAX_WAIT_BOUND) <= 0, p, "maxWait", "<= " + MAX_WAIT_BOUND, maxWait);
            Validate.inRange(p, "maxWaiters", maxWaiters, 1, MAX_WAITERS_BOUND);
            Validate.notNull(p, "waitOrder", waitOrder);
            Validate.notNull(p, "classifier", classifier);
            Validate.notNull(p, "ticker", ticker);
            Validate.notNull(p, "scheduler", scheduler);
            Validate.notNull(p, "asyncExecutor", asyncExecutor);
            return new ConcurrencyLimiterConfig(this);
        }
    }

    static LimitAlgorithm newAlgorithm(String policy, Supplier<? extends LimitAlgorithm> factory) {
        LimitAlgorithm a = Objects.requireNonNull(factory.get(), () -> policy + ": the algorithm factory returned null");
        Validate.check(a.minLimit() >= 1 && a.minLimit() <= a.maxLimit(), policy, "algorithm.minLimit",
                "in [1, maxLimit]", a.minLimit());
        Validate.check(a.initialLimit() >= a.minLimit() && a.initialLimit() <= a.maxLimit(), policy,
                "algorithm.initialLimit", "in [minLimit, maxLimit]", a.initialLimit());
        return a;
    }
}

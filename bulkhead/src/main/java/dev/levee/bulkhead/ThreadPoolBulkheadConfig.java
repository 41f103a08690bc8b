package dev.levee.bulkhead;

import dev.levee.core.internal.VirtualThreads;
import dev.levee.core.ContextPropagator;
import dev.levee.core.Ticker;
import dev.levee.core.internal.Validate;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.function.IntFunction;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The immutable, nameless configuration of a {@link ThreadPoolBulkhead}, built by {@link #builder()}.
 *
 * <table>
 *   <caption>Settings</caption>
 *   <tr><th>field</th><th>default</th><th>bound</th><th>effect</th></tr>
 *   <tr><td>{@code maxThreads}</td><td>available processors</td><td>[1, 10,000]</td>
 *       <td>tasks running at once (platform threads, or the concurrency bound on virtual threads)</td></tr>
 *   <tr><td>{@code coreThreads}</td><td>= maxThreads</td><td>[1, maxThreads]</td>
 *       <td>threads started before tasks queue; threads above it start only when the queue is full
 *       (the {@link java.util.concurrent.ThreadPoolExecutor} rule). Every idle thread, core ones
 *       included, ends after {@code keepAlive}. Ignored on virtual threads.</td></tr>
 *   <tr><td>{@code queueCapacity}</td><td>100</td><td>[0, 1,000,000]</td>
 *       <td>tasks waiting for a thread; one more is rejected. 0 hands each task straight to a thread.</td></tr>
 *   <tr><td>{@code workQueue}</td><td>none: an {@code ArrayBlockingQueue} of {@code queueCapacity}</td>
 *       <td>platform threads only</td><td>a factory of the pool's queue from {@code queueCapacity}, e.g. a
 *       CoDel queue that drops work which waited too long</td></tr>
 *   <tr><td>{@code keepAlive}</td><td>60 s</td><td>&gt; 0</td><td>idle time before a worker thread (core ones included) ends</td></tr>
 *   <tr><td>{@code closeGracePeriod}</td><td>10 s</td><td>&gt;= 0</td>
 *       <td>how long {@link ThreadPoolBulkhead#close()} lets accepted work finish before cancelling it</td></tr>
 *   <tr><td>{@code threadNamePrefix}</td><td>{@code levee-bulkhead-<name>-}</td><td>non-blank</td>
 *       <td>worker threads are named prefix + number; platform workers are daemon threads</td></tr>
 *   <tr><td>{@code virtualThreads}</td><td>false</td><td>true only on JDK 21+</td>
 *       <td>run each task on a new virtual thread, at most {@code maxThreads} at once</td></tr>
 *   <tr><td>{@code propagators}</td><td>none</td><td>not null</td>
 *       <td>context (MDC, tracing) captured at submit and restored in the worker; the current
 *       {@link dev.levee.core.Deadline} always travels</td></tr>
 *   <tr><td>{@code ticker}</td><td>{@link Ticker#system()}</td><td>not null</td><td>time of events</td></tr>
 * </table>
 *
 * <p>The defaults follow the usual sizing of a pool for blocking calls on a small machine: one thread
 * per processor and a short bounded queue. Size {@code maxThreads} with Little's law:
 * {@code threads = peak rate × latency}; size the queue from how long a caller may wait:
 * {@code queue = acceptable wait × rate}.
 */
public final class ThreadPoolBulkheadConfig {
    /** Default queue: 100 accepted calls waiting for a thread (bounded, never unbounded). */
    public static final int DEFAULT_QUEUE_CAPACITY = 100;
    /** Default idle time before a worker thread ends: 60 s. */
    public static final Duration DEFAULT_KEEP_ALIVE = Duration.ofSeconds(60);
    /** Default time {@code close()} lets accepted work finish: 10 s. */
    public static final Duration DEFAULT_CLOSE_GRACE_PERIOD = Duration.ofSeconds(10);
    /** The largest {@code maxThreads} accepted. */
    public static final int MAX_THREADS_LIMIT = 10_000;
    /** The largest {@code queueCapacity} accepted. */
    public static final int MAX_QUEUE_LIMIT = 1_000_000;

    private static final String POLICY = "ThreadPoolBulkhead";

    private final int maxThreads;
    private final int coreThreads;
    private final int queueCapacity;
    private final Duration keepAlive;
    private final Duration closeGracePeriod;
    private final @Nullable String threadNamePrefix;
    private final boolean virtualThreads;
    private final List<ContextPropagator<?>> propagators;
    private final Ticker ticker;
    private final @Nullable IntFunction<? extends BlockingQueue<Runnable>> workQueue;

    private ThreadPoolBulkheadConfig(Builder b, int coreThreads, @Nullable String prefix) {
        this.maxThreads = b.maxThreads;
        this.coreThreads = coreThreads;
        this.queueCapacity = b.queueCapacity;
        this.keepAlive = b.keepAlive;
        this.closeGracePeriod = b.closeGracePeriod;
        this.threadNamePrefix = prefix;
        this.virtualThreads = b.virtualThreads;
        this.propagators = List.copyOf(b.propagators);
        this.ticker = b.ticker;
        this.workQueue = b.workQueue;
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
     * The default configuration (as many threads as processors, a queue of 100). Not cached: the
     * default thread count is read when it is called.
     *
     * @return a default configuration
     */
    public static ThreadPoolBulkheadConfig defaults() {
        return new Builder().build();
    }

    /**
     * A builder holding this configuration's values, to derive a variant.
     *
     * @return a new builder
     */
    public Builder toBuilder() {
        Builder b = new Builder().maxThreads(maxThreads).coreThreads(coreThreads).queueCapacity(queueCapacity)
                .keepAlive(keepAlive).closeGracePeriod(closeGracePeriod).virtualThreads(virtualThreads)
                .propagators(propagators).ticker(ticker);
        b.threadNamePrefix = threadNamePrefix;
        b.workQueue = workQueue;
        return b;
    }

    /** @return the bound on running tasks */
    public int maxThreads() {
        return maxThreads;
    }

    /** @return the threads kept while idle */
    public int coreThreads() {
        return coreThreads;
    }

    /** @return the bound on waiting tasks */
    public int queueCapacity() {
        return queueCapacity;
    }

    /** @return the idle time before a non-core thread ends */
    public Duration keepAlive() {
        return keepAlive;
    }

    /** @return how long close lets accepted work finish */
    public Duration closeGracePeriod() {
        return closeGracePeriod;
    }

    /** @return the worker name prefix, or null for the default {@code levee-bulkhead-<name>-} */
    public @Nullable String threadNamePrefix() {
        return threadNamePrefix;
    }

    /** @return whether tasks run on virtual threads */
    public boolean virtualThreads() {
        return virtualThreads;
    }

    /** @return the context propagators, in restore order */
    public List<ContextPropagator<?>> propagators() {
        return propagators;
    }

    /** @return the time source */
    public Ticker ticker() {
        return ticker;
    }

    /**
     * The factory of the platform pool's work queue, or null for the built-in one (an
     * {@code ArrayBlockingQueue} of {@link #queueCapacity()}, a hand-off when the capacity is 0).
     *
     * @return the factory, or null
     */
    public @Nullable IntFunction<? extends BlockingQueue<Runnable>> workQueue() {
        return workQueue;
    }

    @Override
    public String toString() {
        return "ThreadPoolBulkheadConfig[maxThreads=" + maxThreads + ", coreThreads=" + coreThreads
                + ", queueCapacity=" + queueCapacity + ", keepAlive=" + keepAlive + ", virtualThreads="
                + virtualThreads + "]";
    }

    /** Builds a {@link ThreadPoolBulkheadConfig}. Not thread-safe; {@link #build()} validates. */
    public static final class Builder {
        private int maxThreads = Runtime.getRuntime().availableProcessors();
        private @Nullable Integer coreThreads;
        private int queueCapacity = DEFAULT_QUEUE_CAPACITY;
        private Duration keepAlive = DEFAULT_KEEP_ALIVE;
        private Duration closeGracePeriod = DEFAULT_CLOSE_GRACE_PERIOD;
        private @Nullable String threadNamePrefix;
        private boolean virtualThreads;
        private List<? extends ContextPropagator<?>> propagators = List.of();
        private Ticker ticker = Ticker.system();
        private @Nullable IntFunction<? extends BlockingQueue<Runnable>> workQueue;

        private Builder() {}

        /**
         * The platform pool's work queue, made from {@code queueCapacity} when the bulkhead is built:
         * e.g. a {@code CoDelQueue} from {@code levee-loadshed}, which drops work that has waited too
         * long and serves the newest first while congested, instead of the plain FIFO
         * {@code ArrayBlockingQueue}. The queue must be bounded by the capacity it is given (a full
         * queue is how the bulkhead refuses); a task the queue drops is cancelled by it, so its caller
         * sees a {@code CancellationException}. Not for {@link #virtualThreads(boolean) virtual
         * threads}, which queue on a semaphore.
         *
         * @param factory the queue for a capacity; null for the built-in queue
         * @return this builder
         */
        public Builder workQueue(@Nullable IntFunction<? extends BlockingQueue<Runnable>> factory) {
            this.workQueue = factory;
            return this;
        }

        /**
         * Tasks running at once (default: available processors; [1, 10,000]).
         *
         * @param maxThreads the bound
         * @return this builder
         */
        public Builder maxThreads(int maxThreads) {
            this.maxThreads = maxThreads;
            return this;
        }

        /**
         * Threads kept while idle (default: equal to maxThreads; [1, maxThreads]).
         *
         * @param coreThreads the count
         * @return this builder
         */
        public Builder coreThreads(int coreThreads) {
            this.coreThreads = coreThreads;
            return this;
        }

        /**
         * Tasks waiting for a thread (default 100; [0, 1,000,000]).
         *
         * @param queueCapacity the bound
         * @return this builder
         */
        public Builder queueCapacity(int queueCapacity) {
            this.queueCapacity = queueCapacity;
            return this;
        }

        /**
         * Idle time before a thread above the core count ends (default 60 s; &gt; 0).
         *
         * @param keepAlive the time
         * @return this builder
         */
        public Builder keepAlive(Duration keepAlive) {
            this.keepAlive = keepAlive;
            return this;
        }

        /**
         * How long {@link ThreadPoolBulkhead#close()} waits for accepted work (default 10 s; &gt;= 0).
         *
         * @param closeGracePeriod the time
         * @return this builder
         */
        public Builder closeGracePeriod(Duration closeGracePeriod) {
            this.closeGracePeriod = closeGracePeriod;
            return this;
        }

        /**
         * The worker name prefix (default {@code levee-bulkhead-<name>-}).
         *
         * @param threadNamePrefix the prefix
         * @return this builder
         */
        public Builder threadNamePrefix(String threadNamePrefix) {
            this.threadNamePrefix = threadNamePrefix;
            return this;
        }

        /**
         * Whether tasks run on virtual threads (default false; true needs JDK 21+).
         *
         * @param virtualThreads true for virtual threads
         * @return this builder
         */
        public Builder virtualThreads(boolean virtualThreads) {
            this.virtualThreads = virtualThreads;
            return this;
        }

        /**
         * Context carried from the submitting thread to the worker (default none).
         *
         * @param propagators the propagators, restored in this order
         * @return this builder
         */
        public Builder propagators(List<? extends ContextPropagator<?>> propagators) {
            this.propagators = propagators;
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
         * Validates and builds.
         *
         * @return the configuration
         * @throws dev.levee.core.InvalidConfigException if a setting is out of bounds
         */
        public ThreadPoolBulkheadConfig build() {
            String policy = POLICY;
            Validate.inRange(policy, "maxThreads", maxThreads, 1, MAX_THREADS_LIMIT);
            int core = coreThreads == null ? maxThreads : coreThreads;
            Validate.check(core >= 1 && core <= maxThreads, policy, "coreThreads",
                    "in [1, maxThreads (" + maxThreads + ")]", core);
            Validate.inRange(policy, "queueCapacity", queueCapacity, 0, MAX_QUEUE_LIMIT);
            Validate.positive(policy, "keepAlive", keepAlive);
            Validate.notNull(policy, "closeGracePeriod", closeGracePeriod);
            Validate.nonNegative(policy, "closeGracePeriod", closeGracePeriod);
            @Nullable String prefix = threadNamePrefix;
            Validate.check(prefix == null || !prefix.isBlank(), policy, "threadNamePrefix", "a non-blank string",
                    "'" + prefix + "'");
            Validate.check(!virtualThreads || VirtualThreads.supported(), policy, "virtualThreads",
                    "false on a JDK without virtual threads (JDK 21+; this is " + Runtime.version() + ")", true);
            Validate.check(workQueue == null || !virtualThreads, policy, "workQueue",
                    "unset with virtualThreads (virtual threads queue on a semaphore)", "a factory");
            Validate.notNull(policy, "propagators", propagators);
            for (ContextPropagator<?> p : propagators) {
                Validate.notNull(policy, "propagators[]", p);
            }
            Validate.notNull(policy, "ticker", ticker);
            return new ThreadPoolBulkheadConfig(this, core, prefix);
        }
    }
}

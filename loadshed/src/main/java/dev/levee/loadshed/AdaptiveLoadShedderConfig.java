package dev.levee.loadshed;

import dev.levee.core.LoadSignal;
import dev.levee.core.Scheduler;
import dev.levee.core.Ticker;
import dev.levee.core.internal.AsyncWaitQueue;
import dev.levee.core.internal.Validate;
import dev.levee.loadshed.signal.CpuLoadSignal;
import dev.levee.loadshed.signal.MemoryLoadSignal;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.function.IntSupplier;
import org.jspecify.annotations.Nullable;

/**
 * The immutable, nameless configuration of an {@link AdaptiveLoadShedder}.
 *
 * <table>
 *   <caption>Settings (seed 002, {@code LoadShedderConfig} and {@code should_shed})</caption>
 *   <tr><th>field</th><th>default</th><th>bound</th><th>effect</th></tr>
 *   <tr><td>{@code maxConcurrent}</td><td>{@value #DEFAULT_MAX_CONCURRENT}</td><td>[1, 1,000,000]</td>
 *       <td>the concurrency limit when no {@code limit} supplier is given</td></tr>
 *   <tr><td>{@code limit}</td><td>{@code maxConcurrent}</td><td>—</td>
 *       <td>the current limit, e.g. {@code concurrencyLimiter::limit} of an adaptive limiter</td></tr>
 *   <tr><td>{@code maxQueueDepth}</td><td>{@value #DEFAULT_MAX_QUEUE_DEPTH}</td><td>[0, 1,000,000]</td>
 *       <td>callers that may wait for a slot at once; beyond, {@code queue_full}</td></tr>
 *   <tr><td>{@code maxQueueTime}</td><td>{@value #DEFAULT_MAX_QUEUE_TIME_SECONDS} s</td><td>[0, 1 hour]</td>
 *       <td>how long a caller waits for a slot (never past its deadline); then {@code queue_timeout}</td></tr>
 *   <tr><td>{@code cpu}, {@code cpuThreshold}</td><td>{@link CpuLoadSignal#process()}, {@value #DEFAULT_CPU_THRESHOLD}</td>
 *       <td>threshold a fraction in [0, 1]</td><td>shed {@code cpu_high} above it</td></tr>
 *   <tr><td>{@code memory}, {@code memoryThreshold}</td><td>{@link MemoryLoadSignal#heapAfterGc()},
 *       {@value #DEFAULT_MEMORY_THRESHOLD}</td><td>a fraction in [0, 1]</td><td>shed {@code memory_high} above it</td></tr>
 *   <tr><td>{@code priorityThreshold}</td><td>{@value #DEFAULT_PRIORITY_THRESHOLD}</td><td>a fraction in [0, 1]</td>
 *       <td>above this share of the limit in flight, only high priority is admitted</td></tr>
 *   <tr><td>{@code highPriorityLevel}</td><td>{@value #DEFAULT_HIGH_PRIORITY_LEVEL}</td><td>[1, 10]</td>
 *       <td>levels at or above it are high priority (seed 002: authenticated users, health checks, payments)</td></tr>
 *   <tr><td>{@code retryAfter}</td><td>{@value PriorityShedderConfig#DEFAULT_RETRY_AFTER_SECONDS} s</td>
 *       <td>[0, 1 hour]</td><td>the hint in a refusal (seed 002: {@code Retry-After: 5})</td></tr>
 *   <tr><td>{@code ticker}</td><td>{@link Ticker#system()}</td><td>not null</td><td>the time source</td></tr>
 *   <tr><td>{@code scheduler}</td><td>{@link Scheduler#system()}</td><td>not null</td>
 *       <td>ends the waits of asynchronous callers (they are scheduled, never blocking a thread)</td></tr>
 *   <tr><td>{@code asyncExecutor}</td><td>the common fork-join pool</td><td>not null</td>
 *       <td>where an asynchronous caller that waited is resumed, never the scheduler's thread</td></tr>
 * </table>
 * The CPU and memory signals default to the shared JVM signals, which start sampling once a second
 * on {@link dev.levee.core.Scheduler#system()} when the first configuration is built without them.
 */
public final class AdaptiveLoadShedderConfig {
    /** Default concurrency limit (seed 002: {@code max_concurrent = 100}). */
    public static final int DEFAULT_MAX_CONCURRENT = 100;
    /** Default waiting callers (seed 002: {@code max_queue_depth = 50}). */
    public static final int DEFAULT_MAX_QUEUE_DEPTH = 50;
    /** Default wait for a slot, seconds (seed 002: {@code max_queue_time = 5.0}). */
    public static final long DEFAULT_MAX_QUEUE_TIME_SECONDS = 5;
    /** Default CPU threshold (seed 002: {@code cpu_threshold = 0.85}). */
    public static final double DEFAULT_CPU_THRESHOLD = 0.85;
    /** Default memory threshold (seed 002: {@code memory_threshold = 0.90}). */
    public static final double DEFAULT_MEMORY_THRESHOLD = 0.90;
    /** Default share of the limit above which low priority is shed (seed 002: {@code dynamic_limit * 0.8}). */
    public static final double DEFAULT_PRIORITY_THRESHOLD = 0.8;
    /** Default first high-priority level: 7, an authenticated request under seed 002's rules. */
    public static final int DEFAULT_HIGH_PRIORITY_LEVEL = 7;
    /** The largest limit and queue depth accepted. */
    public static final int MAX_LIMIT = 1_000_000;

    private static final String POLICY = "AdaptiveLoadShedder";

    private final int maxConcurrent;
    private final IntSupplier limit;
    private final int maxQueueDepth;
    private final Duration maxQueueTime;
    private final LoadSignal cpu;
    private final double cpuThreshold;
    private final LoadSignal memory;
    private final double memoryThreshold;
    private final double priorityThreshold;
    private final int highPriorityLevel;
    private final Duration retryAfter;
    private final Ticker ticker;
    private final Scheduler scheduler;
    private final Executor asyncExecutor;
    private final Builder source;

    private AdaptiveLoadShedderConfig(Builder b, IntSupplier limit, LoadSignal cpu, LoadSignal memory) {
        this.maxConcurrent = b.maxConcurrent;
        this.limit = limit;
        this.maxQueueDepth = b.maxQueueDepth;
        this.maxQueueTime = b.maxQueueTime;
        this.cpu = cpu;
        this.cpuThreshold = b.cpuThreshold;
        this.memory = memory;
        this.memoryThreshold = b.memoryThreshold;
        this.priorityThreshold = b.priorityThreshold;
        this.highPriorityLevel = b.highPriorityLevel;
        this.retryAfter = b.retryAfter;
        this.ticker = b.ticker;
        this.scheduler = b.scheduler;
        this.asyncExecutor = b.asyncExecutor;
        this.source = b.copy();
    }

    /** @return a builder with the defaults */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The seed-002 configuration: every field at its default.
     *
     * @return the default configuration
     */
    public static AdaptiveLoadShedderConfig defaults() {
        return new Builder().build();
    }

    /** @return a builder holding this configuration */
    public Builder toBuilder() {
        return source.copy();
    }

    /** @return the limit used when no supplier is given */
    public int maxConcurrent() {
        return maxConcurrent;
    }

    /** @return the current-limit supplier */
    public IntSupplier limit() {
        return limit;
    }

    /** @return callers that may wait for a slot */
    public int maxQueueDepth() {
        return maxQueueDepth;
    }

    /** @return the longest wait for a slot */
    public Duration maxQueueTime() {
        return maxQueueTime;
    }

    /** @return the CPU signal */
    public LoadSignal cpu() {
        return cpu;
    }

    /** @return the CPU threshold */
    public double cpuThreshold() {
        return cpuThreshold;
    }

    /** @return the memory signal */
    public LoadSignal memory() {
        return memory;
    }

    /** @return the memory threshold */
    public double memoryThreshold() {
        return memoryThreshold;
    }

    /** @return the share of the limit above which low priority is shed */
    public double priorityThreshold() {
        return priorityThreshold;
    }

    /** @return the first high-priority level */
    public int highPriorityLevel() {
        return highPriorityLevel;
    }

    /** @return the retry-after hint */
    public Duration retryAfter() {
        return retryAfter;
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

    /** Builds an {@link AdaptiveLoadShedderConfig}; {@link #build()} validates. */
    public static final class Builder {
        private int maxConcurrent = DEFAULT_MAX_CONCURRENT;
        private @Nullable IntSupplier limit;
        private int maxQueueDepth = DEFAULT_MAX_QUEUE_DEPTH;
        private Duration maxQueueTime = Duration.ofSeconds(DEFAULT_MAX_QUEUE_TIME_SECONDS);
        private @Nullable LoadSignal cpu;
        private double cpuThreshold = DEFAULT_CPU_THRESHOLD;
        private @Nullable LoadSignal memory;
        private double memoryThreshold = DEFAULT_MEMORY_THRESHOLD;
        private double priorityThreshold = DEFAULT_PRIORITY_THRESHOLD;
        private int highPriorityLevel = DEFAULT_HIGH_PRIORITY_LEVEL;
        private Duration retryAfter = Duration.ofSeconds(PriorityShedderConfig.DEFAULT_RETRY_AFTER_SECONDS);
        private Ticker ticker = Ticker.system();
        private Scheduler scheduler = Scheduler.system();
        private Executor asyncExecutor = AsyncWaitQueue.defaultExecutor();

        private Builder() {}

        Builder copy() {
            Builder b = new Builder();
            b.maxConcurrent = maxConcurrent;
            b.limit = limit;
            b.maxQueueDepth = maxQueueDepth;
            b.maxQueueTime = maxQueueTime;
            b.cpu = cpu;
            b.cpuThreshold = cpuThreshold;
            b.memory = memory;
            b.memoryThreshold = memoryThreshold;
            b.priorityThreshold = priorityThreshold;
            b.highPriorityLevel = highPriorityLevel;
            b.retryAfter = retryAfter;
            b.ticker = ticker;
            b.scheduler = scheduler;
            b.asyncExecutor = asyncExecutor;
            return b;
        }

        /**
         * @param maxConcurrent the fixed limit (default 100)
         * @return this builder
         */
        public Builder maxConcurrent(int maxConcurrent) {
            this.maxConcurrent = maxConcurrent;
            return this;
        }

        /**
         * @param limit the current limit, read on every decision (e.g. an adaptive limiter's)
         * @return this builder
         */
        public Builder limit(IntSupplier limit) {
            this.limit = limit;
            return this;
        }

        /**
         * @param maxQueueDepth callers that may wait for a slot (default 50)
         * @return this builder
         */
        public Builder maxQueueDepth(int maxQueueDepth) {
            this.maxQueueDepth = maxQueueDepth;
            return this;
        }

        /**
         * @param maxQueueTime the longest wait for a slot (default 5 s)
         * @return this builder
         */
        public Builder maxQueueTime(Duration maxQueueTime) {
            this.maxQueueTime = maxQueueTime;
            return this;
        }

        /**
         * @param cpu the CPU signal (default the shared process CPU signal)
         * @return this builder
         */
        public Builder cpu(LoadSignal cpu) {
            this.cpu = cpu;
            return this;
        }

        /**
         * @param threshold shed above this CPU reading (default 0.85)
         * @return this builder
         */
        public Builder cpuThreshold(double threshold) {
            this.cpuThreshold = threshold;
            return this;
        }

        /**
         * @param memory the memory signal (default the shared heap-after-GC signal)
         * @return this builder
         */
        public Builder memory(LoadSignal memory) {
            this.memory = memory;
            return this;
        }

        /**
         * @param threshold shed above this memory reading (default 0.90)
         * @return this builder
         */
        public Builder memoryThreshold(double threshold) {
            this.memoryThreshold = threshold;
            return this;
        }

        /**
         * @param threshold above this share of the limit in flight only high priority is admitted (default 0.8)
         * @return this builder
         */
        public Builder priorityThreshold(double threshold) {
            this.priorityThreshold = threshold;
            return this;
        }

        /**
         * @param level the first high-priority level (default 7)
         * @return this builder
         */
        public Builder highPriorityLevel(int level) {
            this.highPriorityLevel = level;
            return this;
        }

        /**
         * @param retryAfter the hint in a refusal (default 5 s)
         * @return this builder
         */
        public Builder retryAfter(Duration retryAfter) {
            this.retryAfter = retryAfter;
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
         * @param scheduler ends the waits of asynchronous callers (default {@link Scheduler#system()}); it
         *     only hands work to the {@code asyncExecutor}, never runs the user's call
         * @return this builder
         */
        public Builder scheduler(Scheduler scheduler) {
            this.scheduler = scheduler;
            return this;
        }

        /**
         * @param asyncExecutor where an asynchronous caller that waited for a slot is resumed (default:
         *     the common fork-join pool); its call and every dependent stage start there
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
        public AdaptiveLoadShedderConfig build() {
            Validate.inRange(POLICY, "maxConcurrent", maxConcurrent, 1, MAX_LIMIT);
            Validate.inRange(POLICY, "maxQueueDepth", maxQueueDepth, 0, MAX_LIMIT);
            Validate.nonNegative(POLICY, "maxQueueTime", maxQueueTime);
            Validate.check(maxQueueTime.compareTo(Duration.ofHours(1)) <= 0, POLICY, "maxQueueTime", "<= 1 hour", maxQueueTime);
            fraction("cpuThreshold", cpuThreshold);
            fraction("memoryThreshold", memoryThreshold);
            fraction("priorityThreshold", priorityThreshold);
            Validate.inRange(POLICY, "highPriorityLevel", highPriorityLevel, RequestPriority.MIN, RequestPriority.MAX);
            Validate.nonNegative(POLICY, "retryAfter", retryAfter);
            Validate.check(retryAfter.compareTo(PriorityShedderConfig.MAX_RETRY_AFTER) <= 0, POLICY, "retryAfter",
                    "<= " + PriorityShedderConfig.MAX_RETRY_AFTER, retryAfter);
            Validate.notNull(POLICY, "ticker", ticker);
            Validate.notNull(POLICY, "scheduler", scheduler);
            Validate.notNull(POLICY, "asyncExecutor", asyncExecutor);
            int fixed = maxConcurrent;
            IntSupplier l = limit != null ? limit : () -> fixed;
            LoadSignal c = cpu != null ? cpu : CpuLoadSignal.process();
            LoadSignal m = memory != null ? memory : MemoryLoadSignal.heapAfterGc();
            return new AdaptiveLoadShedderConfig(this, l, c, m);
        }

        private static void fraction(String field, double v) {
            Validate.check(v >= 0.0 && v <= 1.0, POLICY, field,
                    v > 1.0 ? "a fraction in [0, 1] (was it given in percent?)" : "a fraction in [0, 1]", v);
        }
    }
}

package dev.levee.loadshed.queue;

import dev.levee.core.Ticker;
import dev.levee.core.internal.Validate;
import java.time.Duration;

/**
 * The immutable, nameless configuration of a {@link DeadlineAwareQueue}.
 *
 * <table>
 *   <caption>Settings (numbers from seed 002, {@code DeadlineAwareQueue})</caption>
 *   <tr><th>field</th><th>default</th><th>bound</th><th>effect</th></tr>
 *   <tr><td>{@code maxSize}</td><td>{@value #DEFAULT_MAX_SIZE}</td><td>[1, {@value #MAX_SIZE_LIMIT}]</td>
 *       <td>entries held at most; when full a newcomer evicts the lowest-priority entry only if its own
 *       priority is higher, else it is refused</td></tr>
 *   <tr><td>{@code defaultDeadline}</td><td>{@value #DEFAULT_DEADLINE_SECONDS} s</td><td>(0, 1 day]</td>
 *       <td>the deadline of an entry offered without one (and without a current
 *       {@link dev.levee.core.Deadline})</td></tr>
 *   <tr><td>{@code minRemaining}</td><td>{@value #DEFAULT_MIN_REMAINING_MILLIS} ms</td><td>[0, defaultDeadline)</td>
 *       <td>a dequeue skips (drops) an entry with less time left than this: it could not finish anyway</td></tr>
 *   <tr><td>{@code ticker}</td><td>{@link Ticker#system()}</td><td>not null</td><td>the time source</td></tr>
 * </table>
 * Priorities run from {@value DeadlineAwareQueue#MIN_PRIORITY} to {@value DeadlineAwareQueue#MAX_PRIORITY},
 * default {@value DeadlineAwareQueue#DEFAULT_PRIORITY} (seed 002).
 */
public final class DeadlineAwareQueueConfig {
    /** Default bound on entries (seed 002: {@code max_size = 1000}). */
    public static final int DEFAULT_MAX_SIZE = 1000;
    /** Default deadline in seconds (seed 002: {@code default_deadline = 5.0}). */
    public static final long DEFAULT_DEADLINE_SECONDS = 5;
    /** Default deadline (seed 002). */
    public static final Duration DEFAULT_DEADLINE = Duration.ofSeconds(DEFAULT_DEADLINE_SECONDS);
    /** Default minimum remaining time in milliseconds (seed 002: {@code remaining < 0.1} is skipped). */
    public static final long DEFAULT_MIN_REMAINING_MILLIS = 100;
    /** Default minimum remaining time (seed 002). */
    public static final Duration DEFAULT_MIN_REMAINING = Duration.ofMillis(DEFAULT_MIN_REMAINING_MILLIS);
    /** The largest {@code maxSize} accepted. */
    public static final int MAX_SIZE_LIMIT = 1_000_000;
    /** The longest {@code defaultDeadline} accepted. */
    public static final Duration MAX_DEADLINE = Duration.ofDays(1);

    private static final String POLICY = "DeadlineAwareQueue";
    private static final DeadlineAwareQueueConfig DEFAULTS = builder().build();

    private final int maxSize;
    private final Duration defaultDeadline;
    private final Duration minRemaining;
    private final Ticker ticker;

    private DeadlineAwareQueueConfig(Builder b) {
        this.maxSize = b.maxSize;
        this.defaultDeadline = b.defaultDeadline;
        this.minRemaining = b.minRemaining;
        this.ticker = b.ticker;
    }

    /** @return the defaults */
    public static DeadlineAwareQueueConfig defaults() {
        return DEFAULTS;
    }

    /** @return a builder with the defaults */
    public static Builder builder() {
        return new Builder();
    }

    /** @return a builder holding this configuration */
    public Builder toBuilder() {
        return new Builder().maxSize(maxSize).defaultDeadline(defaultDeadline).minRemaining(minRemaining).ticker(ticker);
    }

    /** @return the bound on entries */
    public int maxSize() {
        return maxSize;
    }

    /** @return the deadline of an entry offered without one */
    public Duration defaultDeadline() {
        return defaultDeadline;
    }

    /** @return the least time an entry must have left to be handed out */
    public Duration minRemaining() {
        return minRemaining;
    }

    /** @return the time source */
    public Ticker ticker() {
        return ticker;
    }

    @Override
    public String toString() {
        return "DeadlineAwareQueueConfig[maxSize=" + maxSize + ", defaultDeadline=" + defaultDeadline
                + ", minRemaining=" + minRemaining + "]";
    }

    /** Builds a {@link DeadlineAwareQueueConfig}; {@link #build()} validates. Not thread-safe. */
    public static final class Builder {
        private int maxSize = DEFAULT_MAX_SIZE;
        private Duration defaultDeadline = DEFAULT_DEADLINE;
        private Duration minRemaining = DEFAULT_MIN_REMAINING;
        private Ticker ticker = Ticker.system();

        private Builder() {}

        /**
         * @param maxSize entries held at most (default 1000)
         * @return this builder
         */
        public Builder maxSize(int maxSize) {
            this.maxSize = maxSize;
            return this;
        }

        /**
         * @param defaultDeadline deadline of an entry offered without one (default 5 s)
         * @return this builder
         */
        public Builder defaultDeadline(Duration defaultDeadline) {
            this.defaultDeadline = defaultDeadline;
            return this;
        }

        /**
         * @param minRemaining least time left for an entry to be handed out (default 100 ms)
         * @return this builder
         */
        public Builder minRemaining(Duration minRemaining) {
            this.minRemaining = minRemaining;
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
         * Validates and builds.
         *
         * @return the configuration
         * @throws dev.levee.core.InvalidConfigException naming the field, bound and value
         */
        public DeadlineAwareQueueConfig build() {
            Validate.inRange(POLICY, "maxSize", maxSize, 1, MAX_SIZE_LIMIT);
            Validate.positive(POLICY, "defaultDeadline", defaultDeadline);
            Validate.check(defaultDeadline.compareTo(MAX_DEADLINE) <= 0, POLICY, "defaultDeadline",
                    "<= " + MAX_DEADLINE, defaultDeadline);
            Validate.nonNegative(POLICY, "minRemaining", minRemaining);
            Validate.check(minRemaining.compareTo(defaultDeadline) < 0, POLICY, "minRemaining",
                    "< defaultDeadline (" + defaultDeadline + ")", minRemaining);
            Validate.notNull(POLICY, "ticker", ticker);
            return new DeadlineAwareQueueConfig(this);
        }
    }
}

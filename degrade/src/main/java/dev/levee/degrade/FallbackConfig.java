package dev.levee.degrade;

import dev.levee.core.Classifier;
import dev.levee.core.InvalidConfigException;
import dev.levee.core.Scheduler;
import dev.levee.core.Ticker;
import dev.levee.core.internal.Validate;
import dev.levee.core.internal.Nanos;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * The immutable, nameless configuration of a {@link Fallback} (and of the fallback side of a
 * {@link LastKnownGood}): which failures trigger it, how loudly it reports, and its time sources.
 * Build it with {@link #builder()}; share it between fallbacks freely.
 *
 * <table>
 *   <caption>Settings</caption>
 *   <tr><th>field</th><th>default</th><th>bound</th><th>effect</th></tr>
 *   <tr><td>{@code classifier}</td><td>{@link #DEFAULT_CLASSIFIER}: every exception a failure</td>
 *       <td>not null</td><td>only a {@link dev.levee.core.Outcome#FAILURE} triggers a fallback; an
 *       ignored exception passes through; a result predicate makes bad results
 *       {@link FallbackReason#RESULT}</td></tr>
 *   <tr><td>{@code reasons}</td><td>{@link #DEFAULT_REASONS}: all seven</td><td>not empty</td>
 *       <td>the reasons that trigger a fallback; others pass through unchanged</td></tr>
 *   <tr><td>{@code warnInterval}</td><td>{@link #DEFAULT_WARN_INTERVAL} (10 s)</td>
 *       <td>[0, {@link #MAX_WARN_INTERVAL}]</td><td>at most one WARN (and one ERROR when every tier
 *       failed) per fallback per interval; the next one says how many were not logged. 0 logs
 *       every activation</td></tr>
 *   <tr><td>{@code ticker}</td><td>{@link Ticker#system()}</td><td>not null</td><td>tier timeouts,
 *       log rate limiting, event times, ages</td></tr>
 *   <tr><td>{@code scheduler}</td><td>{@link Scheduler#system()}</td><td>not null</td><td>fires the
 *       timeouts of asynchronous tiers</td></tr>
 * </table>
 *
 * <p>An {@link Error} never triggers a fallback, whatever the classifier says: a fallback must not
 * paper over an {@code OutOfMemoryError}. Neither does an {@link InterruptedException}: the caller is
 * being cancelled, not failed.
 */
public final class FallbackConfig {
    private static final String POLICY = "Fallback config";

    /** Default {@code classifier}: {@link Classifier#defaults()}. */
    public static final Classifier DEFAULT_CLASSIFIER = Classifier.defaults();
    /** Default {@code reasons}: every {@link FallbackReason}. */
    public static final Set<FallbackReason> DEFAULT_REASONS =
            Collections.unmodifiableSet(EnumSet.allOf(FallbackReason.class));
    /** Default {@code warnInterval}: 10 seconds. */
    public static final Duration DEFAULT_WARN_INTERVAL = Duration.ofSeconds(10);
    /** The longest {@code warnInterval} accepted. */
    public static final Duration MAX_WARN_INTERVAL = Duration.ofHours(1);

    private static final FallbackConfig DEFAULTS = builder().build();

    private final Classifier classifier;
    private final Set<FallbackReason> reasons;
    private final Duration warnInterval;
    private final long warnIntervalNanos;
    private final Ticker ticker;
    private final Scheduler scheduler;

    private FallbackConfig(Builder b) {
        this.classifier = b.classifier;
        this.reasons = Collections.unmodifiableSet(EnumSet.copyOf(b.reasons));
        this.warnInterval = b.warnInterval;
        this.warnIntervalNanos = Nanos.of(b.warnInterval);
        this.ticker = b.ticker;
        this.scheduler = b.scheduler;
    }

    /**
     * Every default.
     *
     * @return the default config
     */
    public static FallbackConfig defaults() {
        return DEFAULTS;
    }

    /**
     * Starts a builder with every default.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A builder holding this config's values, to derive a variant.
     *
     * @return a new builder
     */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.classifier = classifier;
        b.reasons = EnumSet.copyOf(reasons);
        b.warnInterval = warnInterval;
        b.ticker = ticker;
        b.scheduler = scheduler;
        return b;
    }

    /** @return what counts as a failure */
    public Classifier classifier() {
        return classifier;
    }

    /** @return the reasons that trigger a fallback, unmodifiable */
    public Set<FallbackReason> reasons() {
        return reasons;
    }

    /** @return the least time between two WARN logs of one fallback */
    public Duration warnInterval() {
        return warnInterval;
    }

    /** @return {@link #warnInterval()} in nanoseconds */
    public long warnIntervalNanos() {
        return warnIntervalNanos;
    }

    /** @return the time source */
    public Ticker ticker() {
        return ticker;
    }

    /** @return the scheduler firing tier timeouts */
    public Scheduler scheduler() {
        return scheduler;
    }

    @Override
    public String toString() {
        return "FallbackConfig[reasons=" + reasons + ", warnInterval=" + warnInterval + "]";
    }

    /** Builds a {@link FallbackConfig}. Not thread-safe; {@link #build()} validates. */
    public static final class Builder {
        private Classifier classifier = DEFAULT_CLASSIFIER;
        private Set<FallbackReason> reasons = EnumSet.copyOf(DEFAULT_REASONS);
        private Duration warnInterval = DEFAULT_WARN_INTERVAL;
        private Ticker ticker = Ticker.system();
        private Scheduler scheduler = Scheduler.system();

        private Builder() {}

        /**
         * What counts as a failure (default {@link #DEFAULT_CLASSIFIER}).
         *
         * @param classifier the classifier
         * @return this builder
         */
        public Builder classifier(Classifier classifier) {
            this.classifier = classifier;
            return this;
        }

        /**
         * The reasons that trigger a fallback (default all). For example, {@code reasons(CIRCUIT_OPEN,
         * TIMEOUT)} falls back only when the breaker is open or the call timed out, and lets every
         * other failure through.
         *
         * @param first a reason
         * @param more more reasons
         * @return this builder
         */
        public Builder reasons(FallbackReason first, FallbackReason... more) {
            if (first == null || more == null) {
                throw new InvalidConfigException(POLICY, "reasons", "set (not null)", null);
            }
            EnumSet<FallbackReason> set = EnumSet.of(first);
            for (FallbackReason reason : more) {
                if (reason == null) {
                    throw new InvalidConfigException(POLICY, "reasons", "free of nulls", null);
                }
                set.add(reason);
            }
            this.reasons = set;
            return this;
        }

        /**
         * The reasons that trigger a fallback (default all).
         *
         * @param reasons at least one reason
         * @return this builder
         */
        public Builder reasons(Set<FallbackReason> reasons) {
            this.reasons = reasons;
            return this;
        }

        /**
         * The least time between two WARN logs of one fallback (default 10 s; 0 logs every one).
         *
         * @param warnInterval in [0, 1 hour]
         * @return this builder
         */
        public Builder warnInterval(Duration warnInterval) {
            this.warnInterval = warnInterval;
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
         * The scheduler firing the timeouts of asynchronous tiers (default {@link Scheduler#system()}).
         *
         * @param scheduler the scheduler
         * @return this builder
         */
        public Builder scheduler(Scheduler scheduler) {
            this.scheduler = scheduler;
            return this;
        }

        /**
         * Validates and builds.
         *
         * @return the config
         * @throws InvalidConfigException naming the field, the bound and the value
         */
        public FallbackConfig build() {
            Validate.notNull(POLICY, "classifier", classifier);
            Validate.notNull(POLICY, "reasons", reasons);
            Validate.check(!reasons.isEmpty(), POLICY, "reasons", "not empty", reasons);
            for (Object reason : reasons) {
                Validate.check(reason != null, POLICY, "reasons", "free of nulls", reasons);
            }
            Validate.nonNegative(POLICY, "warnInterval", warnInterval);
            Validate.check(warnInterval.compareTo(MAX_WARN_INTERVAL) <= 0, POLICY, "warnInterval",
                    "<= " + MAX_WARN_INTERVAL, warnInterval);
            Validate.notNull(POLICY, "ticker", ticker);
            Validate.notNull(POLICY, "scheduler", scheduler);
            return new FallbackConfig(this);
        }
    }
}

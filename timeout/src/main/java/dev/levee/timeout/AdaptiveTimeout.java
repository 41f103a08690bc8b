package dev.levee.timeout;

import dev.levee.core.Deadline;
import dev.levee.core.internal.Validate;
import dev.levee.core.internal.LatencyQuantile;
import java.time.Duration;

/**
 * A timeout that follows the dependency's observed latency:
 * <pre>
 *   timeout = clamp(quantile(percentile) × factor, minTimeout, maxTimeout)   once sampleCount &gt;= minSamples
 *   timeout = maxTimeout                                                     before that
 * </pre>
 *
 * <p><b>Estimate.</b> Latencies go into log-linear histograms (16 buckets per power of two, so the
 * estimate is within about 3 % of the true quantile), never into a list: memory is fixed (two
 * histograms of 960 counters) and nothing is sorted. Two windows rotate: samples go into the
 * current one; after {@code windowSize} samples the older window is cleared and becomes current.
 * The quantile is taken over both, i.e. over the last one to two windows, so the timeout follows a
 * shift in latency within two windows. The quantile is recomputed every {@value #RECOMPUTE_EVERY}
 * samples (one scan of the buckets), so {@link #timeoutNanos()} is a single volatile read.
 *
 * <p><b>Concurrency.</b> {@link #record(long)} is lock-free: two atomic increments, and every
 * {@value #RECOMPUTE_EVERY}th call a scan. Under contention a sample racing with a window rotation
 * may land in the window being cleared and be lost; the estimate is statistical and such losses are
 * negligible.
 *
 * <p>Use it alone ({@link #record(long)}, {@link #timeout()}) to size a client's read timeout, or
 * plug it into a {@link Timeout} with {@link TimeoutConfig.Builder#adaptive(AdaptiveTimeout)}, which
 * feeds it every call's latency (a timed-out call counts as the timeout, so a slowing dependency
 * pushes the timeout up to {@code maxTimeout}, not down).
 */
public final class AdaptiveTimeout {
    /** The quantile is recomputed every this many samples. */
    public static final int RECOMPUTE_EVERY = 16;

    private final AdaptiveTimeoutConfig config;
    private final String name;
    private final long minNanos;
    private final long maxNanos;
    private final LatencyQuantile estimate;
    private volatile long timeoutNanos;

    private AdaptiveTimeout(String name, AdaptiveTimeoutConfig config) {
        this.name = Validate.name("AdaptiveTimeout", name);
        this.config = Validate.notNull(Validate.describe("AdaptiveTimeout", name), "config", config);
        this.minNanos = Deadline.saturatedNanos(config.minTimeout());
        this.maxNanos = Deadline.saturatedNanos(config.maxTimeout());
        this.timeoutNanos = maxNanos;
        this.estimate = new LatencyQuantile(config.percentile(), config.windowSize(), config.minSamples(), RECOMPUTE_EVERY);
    }

    /**
     * An adaptive timeout from a config.
     *
     * @param name the name, for logs and {@code toString}; not blank
     * @param config the config
     * @return a new adaptive timeout with no samples
     * @throws dev.levee.core.InvalidConfigException if the name is blank or the config null
     */
    public static AdaptiveTimeout of(String name, AdaptiveTimeoutConfig config) {
        return new AdaptiveTimeout(name, config);
    }

    /**
     * An adaptive timeout with the default config (p99 × 1.5 in [10 ms, 5 s], seed 000).
     *
     * @param name the name
     * @return a new adaptive timeout with no samples
     */
    public static AdaptiveTimeout ofDefaults(String name) {
        return new AdaptiveTimeout(name, AdaptiveTimeoutConfig.defaults());
    }

    /** @return the name */
    public String name() {
        return name;
    }

    /** @return the config */
    public AdaptiveTimeoutConfig config() {
        return config;
    }

    /**
     * Records one observed latency.
     *
     * @param latencyNanos the latency; negative counts as 0
     */
    public void record(long latencyNanos) {
        if (estimate.record(latencyNanos)) {
            timeoutNanos = clamp(estimate.quantileNanos() * config.factor());
        }
    }

    private long clamp(double value) {
        if (!(value < maxNanos)) {
            return maxNanos;
        }
        return Math.max(minNanos, (long) value);
    }

    /**
     * The current timeout: {@code max} until {@code minSamples} samples, then the clamped estimate.
     *
     * @return nanoseconds
     */
    public long timeoutNanos() {
        return timeoutNanos;
    }

    /**
     * The current timeout as a duration (allocates; use {@link #timeoutNanos()} on hot paths).
     *
     * @return the timeout
     */
    public Duration timeout() {
        return Duration.ofNanos(timeoutNanos);
    }

    /**
     * The latest quantile estimate, before the factor and clamping.
     *
     * @return nanoseconds, or -1 before {@code minSamples} samples
     */
    public long quantileNanos() {
        return estimate.quantileNanos();
    }

    /** @return samples recorded since creation */
    public long sampleCount() {
        return estimate.sampleCount();
    }

    @Override
    public String toString() {
        return "AdaptiveTimeout[" + timeoutNanos + " ns, " + config + "]";
    }
}

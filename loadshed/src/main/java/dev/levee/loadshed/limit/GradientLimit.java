package dev.levee.loadshed.limit;

import dev.levee.core.RandomSource;
import dev.levee.core.internal.Validate;
import java.time.Duration;

/**
 * Gradient control: shrink the limit in proportion to how far the recent latency is above the no-load
 * latency, and otherwise let it grow by a small, bounded queue allowance.
 *
 * <p><b>Formula</b>, per completed request:
 * <pre>
 *   short    = short + (rtt − short) / shortWindow         (recent average latency)
 *   base     = the no-load latency (see below)
 *   gradient = clamp(tolerance × base / short, 0.5, 1)
 *   drop                          →  target = L × backoff
 *   gradient = 1, inflight &lt; L/2  →  L unchanged           (the limit is not being tested)
 *   otherwise                     →  target = L × gradient + queueSize
 *   L = clamp((1 − smoothing) × L + smoothing × target, min, max)
 * </pre>
 * At equilibrium {@code L × (1 − gradient) = queueSize}, i.e. the recent latency settles just above
 * {@code tolerance × base}: the queue the limit admits is bounded by the tolerance, whatever the load.
 *
 * <p><b>No upward drift.</b> Netflix's Gradient2 compares the recent latency with a long-term
 * <em>average</em>. Under sustained queueing that average absorbs the queueing delay, the gradient
 * returns to 1, and the queue allowance is added again and again: the limit (and the queue) drift
 * upward until the ceiling. Here the baseline is the <em>minimum</em> of the short-term average, which
 * queueing can only raise through a periodic probe that first halves the limit to drain the queue
 * (every {@code probeInterval} ± {@code probeJitter}). So under sustained overload the baseline stays
 * at the no-load latency and the limit stays near {@code capacity × tolerance}; the simulation test
 * {@code GradientDriftSimulationTest} checks this over a long run.
 *
 * <p><b>Failure modes.</b> A service whose no-load latency rises for good (a slower dependency)
 * looks congested until the next probe, so the limit sits low for up to one {@code probeInterval}.
 * A tolerance too close to 1 makes ordinary latency noise look like queueing.
 *
 * <table>
 *   <caption>Defaults</caption>
 *   <tr><th>knob</th><th>default</th><th>bound</th></tr>
 *   <tr><td>{@code initialLimit}</td><td>{@value #DEFAULT_INITIAL_LIMIT}</td><td>[min, max]</td></tr>
 *   <tr><td>{@code minLimit}</td><td>{@value #DEFAULT_MIN_LIMIT}</td><td>≥ 1</td></tr>
 *   <tr><td>{@code maxLimit}</td><td>{@value #DEFAULT_MAX_LIMIT}</td><td>≥ min</td></tr>
 *   <tr><td>{@code tolerance}</td><td>{@value #DEFAULT_TOLERANCE}</td><td>[1, 10]</td></tr>
 *   <tr><td>{@code queueSize}</td><td>{@value #DEFAULT_QUEUE_SIZE}</td><td>[0, 1000]</td></tr>
 *   <tr><td>{@code smoothing}</td><td>{@value #DEFAULT_SMOOTHING}</td><td>(0, 1]</td></tr>
 *   <tr><td>{@code shortWindow}</td><td>{@value #DEFAULT_SHORT_WINDOW} samples</td><td>[1, 10,000]</td></tr>
 *   <tr><td>{@code backoffRatio}</td><td>{@value #DEFAULT_BACKOFF_RATIO}</td><td>(0, 1)</td></tr>
 *   <tr><td>{@code probeInterval}</td><td>60 s</td><td>≥ 0 (0: never probe)</td></tr>
 *   <tr><td>{@code probeJitter}</td><td>{@value #DEFAULT_PROBE_JITTER}</td><td>[0, 1)</td></tr>
 *   <tr><td>{@code random}</td><td>{@link RandomSource#threadLocal()}</td><td>not null</td></tr>
 * </table>
 *
 * <p><b>Once per round trip.</b> Only a request admitted after the last change of the limit
 * ({@code now − rtt ≥ lastChange}) may move it again; latencies of earlier requests still feed the
 * averages. Without this, a controller fed 1000 completions a second reacts a dozen times to one
 * round trip's worth of stale latency and oscillates.
 *
 * <p><b>Cost.</b> Two divisions and a few multiplications per sample. Single writer.
 */
public final class GradientLimit extends BoundedLimit {
    /** Default starting limit. */
    public static final int DEFAULT_INITIAL_LIMIT = 20;
    /** Default floor. */
    public static final int DEFAULT_MIN_LIMIT = 1;
    /** Default ceiling. */
    public static final int DEFAULT_MAX_LIMIT = 1000;
    /** Default latency tolerance: recent latency up to 1.5 × no-load is not congestion. */
    public static final double DEFAULT_TOLERANCE = 1.5;
    /** Default queue allowance added per update. */
    public static final int DEFAULT_QUEUE_SIZE = 4;
    /** Default weight of each new target in the limit. */
    public static final double DEFAULT_SMOOTHING = 0.2;
    /** Default number of samples the short-term average spans. */
    public static final int DEFAULT_SHORT_WINDOW = 10;
    /** Default multiplier on a drop. */
    public static final double DEFAULT_BACKOFF_RATIO = 0.9;
    /** Default period between baseline probes. */
    public static final Duration DEFAULT_PROBE_INTERVAL = Duration.ofSeconds(60);
    /** Default relative jitter of the probe period. */
    public static final double DEFAULT_PROBE_JITTER = 0.15;

    private final double tolerance;
    private final int queueSize;
    private final double smoothing;
    private final double shortWeight;
    private final double backoffRatio;
    private final NoLoadRtt noLoad;
    private final RttWindow window = new RttWindow();
    private double limit;
    private double shortRtt;

    private GradientLimit(Builder b) {
        super(b);
        this.tolerance = b.tolerance;
        this.queueSize = b.queueSize;
        this.smoothing = b.smoothing;
        this.shortWeight = 1.0 / b.shortWindow;
        this.backoffRatio = b.backoffRatio;
        this.noLoad = b.newNoLoadRtt();
        this.limit = b.initialLimit;
    }

    /** @return a builder with the defaults */
    public static Builder builder() {
        return new Builder();
    }

    /** @return a new instance with the defaults */
    public static GradientLimit defaults() {
        return builder().build();
    }

    @Override
    public int update(long nowNanos, long rttNanos, int inflight, boolean drop) {
        shortRtt = shortRtt == 0 ? rttNanos : shortRtt + (rttNanos - shortRtt) * shortWeight;
        int current = (int) limit;
        boolean wasProbing = noLoad.probing();
        if (noLoad.observe(nowNanos, (long) shortRtt, inflight, current)) {
            return noLoad.probeLimit();
        }
        if (wasProbing) {
            limit = noLoad.savedLimit();
            window.changed(nowNanos);
            return (int) limit;
        }
        if (!window.fresh(nowNanos, rttNanos)) {
            return current;
        }
        double target;
        if (drop) {
            target = limit * backoffRatio;
        } else {
            double gradient = Math.max(0.5, Math.min(1.0, tolerance * noLoad.base() / Math.max(1.0, shortRtt)));
            if (gradient >= 1.0 && 2 * inflight < current) {
                return current;
            }
            target = limit * gradient + queueSize;
        }
        limit = Math.max(minLimit, Math.min(maxLimit, (1 - smoothing) * limit + smoothing * target));
        if ((int) limit != current) {
            window.changed(nowNanos);
        }
        return (int) limit;
    }

    /** @return the no-load latency baseline in nanoseconds (0 before the first sample) */
    public long baselineNanos() {
        return noLoad.base();
    }

    @Override
    public String toString() {
        return "GradientLimit[limit=" + (int) limit + ", short=" + shortRtt / 1e6 + "ms, baseline="
                + noLoad.base() / 1e6 + "ms]";
    }

    /** Builds a {@link GradientLimit}; {@link #build()} validates and may be called repeatedly; bounds from {@link LimitBuilder}. */
    public static final class Builder extends ProbingLimitBuilder<Builder> {
        private double tolerance = DEFAULT_TOLERANCE;
        private int queueSize = DEFAULT_QUEUE_SIZE;
        private double smoothing = DEFAULT_SMOOTHING;
        private int shortWindow = DEFAULT_SHORT_WINDOW;
        private double backoffRatio = DEFAULT_BACKOFF_RATIO;

        private Builder() {
            super(DEFAULT_INITIAL_LIMIT, DEFAULT_MIN_LIMIT, DEFAULT_MAX_LIMIT, DEFAULT_PROBE_INTERVAL, DEFAULT_PROBE_JITTER);
        }

        /**
         * @param tolerance recent latency up to this multiple of the baseline is not congestion (default {@value #DEFAULT_TOLERANCE}), in [1, 10]
         * @return this builder
         */
        public Builder tolerance(double tolerance) {
            this.tolerance = tolerance;
            return this;
        }

        /**
         * @param queueSize the allowance added to each target (default {@value #DEFAULT_QUEUE_SIZE}), in [0, 1000]
         * @return this builder
         */
        public Builder queueSize(int queueSize) {
            this.queueSize = queueSize;
            return this;
        }

        /**
         * @param smoothing the weight of each new target (default {@value #DEFAULT_SMOOTHING}), in (0, 1]
         * @return this builder
         */
        public Builder smoothing(double smoothing) {
            this.smoothing = smoothing;
            return this;
        }

        /**
         * @param shortWindow samples spanned by the recent average (default {@value #DEFAULT_SHORT_WINDOW}), in [1, 10,000]
         * @return this builder
         */
        public Builder shortWindow(int shortWindow) {
            this.shortWindow = shortWindow;
            return this;
        }

        /**
         * @param backoffRatio the multiplier on a drop (default {@value #DEFAULT_BACKOFF_RATIO}), in (0, 1)
         * @return this builder
         */
        public Builder backoffRatio(double backoffRatio) {
            this.backoffRatio = backoffRatio;
            return this;
        }

        /**
         * @return a new algorithm instance
         * @throws dev.levee.core.InvalidConfigException naming the field, bound and value
         */
        public GradientLimit build() {
            String p = "GradientLimit";
            checkBounds(p);
            Validate.check(tolerance >= 1 && tolerance <= 10, p, "tolerance", "in [1, 10]", tolerance);
            Validate.inRange(p, "queueSize", queueSize, 0, 1000);
            Validate.check(smoothing > 0 && smoothing <= 1, p, "smoothing", "in (0, 1]", smoothing);
            Validate.inRange(p, "shortWindow", shortWindow, 1, 10_000);
            Validate.check(backoffRatio > 0 && backoffRatio < 1, p, "backoffRatio", "in (0, 1)", backoffRatio);
            checkProbe(p);
            return new GradientLimit(this);
        }
    }
}

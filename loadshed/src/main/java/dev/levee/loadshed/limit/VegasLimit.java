package dev.levee.loadshed.limit;

import dev.levee.core.RandomSource;
import dev.levee.core.internal.Validate;
import java.time.Duration;

/**
 * TCP Vegas applied to requests: estimate how many requests are queued from how far the latency is
 * above the no-load latency, and keep that queue between two small thresholds.
 *
 * <p><b>Formula</b>, per completed request, with {@code base} the no-load latency and
 * {@code lg = max(1, log10 L)}:
 * <pre>
 *   queue = L × (1 − base / rtt)                     (requests waiting, by Little's law)
 *   α = alpha × lg,   β = beta × lg,   threshold = lg
 *   drop                           →  L = L − lg
 *   inflight &lt; L / 2 (no drop)     →  L unchanged     (the limit is not being tested)
 *   queue ≤ threshold              →  L = L + β       (far below the knee: grow fast)
 *   queue &lt; α                      →  L = L + lg
 *   queue &gt; β                      →  L = L − lg
 *   otherwise                      →  L unchanged
 *   L = clamp(L, min, max)
 * </pre>
 * Thresholds grow with {@code log10 L}, so a large limit tolerates a proportionally smaller queue.
 *
 * <p><b>The baseline</b> is the minimum latency seen; it can rise only through a periodic
 * <em>probe</em> at half the limit (every {@code probeInterval} ± {@code probeJitter}, jitter drawn from
 * the injected {@link RandomSource}). Classic implementations reset the minimum to the current sample
 * when they probe; under sustained queueing that sample includes the queue, so every probe ratchets the
 * baseline, and the limit, upward. Measuring at half the limit lets the queue drain first.
 *
 * <p><b>Failure modes.</b> The minimum is a poor baseline when latency varies a lot by itself
 * (exponential service times: the minimum is far below the typical latency, the estimated queue is
 * always large, and the limit sits low). Use {@link GradientLimit}, which compares averages, there.
 *
 * <table>
 *   <caption>Defaults</caption>
 *   <tr><th>knob</th><th>default</th><th>bound</th></tr>
 *   <tr><td>{@code initialLimit}</td><td>{@value #DEFAULT_INITIAL_LIMIT}</td><td>[min, max]</td></tr>
 *   <tr><td>{@code minLimit}</td><td>{@value #DEFAULT_MIN_LIMIT}</td><td>≥ 1</td></tr>
 *   <tr><td>{@code maxLimit}</td><td>{@value #DEFAULT_MAX_LIMIT}</td><td>≥ min</td></tr>
 *   <tr><td>{@code alpha}</td><td>{@value #DEFAULT_ALPHA}</td><td>&gt; 0</td></tr>
 *   <tr><td>{@code beta}</td><td>{@value #DEFAULT_BETA}</td><td>&gt; alpha</td></tr>
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
 * <p><b>Cost.</b> A division, a table lookup for {@code log10} (limits up to 1000) and a few
 * comparisons per sample. Single writer.
 */
public final class VegasLimit extends BoundedLimit {
    /** Default starting limit. */
    public static final int DEFAULT_INITIAL_LIMIT = 20;
    /** Default floor. */
    public static final int DEFAULT_MIN_LIMIT = 1;
    /** Default ceiling. */
    public static final int DEFAULT_MAX_LIMIT = 1000;
    /** Default lower queue threshold factor. */
    public static final double DEFAULT_ALPHA = 3;
    /** Default upper queue threshold factor. */
    public static final double DEFAULT_BETA = 6;
    /** Default period between baseline probes. */
    public static final Duration DEFAULT_PROBE_INTERVAL = Duration.ofSeconds(60);
    /** Default relative jitter of the probe period. */
    public static final double DEFAULT_PROBE_JITTER = 0.15;

    private static final double[] LOG10 = log10Table(1000);

    private final double alpha;
    private final double beta;
    private final NoLoadRtt noLoad;
    private final RttWindow window = new RttWindow();
    private double limit;

    private VegasLimit(Builder b) {
        super(b);
        this.alpha = b.alpha;
        this.beta = b.beta;
        this.noLoad = b.newNoLoadRtt();
        this.limit = b.initialLimit;
    }

    /** @return a builder with the defaults */
    public static Builder builder() {
        return new Builder();
    }

    /** @return a new instance with the defaults */
    public static VegasLimit defaults() {
        return builder().build();
    }

    @Override
    public int update(long nowNanos, long rttNanos, int inflight, boolean drop) {
        int current = (int) limit;
        boolean wasProbing = noLoad.probing();
        if (noLoad.observe(nowNanos, rttNanos, inflight, current)) {
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
        double lg = lg(current);
        if (drop) {
            limit = limit - lg;
        } else if (2 * inflight < current) {
            return current;
        } else {
            long base = noLoad.base();
            double queue = rttNanos <= 0 ? 0 : limit * (1.0 - (double) base / rttNanos);
            if (queue <= lg) {
                limit = limit + beta * lg;
            } else if (queue < alpha * lg) {
                limit = limit + lg;
            } else if (queue > beta * lg) {
                limit = limit - lg;
            }
        }
        limit = Math.max(minLimit, Math.min(maxLimit, limit));
        if ((int) limit != current) {
            window.changed(nowNanos);
        }
        return (int) limit;
    }

    /** @return the no-load latency baseline in nanoseconds (0 before the first sample) */
    public long baselineNanos() {
        return noLoad.base();
    }

    private static double lg(int l) {
        return l < LOG10.length ? LOG10[l] : Math.max(1.0, Math.log10(l));
    }

    private static double[] log10Table(int n) {
        double[] t = new double[n + 1];
        for (int i = 0; i <= n; i++) {
            t[i] = Math.max(1.0, Math.log10(Math.max(1, i)));
        }
        return t;
    }

    @Override
    public String toString() {
        return "VegasLimit[limit=" + (int) limit + ", baseline=" + noLoad.base() / 1_000_000.0 + "ms]";
    }

    /** Builds a {@link VegasLimit}; {@link #build()} validates and may be called repeatedly; bounds from {@link LimitBuilder}. */
    public static final class Builder extends ProbingLimitBuilder<Builder> {
        private double alpha = DEFAULT_ALPHA;
        private double beta = DEFAULT_BETA;

        private Builder() {
            super(DEFAULT_INITIAL_LIMIT, DEFAULT_MIN_LIMIT, DEFAULT_MAX_LIMIT, DEFAULT_PROBE_INTERVAL, DEFAULT_PROBE_JITTER);
        }

        /**
         * @param alpha grow while the estimated queue is below {@code alpha × log10 L} (default {@value #DEFAULT_ALPHA})
         * @return this builder
         */
        public Builder alpha(double alpha) {
            this.alpha = alpha;
            return this;
        }

        /**
         * @param beta shrink while the estimated queue is above {@code beta × log10 L} (default {@value #DEFAULT_BETA}), above alpha
         * @return this builder
         */
        public Builder beta(double beta) {
            this.beta = beta;
            return this;
        }

        /**
         * @return a new algorithm instance
         * @throws dev.levee.core.InvalidConfigException naming the field, bound and value
         */
        public VegasLimit build() {
            String p = "VegasLimit";
            checkBounds(p);
            Validate.check(alpha > 0 && alpha <= 1000, p, "alpha", "in (0, 1000]", alpha);
            Validate.check(beta > alpha && beta <= 1000, p, "beta", "in (alpha, 1000] with alpha = " + alpha, beta);
            checkProbe(p);
            return new VegasLimit(this);
        }
    }
}

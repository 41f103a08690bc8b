package dev.levee.loadshed.limit;

import dev.levee.core.internal.Validate;
import java.time.Duration;

/**
 * Additive-increase, multiplicative-decrease on a latency target, exactly as seed 002 ("Adaptive load
 * shedding", {@code _adjust_limit}) states it. Its numbers are the defaults.
 *
 * <p><b>Formula</b>, per completed request:
 * <pre>
 *   rtt &lt; target                 →  L = min(max, L + 1)
 *   rtt &gt; threshold × target  or drop →  L = max(min, ⌊L × backoff⌋)
 *   otherwise                     →  L unchanged
 * </pre>
 * The seed's {@code int(L × 0.75)} truncates, so 101 becomes 75 and 10 would become 7 (held at the
 * floor 10). A drop (a failure or timeout) counts as a slow completion; the seed has no drops.
 *
 * <p><b>Once per round trip</b> (our one addition, {@code oncePerRtt}, on by default): a completion
 * may move the limit only if its request was admitted after the last change
 * ({@code now − rtt ≥ lastChange}). The seed applies its rule to every completion; at 1000 completions
 * a second that grows the limit by hundreds per second, and a burst of slow completions — all admitted
 * under the same old limit — cuts it by 0.75 each, from 100 to the floor in a few milliseconds. The
 * simulation ({@code OverloadSimulationTest}) shows the literal rule oscillating between the floor and
 * 30 and losing 30 % of goodput; with the guard each change is still exactly the seed's (+1, ×0.75),
 * applied at most once per round trip, as TCP does. {@code oncePerRtt(false)} restores the literal
 * rule.
 *
 * <p><b>Guarantees.</b> {@code min ≤ L ≤ max}. From a limit {@code L}, {@code k} fast completions raise
 * it to {@code min(max, L + k)}; one slow completion cuts it by a quarter, so after a latency spike it
 * reaches the floor within {@code ⌈log(min/L)/log(backoff)⌉} slow completions (8 from 100 to 10).
 *
 * <p><b>Knobs.</b>
 * <table>
 *   <caption>Defaults (seed 002)</caption>
 *   <tr><th>knob</th><th>default</th><th>bound</th></tr>
 *   <tr><td>{@code initialLimit}</td><td>{@value #DEFAULT_INITIAL_LIMIT} (the seed's {@code max_concurrent})</td><td>[min, max]</td></tr>
 *   <tr><td>{@code minLimit}</td><td>{@value #DEFAULT_MIN_LIMIT}</td><td>≥ 1</td></tr>
 *   <tr><td>{@code maxLimit}</td><td>{@value #DEFAULT_MAX_LIMIT} (the seed's {@code max_concurrent})</td><td>≥ min</td></tr>
 *   <tr><td>{@code target}</td><td>100 ms ({@code target_latency_ms})</td><td>&gt; 0</td></tr>
 *   <tr><td>{@code backoffRatio}</td><td>{@value #DEFAULT_BACKOFF_RATIO}</td><td>(0, 1)</td></tr>
 *   <tr><td>{@code decreaseThreshold}</td><td>{@value #DEFAULT_DECREASE_THRESHOLD} × target</td><td>≥ 1</td></tr>
 * </table>
 * With the seed's defaults the limit starts at its ceiling, so it can only fall and climb back; raise
 * {@code maxLimit} to let it grow past 100. Pick the target from the uncongested latency: see
 * {@code docs/loadshed.md}, "How to pick a target latency".
 *
 * <p><b>Cost.</b> A comparison and an add or a multiply per sample. Not thread-safe: a limiter feeds it
 * from one thread at a time ({@link LimitAlgorithm}).
 */
public final class LatencyAimdLimit extends BoundedLimit {
    /** Seed 002: the limit starts at {@code max_concurrent} = 100. */
    public static final int DEFAULT_INITIAL_LIMIT = 100;
    /** Seed 002: {@code max(10, …)}. */
    public static final int DEFAULT_MIN_LIMIT = 10;
    /** Seed 002: {@code min(max_concurrent, …)} with {@code max_concurrent = 100}. */
    public static final int DEFAULT_MAX_LIMIT = 100;
    /** Seed 002: {@code target_latency_ms = 100.0}. */
    public static final Duration DEFAULT_TARGET = Duration.ofMillis(100);
    /** Seed 002: {@code int(dynamic_limit * 0.75)}. */
    public static final double DEFAULT_BACKOFF_RATIO = 0.75;
    /** Seed 002: decrease when {@code latency_ms > target_latency_ms * 2}. */
    public static final double DEFAULT_DECREASE_THRESHOLD = 2.0;
    /** Our one addition to seed 002: at most one change per round trip (see the class comment). */
    public static final boolean DEFAULT_ONCE_PER_RTT = true;

    private final long targetNanos;
    private final long decreaseAboveNanos;
    private final double backoffRatio;
    private final boolean oncePerRtt;
    private final RttWindow window = new RttWindow();
    private int limit;

    private LatencyAimdLimit(Builder b) {
        super(b);
        this.targetNanos = b.target.toNanos();
        this.decreaseAboveNanos = (long) Math.min(Long.MAX_VALUE, targetNanos * b.decreaseThreshold);
        this.backoffRatio = b.backoffRatio;
        this.oncePerRtt = b.oncePerRtt;
        this.limit = b.initialLimit;
    }

    /** @return a builder holding seed 002's defaults */
    public static Builder builder() {
        return new Builder();
    }

    /** @return a new instance with seed 002's defaults */
    public static LatencyAimdLimit defaults() {
        return builder().build();
    }

    @Override
    public int update(long nowNanos, long rttNanos, int inflight, boolean drop) {
        if (oncePerRtt && !window.fresh(nowNanos, rttNanos)) {
            return limit;
        }
        int before = limit;
        if (drop || rttNanos > decreaseAboveNanos) {
            limit = Math.max(minLimit, (int) (limit * backoffRatio));
        } else if (rttNanos < targetNanos) {
            limit = Math.min(maxLimit, limit + 1);
        }
        if (limit != before) {
            window.changed(nowNanos);
        }
        return limit;
    }

    @Override
    public String toString() {
        return "LatencyAimdLimit[limit=" + limit + ", min=" + minLimit + ", max=" + maxLimit + ", target="
                + targetNanos / 1_000_000.0 + "ms]";
    }

    /** Builds a {@link LatencyAimdLimit}; {@link #build()} validates and may be called repeatedly; bounds from {@link LimitBuilder}. */
    public static final class Builder extends LimitBuilder<Builder> {
        private Duration target = DEFAULT_TARGET;
        private double backoffRatio = DEFAULT_BACKOFF_RATIO;
        private double decreaseThreshold = DEFAULT_DECREASE_THRESHOLD;
        private boolean oncePerRtt = DEFAULT_ONCE_PER_RTT;

        private Builder() {
            super(DEFAULT_INITIAL_LIMIT, DEFAULT_MIN_LIMIT, DEFAULT_MAX_LIMIT);
        }

        /**
         * @param oncePerRtt whether only requests admitted after the last change may move the limit
         *     (default {@value #DEFAULT_ONCE_PER_RTT}; {@code false} is the seed's rule word for word)
         * @return this builder
         */
        public Builder oncePerRtt(boolean oncePerRtt) {
            this.oncePerRtt = oncePerRtt;
            return this;
        }

        /**
         * @param target completions faster than this raise the limit (default 100 ms), positive
         * @return this builder
         */
        public Builder target(Duration target) {
            this.target = target;
            return this;
        }

        /**
         * @param backoffRatio the multiplier on a slow completion (default {@value #DEFAULT_BACKOFF_RATIO}), in (0, 1)
         * @return this builder
         */
        public Builder backoffRatio(double backoffRatio) {
            this.backoffRatio = backoffRatio;
            return this;
        }

        /**
         * @param decreaseThreshold completions slower than this multiple of the target cut the limit
         *     (default {@value #DEFAULT_DECREASE_THRESHOLD}), at least 1
         * @return this builder
         */
        public Builder decreaseThreshold(double decreaseThreshold) {
            this.decreaseThreshold = decreaseThreshold;
            return this;
        }

        /**
         * @return a new algorithm instance
         * @throws dev.levee.core.InvalidConfigException naming the field, bound and value
         */
        public LatencyAimdLimit build() {
            String p = "LatencyAimdLimit";
            checkBounds(p);
            Validate.notNull(p, "target", target);
            Validate.positive(p, "target", target);
            Validate.check(backoffRatio > 0 && backoffRatio < 1, p, "backoffRatio", "in (0, 1)", backoffRatio);
            Validate.check(decreaseThreshold >= 1 && decreaseThreshold <= 1000, p, "decreaseThreshold", "in [1, 1000]",
                    decreaseThreshold);
            return new LatencyAimdLimit(this);
        }
    }
}

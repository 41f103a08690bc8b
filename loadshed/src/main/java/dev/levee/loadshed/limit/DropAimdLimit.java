package dev.levee.loadshed.limit;

import dev.levee.core.internal.Validate;
import java.time.Duration;

/**
 * Classic loss-driven AIMD, as TCP Reno treats packet loss: grow by one while requests succeed, back
 * off multiplicatively on a drop.
 *
 * <p><b>Formula</b>, per completed request:
 * <pre>
 *   drop  or  rtt &gt; timeout              →  L = max(min, ⌊L × backoff⌋)
 *   success  and  inflight ≥ L / 2        →  L = min(max, L + 1)
 *   success  and  inflight &lt; L / 2        →  L unchanged  (the limit is not what holds the load back)
 * </pre>
 * The second guard stops an idle service from inflating its limit: a limit that is never reached is
 * not being tested, so successes under it say nothing about whether a higher one is safe. As in TCP,
 * the limit moves at most once per round trip: only a request admitted after the last change
 * ({@code now − rtt ≥ lastChange}) may move it, so a burst of drops from one window backs off once.
 *
 * <p><b>Guarantees.</b> {@code min ≤ L ≤ max}. It ignores latency below the timeout entirely, so it
 * reacts only once the service already fails or times out: use it where drops are the only signal
 * (a downstream that answers 503 quickly), and a latency algorithm ({@link GradientLimit},
 * {@link VegasLimit}, {@link LatencyAimdLimit}) where queueing shows first as latency.
 *
 * <table>
 *   <caption>Defaults</caption>
 *   <tr><th>knob</th><th>default</th><th>bound</th></tr>
 *   <tr><td>{@code initialLimit}</td><td>{@value #DEFAULT_INITIAL_LIMIT}</td><td>[min, max]</td></tr>
 *   <tr><td>{@code minLimit}</td><td>{@value #DEFAULT_MIN_LIMIT}</td><td>≥ 1</td></tr>
 *   <tr><td>{@code maxLimit}</td><td>{@value #DEFAULT_MAX_LIMIT}</td><td>≥ min</td></tr>
 *   <tr><td>{@code backoffRatio}</td><td>{@value #DEFAULT_BACKOFF_RATIO}</td><td>(0, 1)</td></tr>
 *   <tr><td>{@code timeout}</td><td>5 s</td><td>&gt; 0</td></tr>
 * </table>
 *
 * <p><b>Cost.</b> Two comparisons and an add or a multiply per sample. Single writer.
 */
public final class DropAimdLimit extends BoundedLimit {
    /** Default starting limit. */
    public static final int DEFAULT_INITIAL_LIMIT = 20;
    /** Default floor. */
    public static final int DEFAULT_MIN_LIMIT = 1;
    /** Default ceiling. */
    public static final int DEFAULT_MAX_LIMIT = 200;
    /** Default multiplier on a drop. */
    public static final double DEFAULT_BACKOFF_RATIO = 0.9;
    /** Default latency above which a success counts as a drop. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

    private final double backoffRatio;
    private final long timeoutNanos;
    private final RttWindow window = new RttWindow();
    private int limit;

    private DropAimdLimit(Builder b) {
        super(b);
        this.backoffRatio = b.backoffRatio;
        this.timeoutNanos = b.timeout.toNanos();
        this.limit = b.initialLimit;
    }

    /** @return a builder with the defaults */
    public static Builder builder() {
        return new Builder();
    }

    /** @return a new instance with the defaults */
    public static DropAimdLimit defaults() {
        return builder().build();
    }

    @Override
    public int update(long nowNanos, long rttNanos, int inflight, boolean drop) {
        if (!window.fresh(nowNanos, rttNanos)) {
            return limit;
        }
        int before = limit;
        if (drop || rttNanos > timeoutNanos) {
            limit = Math.max(minLimit, (int) (limit * backoffRatio));
        } else if (2 * inflight >= limit) {
            limit = Math.min(maxLimit, limit + 1);
        }
        if (limit != before) {
            window.changed(nowNanos);
        }
        return limit;
    }

    @Override
    public String toString() {
        return "DropAimdLimit[limit=" + limit + ", min=" + minLimit + ", max=" + maxLimit + "]";
    }

    /** Builds a {@link DropAimdLimit}; {@link #build()} validates and may be called repeatedly; bounds from {@link LimitBuilder}. */
    public static final class Builder extends LimitBuilder<Builder> {
        private double backoffRatio = DEFAULT_BACKOFF_RATIO;
        private Duration timeout = DEFAULT_TIMEOUT;

        private Builder() {
            super(DEFAULT_INITIAL_LIMIT, DEFAULT_MIN_LIMIT, DEFAULT_MAX_LIMIT);
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
         * @param timeout a success slower than this counts as a drop (default 5 s), positive
         * @return this builder
         */
        public Builder timeout(Duration timeout) {
            this.timeout = timeout;
            return this;
        }

        /**
         * @return a new algorithm instance
         * @throws dev.levee.core.InvalidConfigException naming the field, bound and value
         */
        public DropAimdLimit build() {
            String p = "DropAimdLimit";
            checkBounds(p);
            Validate.check(backoffRatio > 0 && backoffRatio < 1, p, "backoffRatio", "in (0, 1)", backoffRatio);
            Validate.notNull(p, "timeout", timeout);
            Validate.positive(p, "timeout", timeout);
            return new DropAimdLimit(this);
        }
    }
}

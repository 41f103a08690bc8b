package dev.levee.loadshed;

import dev.levee.core.InvalidConfigException;
import dev.levee.core.internal.Validate;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The named partitions of a {@link PartitionedConcurrencyLimiter} and the share of the limit each is
 * guaranteed, as fractions summing to 1.0 ({@code checkout 0.7}, {@code search 0.3}). Immutable.
 *
 * <table>
 *   <caption>Settings</caption>
 *   <tr><th>field</th><th>default</th><th>bound</th></tr>
 *   <tr><td>{@code share} per partition</td><td>—</td><td>(0, 1], all summing to 1.0 (± 1e-9); a value above 1 is
 *       almost certainly a percent and is refused saying so</td></tr>
 *   <tr><td>{@code idleTimeout}</td><td>1 s</td><td>&gt; 0: a partition that asked for nothing for this long
 *       lends its whole share</td></tr>
 * </table>
 */
public final class Partitions {
    /** Default time without a request after which a partition's unused share may be borrowed. */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(1);
    /** How far the shares' sum may be from 1.0 (floating-point rounding). */
    public static final double SUM_TOLERANCE = 1e-9;

    private final Map<String, Double> shares;
    private final Duration idleTimeout;

    private Partitions(Builder b) {
        this.shares = Collections.unmodifiableMap(new LinkedHashMap<>(b.shares));
        this.idleTimeout = b.idleTimeout;
    }

    /** @return a builder with no partitions */
    public static Builder builder() {
        return new Builder();
    }

    /** @return partition names to guaranteed shares, in the order added */
    public Map<String, Double> shares() {
        return shares;
    }

    /** @return how long a partition may be silent before its share is lent */
    public Duration idleTimeout() {
        return idleTimeout;
    }

    @Override
    public String toString() {
        return "Partitions" + shares;
    }

    /** Builds {@link Partitions}. */
    public static final class Builder {
        private final Map<String, Double> shares = new LinkedHashMap<>();
        private Duration idleTimeout = DEFAULT_IDLE_TIMEOUT;

        private Builder() {}

        /**
         * Adds a partition.
         *
         * @param name the partition's name, unique and non-blank
         * @param share its guaranteed fraction of the limit, in (0, 1]
         * @return this builder
         */
        public Builder add(String name, double share) {
            String p = "PartitionedConcurrencyLimiter";
            Validate.name(p, name);
            Validate.check(!shares.containsKey(name), p, "partition", "unique", "'" + name + "' twice");
            shares.put(name, share);
            return this;
        }

        /**
         * @param idleTimeout a partition silent this long lends its share (default 1 s), positive
         * @return this builder
         */
        public Builder idleTimeout(Duration idleTimeout) {
            this.idleTimeout = idleTimeout;
            return this;
        }

        /**
         * Validates and builds.
         *
         * @return the partitions
         * @throws InvalidConfigException if there are none, a share is out of (0, 1], or the shares do not
         *     sum to 1.0
         */
        public Partitions build() {
            String p = "PartitionedConcurrencyLimiter";
            Validate.check(!shares.isEmpty(), p, "partitions", "at least one", "none");
            double sum = 0;
            for (Map.Entry<String, Double> e : shares.entrySet()) {
                double s = e.getValue();
                if (s > 1 && s <= 100) {
                    throw new InvalidConfigException(p, "share of '" + e.getKey() + "'",
                            "a fraction in (0, 1] (0.7 means 70 %; this looks like a percent)", s);
                }
                Validate.check(s > 0 && s <= 1, p, "share of '" + e.getKey() + "'", "in (0, 1]", s);
                sum += s;
            }
            Validate.check(Math.abs(sum - 1.0) <= SUM_TOLERANCE, p, "shares", "summing to 1.0", sum);
            Validate.notNull(p, "idleTimeout", idleTimeout);
            Validate.positive(p, "idleTimeout", idleTimeout);
            return new Partitions(this);
        }
    }
}

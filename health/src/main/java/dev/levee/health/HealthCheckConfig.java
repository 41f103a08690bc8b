package dev.levee.health;

import dev.levee.core.internal.Validate;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How one check is run and reported: whether it is critical, how long its result is cached, its own
 * timeout, and its hysteresis. Immutable and nameless; one config may serve many checks.
 *
 * <p><b>Caching.</b> With {@code cacheTtl > 0} a result younger than the TTL is served without running
 * the check. Once it is older, with {@code refreshAhead} (the default) the old result is still served
 * while one background run refreshes it, so a probe never waits for an expensive check and a
 * probe storm never multiplies the dependency's load; a result older than twice the TTL (nobody asked
 * for a while) is not served: the caller waits for a fresh run. With or without a cache, concurrent
 * callers share one run: a check never runs twice at once.
 *
 * <p><b>Hysteresis.</b> The reported status moves to a worse status only after
 * {@code consecutiveToWorsen} results in a row worse than it, and to a better one only after
 * {@code consecutiveToRecover} in a row better than it (it then takes the latest result; the first
 * result is reported as it is), so one slow ping does not pull an instance out of rotation and
 * one lucky ping does not put a sick one back. The defaults (1, 1) report every result as it is: a
 * Kubernetes probe already applies its own {@code failureThreshold}; raise them when something reacts
 * to a single reading (a load balancer that ejects on one failure).
 *
 * <table>
 *   <caption>Knobs, defaults and bounds</caption>
 *   <tr><th>knob</th><th>default</th><th>bound</th></tr>
 *   <tr><td>critical</td><td>{@value #DEFAULT_CRITICAL}</td><td>-</td></tr>
 *   <tr><td>cacheTtl</td><td>0 (no cache)</td><td>[0, 1 day]</td></tr>
 *   <tr><td>refreshAhead</td><td>{@value #DEFAULT_REFRESH_AHEAD}</td><td>-</td></tr>
 *   <tr><td>timeout</td><td>null (the level's)</td><td>null or (0, 1 day]; never longer than the level's</td></tr>
 *   <tr><td>consecutiveToWorsen</td><td>{@value #DEFAULT_CONSECUTIVE_TO_WORSEN}</td><td>[1, {@value #MAX_CONSECUTIVE}]</td></tr>
 *   <tr><td>consecutiveToRecover</td><td>{@value #DEFAULT_CONSECUTIVE_TO_RECOVER}</td><td>[1, {@value #MAX_CONSECUTIVE}]</td></tr>
 * </table>
 */
public final class HealthCheckConfig {
    private static final String POLICY = "HealthCheck config";

    /** Default: a check is critical. */
    public static final boolean DEFAULT_CRITICAL = true;
    /** Default: no caching. */
    public static final Duration DEFAULT_CACHE_TTL = Duration.ZERO;
    /** Default: serve the stale result once while one background run refreshes it. */
    public static final boolean DEFAULT_REFRESH_AHEAD = true;
    /** Default: one result at a worse status is enough to report it. */
    public static final int DEFAULT_CONSECUTIVE_TO_WORSEN = 1;
    /** Default: one result at a better status is enough to report it. */
    public static final int DEFAULT_CONSECUTIVE_TO_RECOVER = 1;
    /** Largest hysteresis count. */
    public static final int MAX_CONSECUTIVE = 100;
    /** Longest cache TTL and timeout. */
    public static final Duration MAX_DURATION = Duration.ofDays(1);

    private static final HealthCheckConfig DEFAULTS = builder().build();

    private final boolean critical;
    private final Duration cacheTtl;
    private final boolean refreshAhead;
    private final @Nullable Duration timeout;
    private final int consecutiveToWorsen;
    private final int consecutiveToRecover;

    private HealthCheckConfig(Builder b) {
        this.critical = b.critical;
        this.cacheTtl = b.cacheTtl;
        this.refreshAhead = b.refreshAhead;
        this.timeout = b.timeout;
        this.consecutiveToWorsen = b.consecutiveToWorsen;
        this.consecutiveToRecover = b.consecutiveToRecover;
    }

    /**
     * The defaults: critical, not cached, the level's timeout, no hysteresis.
     *
     * @return the shared default config
     */
    public static HealthCheckConfig defaults() {
        return DEFAULTS;
    }

    /**
     * Starts a config from the defaults.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A builder holding this config's values.
     *
     * @return a new builder
     */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.critical = critical;
        b.cacheTtl = cacheTtl;
        b.refreshAhead = refreshAhead;
        b.timeout = timeout;
        b.consecutiveToWorsen = consecutiveToWorsen;
        b.consecutiveToRecover = consecutiveToRecover;
        return b;
    }

    /**
     * Whether the check's UNHEALTHY makes its level UNHEALTHY (a non-critical check's counts as DEGRADED).
     *
     * @return true if critical
     */
    public boolean critical() {
        return critical;
    }

    /**
     * How long a result is served without running the check again; zero for no cache.
     *
     * @return the TTL
     */
    public Duration cacheTtl() {
        return cacheTtl;
    }

    /**
     * Whether an expired result (younger than twice the TTL) is served while one background run refreshes it.
     *
     * @return true to refresh ahead
     */
    public boolean refreshAhead() {
        return refreshAhead;
    }

    /**
     * The check's own timeout, or null for the level's; the level's timeout still caps it.
     *
     * @return the timeout or null
     */
    public @Nullable Duration timeout() {
        return timeout;
    }

    /**
     * Results in a row at a worse status before it is reported.
     *
     * @return the count
     */
    public int consecutiveToWorsen() {
        return consecutiveToWorsen;
    }

    /**
     * Results in a row at a better status before it is reported.
     *
     * @return the count
     */
    public int consecutiveToRecover() {
        return consecutiveToRecover;
    }

    @Override
    public String toString() {
        return "HealthCheckConfig[critical=" + critical + ", cacheTtl=" + cacheTtl + ", refreshAhead=" + refreshAhead
                + ", timeout=" + timeout + ", consecutiveToWorsen=" + consecutiveToWorsen
                + ", consecutiveToRecover=" + consecutiveToRecover + "]";
    }

    /** Builds a {@link HealthCheckConfig}; {@link #build()} validates every field. */
    public static final class Builder {
        private boolean critical = DEFAULT_CRITICAL;
        private Duration cacheTtl = DEFAULT_CACHE_TTL;
        private boolean refreshAhead = DEFAULT_REFRESH_AHEAD;
        private @Nullable Duration timeout;
        private int consecutiveToWorsen = DEFAULT_CONSECUTIVE_TO_WORSEN;
        private int consecutiveToRecover = DEFAULT_CONSECUTIVE_TO_RECOVER;

        private Builder() {}

        /**
         * Whether the check is critical.
         *
         * @param value false to count its UNHEALTHY as DEGRADED
         * @return this builder
         */
        public Builder critical(boolean value) {
            this.critical = value;
            return this;
        }

        /**
         * How long a result is cached.
         *
         * @param value the TTL; zero for none
         * @return this builder
         */
        public Builder cacheTtl(Duration value) {
            this.cacheTtl = value;
            return this;
        }

        /**
         * Whether an expired result is served while one background run refreshes it.
         *
         * @param value true to refresh ahead
         * @return this builder
         */
        public Builder refreshAhead(boolean value) {
            this.refreshAhead = value;
            return this;
        }

        /**
         * The check's own timeout (capped by its level's).
         *
         * @param value the timeout, or null for the level's
         * @return this builder
         */
        public Builder timeout(@Nullable Duration value) {
            this.timeout = value;
            return this;
        }

        /**
         * Results in a row at a worse status before it is reported.
         *
         * @param value the count
         * @return this builder
         */
        public Builder consecutiveToWorsen(int value) {
            this.consecutiveToWorsen = value;
            return this;
        }

        /**
         * Results in a row at a better status before it is reported.
         *
         * @param value the count
         * @return this builder
         */
        public Builder consecutiveToRecover(int value) {
            this.consecutiveToRecover = value;
            return this;
        }

        /**
         * Validates and builds.
         *
         * @return the config
         * @throws dev.levee.core.InvalidConfigException if a field is out of bounds
         */
        public HealthCheckConfig build() {
            Validate.nonNegative(POLICY, "cacheTtl", cacheTtl);
            Validate.check(cacheTtl.compareTo(MAX_DURATION) <= 0, POLICY, "cacheTtl", "<= " + MAX_DURATION, cacheTtl);
            if (timeout != null) {
                Duration t = Objects.requireNonNull(timeout);
                Validate.positive(POLICY, "timeout", t);
                Validate.check(t.compareTo(MAX_DURATION) <= 0, POLICY, "timeout", "<= " + MAX_DURATION, t);
            }
            Validate.inRange(POLICY, "consecutiveToWorsen", consecutiveToWorsen, 1, MAX_CONSECUTIVE);
            Validate.inRange(POLICY, "consecutiveToRecover", consecutiveToRecover, 1, MAX_CONSECUTIVE);
            return new HealthCheckConfig(this);
        }
    }
}

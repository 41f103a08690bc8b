package dev.levee.health;

import dev.levee.core.internal.Validate;
import dev.levee.core.internal.Nanos;
import java.time.Duration;
import java.util.Locale;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * A dependency's health read from what Levee's own policies already know about it (seed 004
 * §17.5.1: the process measures the response time, timeouts and errors of its calls to the dependency
 * and reports itself unhealthy when a measure breaks a threshold). No call is made to the dependency.
 *
 * <pre>{@code
 * HealthCheck inventory = DependencyCheck.builder("inventory")
 *         .circuitBreaker(breaker::state)                                        // CircuitState
 *         .saturation(() -> bulkhead.activeCount() / (double) bulkhead.maxConcurrentCalls())
 *         .errorRate(() -> breaker.metrics().failureRate())                      // a fraction
 *         .build();
 * }</pre>
 *
 * <p>Each view is a small read-only supplier, so this module depends on {@code levee-core} only and
 * works with any source (a resilience4j breaker's state enum maps the same way). The status is the
 * worst of the views set; each view's reading is a detail of the result.
 *
 * <table>
 *   <caption>Views, their mapping and defaults</caption>
 *   <tr><th>view</th><th>reads</th><th>status</th></tr>
 *   <tr><td>circuitBreaker</td><td>an enum constant's name</td><td>{@link #breakerStatus(String)}:
 *       CLOSED, DISABLED, METRICS_ONLY → HEALTHY; HALF_OPEN → DEGRADED; OPEN, FORCED_OPEN → UNHEALTHY;
 *       anything else → DEGRADED</td></tr>
 *   <tr><td>saturation</td><td>in-flight / limit, a fraction</td><td>{@link #DEFAULT_SATURATION}: DEGRADED &gt;= 0.8, UNHEALTHY &gt;= 1.0</td></tr>
 *   <tr><td>rejectionRate</td>
 *       <td>refused / asked, a fraction (limiter, shedder)</td>
 *       <td>{@link #DEFAULT_REJECTION_RATE}: DEGRADED &gt;= 0.1, UNHEALTHY &gt;= 0.5</td></tr>
 *   <tr><td>errorRate</td><td>failed / calls, a fraction</td><td>{@link #DEFAULT_ERROR_RATE}: DEGRADED &gt;= 0.1, UNHEALTHY &gt;= 0.5</td></tr>
 *   <tr><td>latency</td><td>a latency percentile in nanoseconds</td><td>two durations given with the view</td></tr>
 * </table>
 *
 * <p><b>Here be dragons</b> (seed 004): when a shared dependency fails, every instance fails this
 * check at once, and a load balancer that trusts readiness takes the whole fleet out. Register it
 * non-critical (DEGRADED) unless shedding load from the dependency is the point, and read
 * {@code docs/health.md} on load-balancer panic mode.
 *
 * <p>Cost: one call of each supplier per run.
 */
public final class DependencyCheck implements HealthCheck {
    /** Default saturation thresholds: DEGRADED at 80 %, UNHEALTHY when full. */
    public static final Thresholds DEFAULT_SATURATION = Thresholds.above(0.8, 1.0);
    /** Default rejection-rate thresholds: DEGRADED at 10 %, UNHEALTHY at 50 %. */
    public static final Thresholds DEFAULT_REJECTION_RATE = Thresholds.above(0.1, 0.5);
    /** Default error-rate thresholds: DEGRADED at 10 %, UNHEALTHY at 50 %. */
    public static final Thresholds DEFAULT_ERROR_RATE = Thresholds.above(0.1, 0.5);

    private final String dependency;
    private final @Nullable Supplier<? extends Enum<?>> breaker;
    private final @Nullable DoubleSupplier saturation;
    private final Thresholds saturationThresholds;
    private final @Nullable DoubleSupplier rejectionRate;
    private final Thresholds rejectionThresholds;
    private final @Nullable DoubleSupplier errorRate;
    private final Thresholds errorThresholds;
    private final @Nullable LongSupplier latencyNanos;
    private final long latencyDegradedNanos;
    private final long latencyUnhealthyNanos;

    private DependencyCheck(Builder b) {
        this.dependency = b.dependency;
        this.breaker = b.breaker;
        this.saturation = b.saturation;
        this.saturationThresholds = b.saturationThresholds;
        this.rejectionRate = b.rejectionRate;
        this.rejectionThresholds = b.rejectionThresholds;
        this.errorRate = b.errorRate;
        this.errorThresholds = b.errorThresholds;
        this.latencyNanos = b.latencyNanos;
        this.latencyDegradedNanos = b.latencyDegraded == null ? 0 : Nanos.of(b.latencyDegraded);
        this.latencyUnhealthyNanos = b.latencyUnhealthy == null ? 0 : Nanos.of(b.latencyUnhealthy);
    }

    /**
     * Starts a dependency check.
     *
     * @param dependency the dependency's name (used in messages)
     * @return a builder
     */
    public static Builder builder(String dependency) {
        return new Builder(Validate.name("DependencyCheck", dependency));
    }

    /**
     * The one mapping from a circuit breaker's state to health: CLOSED, DISABLED and METRICS_ONLY are
     * HEALTHY (calls flow); HALF_OPEN is DEGRADED (probing); OPEN and FORCED_OPEN are UNHEALTHY (calls
     * are refused); any other name is DEGRADED (unknown, so not trusted either way). Case-insensitive.
     *
     * @param state the state's name, e.g. {@code CircuitState.OPEN.name()}
     * @return its health
     */
    public static HealthStatus breakerStatus(String state) {
        switch (state.toUpperCase(Locale.ROOT)) {
            case "CLOSED":
            case "DISABLED":
            case "METRICS_ONLY":
                return HealthStatus.HEALTHY;
            case "OPEN":
            case "FORCED_OPEN":
                return HealthStatus.UNHEALTHY;
            default:
                return HealthStatus.DEGRADED;
        }
    }

    /**
     * The dependency's name.
     *
     * @return the name
     */
    public String dependency() {
        return dependency;
    }

    @Override
    public CheckResult check() {
        HealthStatus worst = HealthStatus.HEALTHY;
        StringBuilder why = new StringBuilder();
        java.util.Map<String, Object> details = new java.util.LinkedHashMap<>();
        if (breaker != null) {
            Enum<?> state = breaker.get();
            String name = state == null ? "UNKNOWN" : state.name();
            HealthStatus s = breakerStatus(name);
            details.put("circuit_breaker", name.toLowerCase(Locale.ROOT));
            worst = note(worst, s, why, "circuit breaker " + name.toLowerCase(Locale.ROOT));
        }
        if (saturation != null) {
            worst = fraction(worst, why, details, "saturation", saturation.getAsDouble(), saturationThresholds);
        }
        if (rejectionRate != null) {
            worst = fraction(worst, why, details, "rejection_rate", rejectionRate.getAsDouble(), rejectionThresholds);
        }
        if (errorRate != null) {
            worst = fraction(worst, why, details, "error_rate", errorRate.getAsDouble(), errorThresholds);
        }
        if (latencyNanos != null) {
            long l = latencyNanos.getAsLong();
            HealthStatus s = l >= latencyUnhealthyNanos ? HealthStatus.UNHEALTHY
                    : l >= latencyDegradedNanos ? HealthStatus.DEGRADED : HealthStatus.HEALTHY;
            details.put("latency_ms", l / 1e6);
            worst = note(worst, s, why, "latency " + Duration.ofNanos(l));
        }
        String message = why.length() == 0 ? null : dependency + ": " + why;
        return CheckResult.of(worst, message).withDetails(details);
    }

    private static HealthStatus fraction(HealthStatus worst, StringBuilder why, java.util.Map<String, Object> details,
            String key, double value, Thresholds t) {
        details.put(key, value);
        return note(worst, t.statusOf(value), why,
                key.replace('_', ' ') + " " + String.format(Locale.ROOT, "%.3f", value));
    }

    private static HealthStatus note(HealthStatus worst, HealthStatus s, StringBuilder why, String what) {
        if (s != HealthStatus.HEALTHY) {
            if (why.length() > 0) {
                why.append(", ");
            }
            why.append(what).append(" (").append(s.tag()).append(')');
        }
        return HealthStatus.worst(worst, s);
    }

    @Override
    public String toString() {
        return "DependencyCheck[" + dependency + "]";
    }

    /** Builds a {@link DependencyCheck}; at least one view must be set. */
    public static final class Builder {
        private final String dependency;
        private @Nullable Supplier<? extends Enum<?>> breaker;
        private @Nullable DoubleSupplier saturation;
        private Thresholds saturationThresholds = DEFAULT_SATURATION;
        private @Nullable DoubleSupplier rejectionRate;
        private Thresholds rejectionThresholds = DEFAULT_REJECTION_RATE;
        private @Nullable DoubleSupplier errorRate;
        private Thresholds errorThresholds = DEFAULT_ERROR_RATE;
        private @Nullable LongSupplier latencyNanos;
        private @Nullable Duration latencyDegraded;
        private @Nullable Duration latencyUnhealthy;

        private Builder(String dependency) {
            this.dependency = dependency;
        }

        /**
         * A circuit breaker's state, mapped by {@link #breakerStatus(String)} from the constant's name.
         *
         * @param state e.g. {@code breaker::state}
         * @return this builder
         */
        public Builder circuitBreaker(Supplier<? extends Enum<?>> state) {
            this.breaker = state;
            return this;
        }

        /**
         * Saturation (in-flight over limit, a fraction) with the default thresholds.
         *
         * @param value e.g. {@code () -> bulkhead.activeCount() / (double) bulkhead.maxConcurrentCalls()}
         * @return this builder
         */
        public Builder saturation(DoubleSupplier value) {
            return saturation(value, DEFAULT_SATURATION);
        }

        /**
         * Saturation with its own thresholds.
         *
         * @param value the reading, a fraction
         * @param thresholds the thresholds
         * @return this builder
         */
        public Builder saturation(DoubleSupplier value, Thresholds thresholds) {
            this.saturation = value;
            this.saturationThresholds = thresholds;
            return this;
        }

        /**
         * Rejection rate (refused over asked, a fraction) with the default thresholds.
         *
         * @param value the reading
         * @return this builder
         */
        public Builder rejectionRate(DoubleSupplier value) {
            return rejectionRate(value, DEFAULT_REJECTION_RATE);
        }

        /**
         * Rejection rate with its own thresholds.
         *
         * @param value the reading, a fraction
         * @param thresholds the thresholds
         * @return this builder
         */
        public Builder rejectionRate(DoubleSupplier value, Thresholds thresholds) {
            this.rejectionRate = value;
            this.rejectionThresholds = thresholds;
            return this;
        }

        /**
         * Error rate (failed over calls, a fraction) with the default thresholds.
         *
         * @param value the reading
         * @return this builder
         */
        public Builder errorRate(DoubleSupplier value) {
            return errorRate(value, DEFAULT_ERROR_RATE);
        }

        /**
         * Error rate with its own thresholds.
         *
         * @param value the reading, a fraction
         * @param thresholds the thresholds
         * @return this builder
         */
        public Builder errorRate(DoubleSupplier value, Thresholds thresholds) {
            this.errorRate = value;
            this.errorThresholds = thresholds;
            return this;
        }

        /**
         * A latency percentile (e.g. p99) in nanoseconds against two limits.
         *
         * @param nanos the reading
         * @param degradedAt DEGRADED at or above this
         * @param unhealthyAt UNHEALTHY at or above this; {@code >= degradedAt}
         * @return this builder
         */
        public Builder latency(LongSupplier nanos, Duration degradedAt, Duration unhealthyAt) {
            this.latencyNanos = nanos;
            this.latencyDegraded = degradedAt;
            this.latencyUnhealthy = unhealthyAt;
            return this;
        }

        /**
         * Validates and builds.
         *
         * @return the check
         * @throws dev.levee.core.InvalidConfigException if no view is set, or a latency bound is invalid
         */
        public DependencyCheck build() {
            String policy = Validate.describe("DependencyCheck", dependency);
            Validate.check(breaker != null || saturation != null || rejectionRate != null || errorRate != null
                    || latencyNanos != null, policy, "views", "at least one view set", "none");
            Validate.notNull(policy, "saturationThresholds", saturationThresholds);
            Validate.notNull(policy, "rejectionThresholds", rejectionThresholds);
            Validate.notNull(policy, "errorThresholds", errorThresholds);
            if (latencyNanos != null) {
                Duration d = Validate.positive(policy, "latencyDegradedAt", latencyDegraded);
                Duration u = Validate.positive(policy, "latencyUnhealthyAt", latencyUnhealthy);
                Validate.check(d.compareTo(u) <= 0, policy, "latencyDegradedAt", "<= latencyUnhealthyAt (" + u + ")", d);
            }
            return new DependencyCheck(this);
        }
    }
}

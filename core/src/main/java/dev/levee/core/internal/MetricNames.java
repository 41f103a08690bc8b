package dev.levee.core.internal;

/**
 * The metric vocabulary every Levee pattern uses, so dashboards work across patterns.
 *
 * <p>Names are {@code levee.<pattern>.<what>} in Micrometer's dotted form (exporters rename them,
 * e.g. {@code levee_circuitbreaker_calls_total} in Prometheus); durations are in seconds, Micrometer's
 * base unit. Tags:
 * <ul>
 *   <li>{@value #TAG_NAME} — the policy's name;</li>
 *   <li>{@value #TAG_OUTCOME} — {@code success}, {@code failure}, {@code ignored}, {@code rejected};</li>
 *   <li>{@value #TAG_STATE} — a state, e.g. a breaker's {@code closed};</li>
 *   <li>{@value #TAG_KIND} — a sub-kind, e.g. {@code successful_without_retry} or a rejection kind;</li>
 *   <li>{@value #TAG_REPLICA} — the replica of a replica set.</li>
 * </ul>
 * Each pattern module has a Micrometer binder class using these constants; {@code micrometer-core}
 * is an optional dependency loaded only when a binder is used. The full table is in
 * {@code docs/core.md}.
 */
public final class MetricNames {
    /** The common prefix. */
    public static final String PREFIX = "levee";
    /** Tag key: the policy's name. */
    public static final String TAG_NAME = "name";
    /** Tag key: how the call ended. */
    public static final String TAG_OUTCOME = "outcome";
    /** Tag key: a state. */
    public static final String TAG_STATE = "state";
    /** Tag key: a sub-kind. */
    public static final String TAG_KIND = "kind";
    /**
     * Tag key: why a load shedder refused, finer than {@link #TAG_KIND} (e.g. {@code concurrency_limit},
     * {@code queue_full}, {@code cpu_high}).
     */
    public static final String TAG_REASON = "reason";
    /**
     * Tag key: which replica of a replica set served an attempt (the replica's {@code toString()}); its
     * cardinality is the set's size.
     */
    public static final String TAG_REPLICA = "replica";
    /**
     * The measured thing of every pattern's rejection counter: {@code levee.<pattern>.rejected}, tagged
     * {@value #TAG_NAME} and {@value #TAG_KIND} (the {@link dev.levee.core.RejectedException#kind()} of the refusal).
     */
    public static final String REJECTED = "rejected";

    private MetricNames() {}

    /**
     * Builds a metric name.
     *
     * @param pattern the pattern, e.g. {@code circuitbreaker}
     * @param what the measured thing, e.g. {@code calls}
     * @return {@code levee.<pattern>.<what>}
     */
    public static String name(String pattern, String what) {
        return PREFIX + '.' + pattern + '.' + what;
    }
}

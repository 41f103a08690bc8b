package dev.levee.timeout;

import dev.levee.core.internal.MetricNames;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import java.util.function.ToDoubleFunction;

/**
 * Binds {@link Timeout}s (and optionally a {@link DeadlinePropagation}) to Micrometer. The only
 * class of this module that references Micrometer; {@code micrometer-core} is an optional dependency.
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>name</th><th>type</th><th>tags</th><th>meaning</th></tr>
 *   <tr><td>{@code levee.timeout.calls}</td><td>counter</td><td>name, outcome = success | failure |
 *       timeout | rejected | interrupted</td><td>calls by how they ended; {@code rejected} = not started,
 *       too little time left</td></tr>
 *   <tr><td>{@code levee.timeout.rejected}</td><td>counter</td><td>name, kind = deadline_exceeded |
 *       bulkhead_full</td><td>refusals, the rejection meter every pattern has ({@code kind} is the
 *       {@link dev.levee.core.RejectedException#kind()}): not started for too little time left, or the
 *       executor refused the task</td></tr>
 *   <tr><td>{@code levee.timeout.timeouts}</td><td>counter</td><td>name</td><td>calls abandoned at their
 *       deadline</td></tr>
 *   <tr><td>{@code levee.timeout.effective}</td><td>gauge, seconds</td><td>name</td><td>the effective
 *       timeout of the latest call</td></tr>
 *   <tr><td>{@code levee.timeout.headers}</td><td>counter</td><td>name, outcome = accepted | clamped |
 *       missing</td><td>incoming deadline headers honoured (clamped: cut to the local maximum) or
 *       absent</td></tr>
 *   <tr><td>{@code levee.timeout.headers.ignored}</td><td>counter</td><td>name, kind = malformed |
 *       negative | absurd</td><td>incoming deadline headers ignored</td></tr>
 * </table>
 *
 * <pre>{@code
 * new TimeoutMetricsBinder(timeout).withPropagation("inbound", propagation).bindTo(registry);
 * }</pre>
 * The same figures without Micrometer: {@link Timeout#metrics()}.
 */
public final class TimeoutMetricsBinder implements MeterBinder {
    private static final String PATTERN = "timeout";
    private static final String DEADLINE_EXCEEDED =
            new dev.levee.core.DeadlineExceededException("timeout", "kind", 0L).kind();
    private static final String BULKHEAD_FULL = new dev.levee.core.BulkheadFullException("timeout", "kind", 0L).kind();

    private final java.util.List<Timeout> timeouts;
    private @Nullable DeadlinePropagation propagation;
    private @Nullable String propagationName;

    /**
     * Binds timeouts.
     *
     * @param timeouts the timeouts
     */
    public TimeoutMetricsBinder(Timeout... timeouts) {
        this(java.util.Arrays.asList(Objects.requireNonNull(timeouts, "timeouts")));
    }

    /**
     * Binds timeouts.
     *
     * @param timeouts the timeouts
     */
    public TimeoutMetricsBinder(java.util.Collection<Timeout> timeouts) {
        this.timeouts = java.util.List.copyOf(timeouts);
    }

    /**
     * Also binds the header counters of {@code propagation}, tagged {@code name=propagationName}.
     *
     * @param propagationName the name tag
     * @param propagation the propagation
     * @return this binder
     */
    public TimeoutMetricsBinder withPropagation(String propagationName, DeadlinePropagation propagation) {
        this.propagationName = Objects.requireNonNull(propagationName, "propagationName");
        this.propagation = Objects.requireNonNull(propagation, "propagation");
        return this;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (Timeout timeout : timeouts) {
            bind(registry, timeout);
        }
        DeadlinePropagation p = propagation;
        String pName = propagationName;
        if (p != null && pName != null) {
            bindPropagation(registry, p, pName);
        }
    }

    private void bind(MeterRegistry registry, Timeout timeout) {
        String name = timeout.name();
        calls(registry, timeout, "success", Timeout::successCount);
        calls(registry, timeout, "failure", Timeout::failureCount);
        calls(registry, timeout, "timeout", Timeout::timeoutCount);
        calls(registry, timeout, "rejected", Timeout::rejectedCount);
        calls(registry, timeout, "interrupted", Timeout::interruptedCount);
        rejected(registry, timeout, DEADLINE_EXCEEDED, Timeout::rejectedBeforeStartCount);
        rejected(registry, timeout, BULKHEAD_FULL, Timeout::executorRejectedCount);
        FunctionCounter.builder(MetricNames.name(PATTERN, "timeouts"), timeout, t -> (double) t.timeoutCount())
                .description("Calls abandoned at their deadline")
                .tag(MetricNames.TAG_NAME, name)
                .register(registry);
        Gauge.builder(MetricNames.name(PATTERN, "effective"), timeout, t -> t.lastEffectiveTimeoutNanos() / 1e9)
                .description("The effective timeout of the latest call")
                .baseUnit("seconds")
                .tag(MetricNames.TAG_NAME, name)
                .register(registry);
    }

    private static void bindPropagation(MeterRegistry registry, DeadlinePropagation propagation, String name) {
        headers(registry, propagation, name, "headers", MetricNames.TAG_OUTCOME, "accepted", p -> (double) p.acceptedCount());
        headers(registry, propagation, name, "headers", MetricNames.TAG_OUTCOME, "clamped", p -> (double) p.clampedCount());
        headers(registry, propagation, name, "headers", MetricNames.TAG_OUTCOME, "missing", p -> (double) p.missingCount());
        headers(registry, propagation, name, "headers", MetricNames.TAG_OUTCOME, "refused", p -> (double) p.refusedCount());
        for (DeadlinePropagation.Ignored reason : DeadlinePropagation.Ignored.values()) {
            headers(registry, propagation, name, "headers.ignored", MetricNames.TAG_KIND,
                    reason.name().toLowerCase(java.util.Locale.ROOT), p -> (double) p.ignoredCount(reason));
        }
    }

    private static void rejected(MeterRegistry registry, Timeout timeout, String kind, ToLong<Timeout> count) {
        FunctionCounter.builder(MetricNames.name(PATTERN, MetricNames.REJECTED), timeout, t -> (double) count.apply(t))
                .description("Calls refused by the timeout, by rejection kind")
                .tag(MetricNames.TAG_NAME, timeout.name())
                .tag(MetricNames.TAG_KIND, kind)
                .register(registry);
    }

    private static void calls(MeterRegistry registry, Timeout timeout, String outcome, ToLong<Timeout> count) {
        String name = timeout.name();
        FunctionCounter.builder(MetricNames.name(PATTERN, "calls"), timeout, t -> (double) count.apply(t))
                .description("Calls through the timeout by outcome")
                .tag(MetricNames.TAG_NAME, name)
                .tag(MetricNames.TAG_OUTCOME, outcome)
                .register(registry);
    }

    private static void headers(MeterRegistry registry, DeadlinePropagation propagation, String propagationName,
            String what, String tagKey, String tagValue,
            ToDoubleFunction<DeadlinePropagation> count) {
        FunctionCounter.builder(MetricNames.name(PATTERN, what), propagation, count)
                .description("Incoming deadline headers")
                .tag(MetricNames.TAG_NAME, propagationName)
                .tag(tagKey, tagValue)
                .register(registry);
    }

    /** A long-valued getter, to pass the counters as method references. */
    @FunctionalInterface
    private interface ToLong<T> {
        long apply(T t);
    }
}

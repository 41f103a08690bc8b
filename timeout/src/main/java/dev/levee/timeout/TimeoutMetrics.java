package dev.levee.timeout;

import dev.levee.core.MetricNames;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Objects;
import java.util.function.ToDoubleFunction;
import org.jspecify.annotations.Nullable;

/**
 * Binds a {@link Timeout} (and optionally a {@link DeadlinePropagation}) to Micrometer. The only
 * class of this module that references Micrometer; {@code micrometer-core} is an optional dependency.
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>name</th><th>type</th><th>tags</th><th>meaning</th></tr>
 *   <tr><td>{@code levee.timeout.calls}</td><td>counter</td><td>name, outcome = success | failure |
 *       timeout | rejected | interrupted</td><td>calls by how they ended; {@code rejected} = not started,
 *       too little time left</td></tr>
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
 * new TimeoutMetrics(timeout).withPropagation("inbound", propagation).bindTo(registry);
 * }</pre>
 */
public final class TimeoutMetrics implements MeterBinder {
    private static final String PATTERN = "timeout";

    private final Timeout timeout;
    private @Nullable DeadlinePropagation propagation;
    private @Nullable String propagationName;

    /**
     * @param timeout the timeout to observe
     */
    public TimeoutMetrics(Timeout timeout) {
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    /**
     * Also binds the header counters of {@code propagation}, tagged {@code name=propagationName}.
     *
     * @param propagationName the name tag
     * @param propagation the propagation
     * @return this binder
     */
    public TimeoutMetrics withPropagation(String propagationName, DeadlinePropagation propagation) {
        this.propagationName = Objects.requireNonNull(propagationName, "propagationName");
        this.propagation = Objects.requireNonNull(propagation, "propagation");
        return this;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        String name = timeout.name();
        calls(registry, name, "success", Timeout::successCount);
        calls(registry, name, "failure", Timeout::failureCount);
        calls(registry, name, "timeout", Timeout::timeoutCount);
        calls(registry, name, "rejected", Timeout::rejectedCount);
        calls(registry, name, "interrupted", Timeout::interruptedCount);
        FunctionCounter.builder(MetricNames.name(PATTERN, "timeouts"), timeout, t -> (double) t.timeoutCount())
                .description("Calls abandoned at their deadline")
                .tag(MetricNames.TAG_NAME, name)
                .register(registry);
        Gauge.builder(MetricNames.name(PATTERN, "effective"), timeout, t -> t.lastEffectiveTimeoutNanos() / 1e9)
                .description("The effective timeout of the latest call")
                .baseUnit("seconds")
                .tag(MetricNames.TAG_NAME, name)
                .register(registry);
        if (propagation != null) {
            headers(registry, "headers", MetricNames.TAG_OUTCOME, "accepted", p -> (double) p.acceptedCount());
            headers(registry, "headers", MetricNames.TAG_OUTCOME, "clamped", p -> (double) p.clampedCount());
            headers(registry, "headers", MetricNames.TAG_OUTCOME, "missing", p -> (double) p.missingCount());
            for (DeadlinePropagation.Ignored reason : DeadlinePropagation.Ignored.values()) {
                headers(registry, "headers.ignored", MetricNames.TAG_KIND,
                        reason.name().toLowerCase(java.util.Locale.ROOT), p -> (double) p.ignoredCount(reason));
            }
        }
    }

    private void calls(MeterRegistry registry, String name, String outcome, ToLong<Timeout> count) {
        FunctionCounter.builder(MetricNames.name(PATTERN, "calls"), timeout, t -> (double) count.apply(t))
                .description("Calls through the timeout by outcome")
                .tag(MetricNames.TAG_NAME, name)
                .tag(MetricNames.TAG_OUTCOME, outcome)
                .register(registry);
    }

    private void headers(MeterRegistry registry, String what, String tagKey, String tagValue,
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

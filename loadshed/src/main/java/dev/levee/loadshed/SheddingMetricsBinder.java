package dev.levee.loadshed;

import dev.levee.core.internal.MetricNames;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * Micrometer metrics of load shedders (seed 002's set in Levee's naming). One of the only classes
 * of this module that touch Micrometer, an optional dependency; every meter reads the shedder's own
 * counters when scraped, so binding adds nothing to the call path.
 *
 * <table>
 *   <caption>Meters, each tagged {@code name}</caption>
 *   <tr><th>name</th><th>type</th><th>meaning</th></tr>
 *   <tr><td>{@code levee.loadshed.rejected}</td><td>counter, tags {@code kind=shed}, {@code reason}</td>
 *       <td>requests shed, by reason (seed: {@code requests_shed_total{reason}})</td></tr>
 *   <tr><td>{@code levee.loadshed.admitted}</td><td>counter</td><td>permits granted</td></tr>
 *   <tr><td>{@code levee.loadshed.shed.rate}</td><td>gauge</td>
 *       <td>{@link Shedder#shedRate()}, a fraction in [0, 1] (seed: {@code shed_rate})</td></tr>
 *   <tr><td>{@code levee.loadshed.concurrency.current}</td><td>gauge</td><td>permits out (seed: {@code concurrency_current})</td></tr>
 *   <tr><td>{@code levee.loadshed.concurrency.limit}</td><td>gauge</td>
 *       <td>the limit in force, {@link AdaptiveLoadShedder} only (seed: {@code concurrency_limit})</td></tr>
 *   <tr><td>{@code levee.loadshed.queue.waiting}</td><td>gauge</td><td>callers waiting for a slot, {@link AdaptiveLoadShedder} only</td></tr>
 * </table>
 * Queues, channels and pipelines: {@link dev.levee.loadshed.queue.QueueMetricsBinder}; goodput:
 * {@link GoodputMetricsBinder}.
 *
 * <pre>{@code
 * new SheddingMetricsBinder(pidShedder, adaptiveShedder).bindTo(meterRegistry);
 * }</pre>
 */
public final class SheddingMetricsBinder implements MeterBinder {
    static final String PATTERN = "loadshed";

    private final List<Shedder> shedders;

    /**
     * @param shedders the shedders to report
     */
    public SheddingMetricsBinder(Shedder... shedders) {
        this(List.of(shedders));
    }

    /**
     * @param shedders the shedders to report
     */
    public SheddingMetricsBinder(Collection<? extends Shedder> shedders) {
        this.shedders = List.copyOf(shedders);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Objects.requireNonNull(registry, "registry");
        for (Shedder s : shedders) {
            String n = s.name();
            for (ShedDecision d : ShedDecision.values()) {
                if (!d.isShed()) {
                    continue;
                }
                FunctionCounter.builder(MetricNames.name(PATTERN, MetricNames.REJECTED), s, x -> x.shedCount(d))
                        .tag(MetricNames.TAG_NAME, n)
                        .tag(MetricNames.TAG_KIND, "shed")
                        .tag(MetricNames.TAG_REASON, d.reason())
                        .description("requests shed, by reason")
                        .register(registry);
            }
            FunctionCounter.builder(MetricNames.name(PATTERN, "admitted"), s, Shedder::admittedCount)
                    .tag(MetricNames.TAG_NAME, n).description("permits granted").register(registry);
            gauge(registry, "shed.rate", n, s, Shedder::shedRate);
            gauge(registry, "concurrency.current", n, s, Shedder::inFlight);
            if (s instanceof AdaptiveLoadShedder) {
                AdaptiveLoadShedder a = (AdaptiveLoadShedder) s;
                gauge(registry, "concurrency.limit", n, a, AdaptiveLoadShedder::limit);
                gauge(registry, "queue.waiting", n, a, AdaptiveLoadShedder::waitingCount);
            }
        }
    }

    static <T> void gauge(MeterRegistry registry, String what, String name, T source, java.util.function.ToDoubleFunction<T> fn) {
        Gauge.builder(MetricNames.name(PATTERN, what), source, fn)
                .tag(MetricNames.TAG_NAME, name)
                .strongReference(true)
                .register(registry);
    }
}

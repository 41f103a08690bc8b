package dev.levee.loadshed.queue;

import dev.levee.core.internal.MetricNames;
import dev.levee.loadshed.internal.QueueLatencyHistogram;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.ToDoubleFunction;

/**
 * Micrometer metrics of Levee queues and channels ({@link CoDelQueue}, {@link DeadlineAwareQueue},
 * {@link BoundedChannel}, each stage of a {@link ChannelPipeline}). Meters read the queue's counters
 * when scraped.
 *
 * <table>
 *   <caption>Meters, each tagged {@code name}</caption>
 *   <tr><th>name</th><th>type</th><th>meaning</th></tr>
 *   <tr><td>{@code levee.loadshed.queue.depth}</td><td>gauge</td><td>entries held (seed: {@code queue_depth})</td></tr>
 *   <tr><td>{@code levee.loadshed.queue.capacity}</td><td>gauge</td><td>the bound</td></tr>
 *   <tr><td>{@code levee.loadshed.backpressure}</td><td>gauge</td>
 *       <td>depth / capacity in [0, 1] (seed: {@code backpressure_level{stage}})</td></tr>
 *   <tr><td>{@code levee.loadshed.queue.dropped}</td><td>counter, tags {@code kind} (the {@link DropReason}),
 *       {@code reason}</td><td>entries dropped or refused</td></tr>
 *   <tr><td>{@code levee.loadshed.queue.latency}</td><td>counters {@code .bucket} (tag {@code le}, seconds),
 *       {@code .count}, {@code .sum} (seconds)</td>
 *       <td>queue delay of served entries in seed 002's buckets 1 ms … 5 s, cumulative as a Prometheus histogram</td></tr>
 * </table>
 */
public final class QueueMetricsBinder implements MeterBinder {
    private static final String PATTERN = "loadshed";

    private final List<MeasuredQueue> queues;

    /**
     * @param queues the queues to report
     */
    public QueueMetricsBinder(MeasuredQueue... queues) {
        this(List.of(queues));
    }

    /**
     * @param queues the queues to report
     */
    public QueueMetricsBinder(Collection<? extends MeasuredQueue> queues) {
        this.queues = List.copyOf(queues);
    }

    /**
     * The stages of a pipeline, each reported under its channel's name ({@code <pipeline>.<stage>}).
     *
     * @param pipeline the pipeline
     * @return the binder
     */
    public static QueueMetricsBinder of(ChannelPipeline<?> pipeline) {
        return new QueueMetricsBinder(new ArrayList<MeasuredQueue>(pipeline.channels()));
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Objects.requireNonNull(registry, "registry");
        double[] bounds = QueueLatencyHistogram.boundsSeconds();
        for (MeasuredQueue q : queues) {
            String n = q.name();
            gauge(registry, "queue.depth", n, q, MeasuredQueue::depth);
            gauge(registry, "queue.capacity", n, q, MeasuredQueue::capacity);
            gauge(registry, "backpressure", n, q, MeasuredQueue::pressure);
            for (DropReason r : DropReason.values()) {
                FunctionCounter.builder(MetricNames.name(PATTERN, "queue.dropped"), q, x -> x.dropCount(r))
                        .tag(MetricNames.TAG_NAME, n)
                        .tag(MetricNames.TAG_KIND, r.name().toLowerCase(Locale.ROOT))
                        .tag(MetricNames.TAG_REASON, r.reason())
                        .description("entries dropped or refused")
                        .register(registry);
            }
            for (int i = 0; i < bounds.length; i++) {
                int bucket = i;
                FunctionCounter.builder(MetricNames.name(PATTERN, "queue.latency.bucket"), q, x -> x.latencyCount(bucket))
                        .tag(MetricNames.TAG_NAME, n)
                        .tag("le", Double.toString(bounds[i]))
                        .register(registry);
            }
            FunctionCounter.builder(MetricNames.name(PATTERN, "queue.latency.bucket"), q, x -> x.latencyCount(bounds.length))
                    .tag(MetricNames.TAG_NAME, n).tag("le", "+Inf").register(registry);
            FunctionCounter.builder(MetricNames.name(PATTERN, "queue.latency.count"), q, x -> x.latencyCount(bounds.length))
                    .tag(MetricNames.TAG_NAME, n).register(registry);
            FunctionCounter.builder(MetricNames.name(PATTERN, "queue.latency.sum"), q, x -> x.latencySumNanos() / 1e9)
                    .tag(MetricNames.TAG_NAME, n).baseUnit("seconds").register(registry);
        }
    }

    private static <T> void gauge(MeterRegistry registry, String what, String name, T source, ToDoubleFunction<T> fn) {
        Gauge.builder(MetricNames.name(PATTERN, what), source, fn)
                .tag(MetricNames.TAG_NAME, name)
                .strongReference(true)
                .register(registry);
    }
}

package dev.levee.bulkhead;

import dev.levee.core.internal.MetricNames;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.ToDoubleFunction;

/**
 * Micrometer metrics for bulkheads. The only class of this module that touches Micrometer, an
 * optional dependency. Every meter is tagged {@value MetricNames#TAG_NAME} with the policy's name, and
 * reads the bulkhead's own counters when scraped, so binding adds nothing to the call path.
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>name</th><th>type</th><th>of</th><th>meaning</th></tr>
 *   <tr><td>{@code levee.bulkhead.active}</td><td>gauge</td><td>semaphore</td><td>calls inside</td></tr>
 *   <tr><td>{@code levee.bulkhead.waiting}</td><td>gauge</td><td>semaphore</td><td>threads waiting for a slot</td></tr>
 *   <tr><td>{@code levee.bulkhead.available}</td><td>gauge</td><td>semaphore</td><td>free slots</td></tr>
 *   <tr><td>{@code levee.bulkhead.limit}</td><td>gauge</td><td>semaphore</td><td>the bound in force</td></tr>
 *   <tr><td>{@code levee.bulkhead.rejected}</td><td>counter, tag {@code kind=bulkhead_full}
 *       ({@link dev.levee.core.RejectedException#kind()})</td><td>all</td>
 *       <td>calls refused</td></tr>
 *   <tr><td>{@code levee.bulkhead.threadpool.active}</td><td>gauge</td><td>thread pool</td><td>calls running</td></tr>
 *   <tr><td>{@code levee.bulkhead.threadpool.threads}</td><td>gauge</td><td>thread pool</td><td>worker threads alive</td></tr>
 *   <tr><td>{@code levee.bulkhead.threadpool.limit}</td><td>gauge</td><td>thread pool</td><td>maxThreads</td></tr>
 *   <tr><td>{@code levee.bulkhead.queue.depth}</td><td>gauge</td><td>thread pool</td><td>calls waiting for a worker</td></tr>
 *   <tr><td>{@code levee.bulkhead.queue.capacity}</td><td>gauge</td><td>thread pool</td><td>queue bound</td></tr>
 *   <tr><td>{@code levee.bulkhead.completed}</td><td>counter</td><td>thread pool</td><td>calls run to an end</td></tr>
 *   <tr><td>{@code levee.bulkhead.keys}</td><td>gauge</td><td>keyed</td><td>keys with a bulkhead</td></tr>
 *   <tr><td>{@code levee.bulkhead.draining}</td><td>gauge</td><td>keyed</td><td>evicted bulkheads still finishing calls</td></tr>
 *   <tr><td>{@code levee.bulkhead.evictions}</td><td>counter</td><td>keyed</td><td>keys evicted</td></tr>
 * </table>
 * A keyed bulkhead reports aggregates only (per-key meters would let key cardinality into the metrics
 * backend); a shuffle-sharded bulkhead reports each partition as a semaphore bulkhead plus its own
 * rejections.
 *
 * <pre>{@code
 * new BulkheadMetricsBinder(bulkhead).bindTo(meterRegistry);
 * BulkheadMetricsBinder.forThreadPools(reports).bindTo(meterRegistry);
 * }</pre>
 * The same figures without Micrometer: {@link Bulkhead#metrics()} and
 * {@link ThreadPoolBulkhead#metrics()} return snapshot records.
 */
public final class BulkheadMetricsBinder implements MeterBinder {
    private static final String PATTERN = "bulkhead";
    /** The {@code kind} tag of every bulkhead rejection. */
    private static final String KIND = new dev.levee.core.BulkheadFullException("bulkhead", "kind", 0L).kind();
    private final Consumer<MeterRegistry> binding;

    private BulkheadMetricsBinder(Consumer<MeterRegistry> binding) {
        this.binding = binding;
    }

    /**
     * Binds semaphore bulkheads.
     *
     * @param bulkheads the bulkheads
     */
    public BulkheadMetricsBinder(Bulkhead... bulkheads) {
        this(java.util.Arrays.asList(Objects.requireNonNull(bulkheads, "bulkheads")));
    }

    /**
     * Binds semaphore bulkheads.
     *
     * @param bulkheads the bulkheads
     */
    public BulkheadMetricsBinder(java.util.Collection<Bulkhead> bulkheads) {
        this(bindAll(java.util.List.copyOf(bulkheads)));
    }

    private static Consumer<MeterRegistry> bindAll(java.util.List<Bulkhead> bulkheads) {
        return registry -> bulkheads.forEach(b -> bindSemaphore(registry, b));
    }

    /**
     * Binds thread-pool bulkheads.
     *
     * @param bulkheads the bulkheads
     * @return the binder
     */
    public static BulkheadMetricsBinder forThreadPools(ThreadPoolBulkhead... bulkheads) {
        java.util.List<ThreadPoolBulkhead> all = java.util.List.of(bulkheads);
        return new BulkheadMetricsBinder(registry -> all.forEach(b -> bindThreadPool(registry, b)));
    }

    /**
     * Binds keyed bulkheads (aggregates only).
     *
     * @param bulkheads the keyed bulkheads
     * @return the binder
     */
    public static BulkheadMetricsBinder forKeyed(KeyedBulkhead<?>... bulkheads) {
        java.util.List<KeyedBulkhead<?>> all = java.util.List.of(bulkheads);
        return new BulkheadMetricsBinder(registry -> all.forEach(b -> bindKeyed(registry, b)));
    }

    /**
     * Binds shuffle-sharded bulkheads: each partition as a semaphore bulkhead, plus their own rejections.
     *
     * @param bulkheads the shuffle-sharded bulkheads
     * @return the binder
     */
    public static BulkheadMetricsBinder forShuffleSharded(ShuffleShardedBulkhead... bulkheads) {
        java.util.List<ShuffleShardedBulkhead> all = java.util.List.of(bulkheads);
        return new BulkheadMetricsBinder(registry -> all.forEach(b -> {
            for (Bulkhead partition : b.partitions()) {
                bindSemaphore(registry, partition);
            }
            rejections(registry, b.name(), b, ShuffleShardedBulkhead::rejectedCount);
        }));
    }

    private static void bindThreadPool(MeterRegistry registry, ThreadPoolBulkhead bulkhead) {
        String n = bulkhead.name();
        gauge(registry, "threadpool.active", n, bulkhead, ThreadPoolBulkhead::activeCount);
        gauge(registry, "threadpool.threads", n, bulkhead, ThreadPoolBulkhead::threadCount);
        gauge(registry, "threadpool.limit", n, bulkhead, b -> b.config().maxThreads());
        gauge(registry, "queue.depth", n, bulkhead, ThreadPoolBulkhead::queueDepth);
        gauge(registry, "queue.capacity", n, bulkhead, b -> b.config().queueCapacity());
        rejections(registry, n, bulkhead, ThreadPoolBulkhead::rejectedCount);
        FunctionCounter.builder(MetricNames.name(PATTERN, "completed"), bulkhead, b -> b.completedCount())
                .tag(MetricNames.TAG_NAME, n)
                .description("calls run to an end")
                .register(registry);
    }

    private static void bindKeyed(MeterRegistry registry, KeyedBulkhead<?> bulkhead) {
        String n = bulkhead.name();
        gauge(registry, "keys", n, bulkhead, KeyedBulkhead::size);
        gauge(registry, "draining", n, bulkhead, KeyedBulkhead::drainingCount);
        FunctionCounter.builder(MetricNames.name(PATTERN, "evictions"), bulkhead, b -> b.evictionCount())
                .tag(MetricNames.TAG_NAME, n)
                .description("keys evicted")
                .register(registry);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        binding.accept(Objects.requireNonNull(registry, "registry"));
    }

    private static void bindSemaphore(MeterRegistry registry, Bulkhead bulkhead) {
        String n = bulkhead.name();
        gauge(registry, "active", n, bulkhead, Bulkhead::activeCount);
        gauge(registry, "waiting", n, bulkhead, Bulkhead::waitingCount);
        gauge(registry, "available", n, bulkhead, Bulkhead::availablePermits);
        gauge(registry, "limit", n, bulkhead, Bulkhead::maxConcurrentCalls);
        rejections(registry, n, bulkhead, Bulkhead::rejectedCount);
    }

    private static <T> void gauge(MeterRegistry registry, String what, String name, T source, ToDoubleFunction<T> fn) {
        Gauge.builder(MetricNames.name(PATTERN, what), source, fn)
                .tag(MetricNames.TAG_NAME, name)
                .strongReference(true)
                .register(registry);
    }

    private static <T> void rejections(MeterRegistry registry, String name, T source, ToDoubleFunction<T> fn) {
        FunctionCounter.builder(MetricNames.name(PATTERN, MetricNames.REJECTED), source, fn)
                .tag(MetricNames.TAG_NAME, name)
                .tag(MetricNames.TAG_KIND, KIND)
                .description("calls refused because the bulkhead was full")
                .register(registry);
    }
}

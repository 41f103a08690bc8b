package dev.levee.examples;

import dev.levee.core.ContextScope;
import dev.levee.core.Deadline;
import dev.levee.core.LoadSignal;
import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import dev.levee.core.Pipeline;
import dev.levee.core.RandomSource;
import dev.levee.core.ShedException;
import dev.levee.loadshed.AdaptiveLoadShedder;
import dev.levee.loadshed.AdaptiveLoadShedderConfig;
import dev.levee.loadshed.Goodput;
import dev.levee.loadshed.GoodputMetricsBinder;
import dev.levee.loadshed.PidShedder;
import dev.levee.loadshed.PidShedderConfig;
import dev.levee.loadshed.PriorityShedder;
import dev.levee.loadshed.PriorityShedderConfig;
import dev.levee.loadshed.RequestClassifier;
import dev.levee.loadshed.RequestPriority;
import dev.levee.loadshed.ShedDecision;
import dev.levee.loadshed.ShedResponse;
import dev.levee.loadshed.SheddingMetricsBinder;
import dev.levee.loadshed.queue.BoundedChannel;
import dev.levee.loadshed.queue.ChannelPipeline;
import dev.levee.loadshed.queue.CoDelQueue;
import dev.levee.loadshed.queue.CoDelQueueConfig;
import dev.levee.loadshed.queue.DeadlineAwareQueue;
import dev.levee.loadshed.queue.DeadlineAwareQueueConfig;
import dev.levee.loadshed.queue.QueueMetricsBinder;
import dev.levee.loadshed.signal.InFlightSignal;
import dev.levee.loadshed.signal.LoadSignalHeaders;
import dev.levee.loadshed.signal.QueueDelaySignal;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Every code example of {@code docs/loadshed.md} Part II, compiled by the build and run by
 * {@code SheddingExamplesTest}. Deterministic: manual time, seeded randomness (the executor and the
 * pipeline use real threads briefly).
 */
@SuppressWarnings("try") // priority scopes are opened only for their effect on the current thread
public final class SheddingExamples {
    private SheddingExamples() {}

    /** A request of the examples: a path and whether the user is signed in. */
    record Request(String path, boolean authenticated) {}

    /** The seed-002 classifier over {@link Request}. */
    static final RequestClassifier<Request> CLASSIFIER = RequestClassifier.seedRules(Request::path, Request::authenticated);

    /**
     * A thread pool whose work queue is a CoDel queue: under a burst the standing delay stays near
     * 5 ms; dropped tasks' futures are cancelled.
     *
     * @return the results of the tasks that ran
     * @throws Exception if the pool fails
     */
    static List<Integer> codelExecutor() throws Exception {
        CoDelQueue<Runnable> queue = CoDelQueue.ofDefaults("search");            // 5 ms, 100 ms, 1000
        ExecutorService pool = new ThreadPoolExecutor(4, 4, 0, TimeUnit.SECONDS, queue);
        try {
            List<Future<Integer>> futures = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                int n = i;
                futures.add(pool.submit(() -> n * n));
            }
            List<Integer> results = new ArrayList<>();
            for (Future<Integer> f : futures) {
                try {
                    results.add(f.get(10, TimeUnit.SECONDS));
                } catch (java.util.concurrent.CancellationException dropped) {
                    // CoDel dropped the task: its future was cancelled, never left waiting
                }
            }
            return results;
        } finally {
            pool.shutdown();
        }
    }

    /**
     * The deadline-aware queue: the most important request that can still finish comes first.
     *
     * @return the order requests were served in, and what was dropped
     */
    static List<String> deadlineQueue() {
        ManualTicker ticker = new ManualTicker();
        List<String> log = new ArrayList<>();
        DeadlineAwareQueue<String> queue = DeadlineAwareQueue.of("api",
                DeadlineAwareQueueConfig.builder().maxSize(3).ticker(ticker).build(),
                (request, reason) -> log.add("dropped " + request + " (" + reason.reason() + ")"));
        queue.offer("export", CLASSIFIER.priority(new Request("/export", false)), Deadline.afterNanos(2_000_000_000L, ticker));
        queue.offer("checkout", CLASSIFIER.priority(new Request("/checkout", true)), Deadline.afterNanos(150_000_000L, ticker));
        queue.offer("search", CLASSIFIER.priority(new Request("/search", false)), Deadline.afterNanos(2_000_000_000L, ticker));
        queue.offer("payment", CLASSIFIER.priority(new Request("/api/payments/7", false)), Deadline.afterNanos(2_000_000_000L, ticker));
        ticker.advance(Duration.ofMillis(60));                    // checkout now has 90 ms left: too late
        String next;
        while ((next = queue.poll()) != null) {
            log.add("served " + next);
        }
        return log;
    }

    /**
     * A pipeline of two stages joined by bounded channels: a slow last stage pushes back to
     * {@code submit}.
     *
     * @return how many items reached the sink
     * @throws Exception if interrupted
     */
    static int channelPipeline() throws Exception {
        List<Integer> sink = java.util.Collections.synchronizedList(new ArrayList<>());
        ExecutorService workers = Executors.newFixedThreadPool(3);
        try {
            ChannelPipeline<Integer> pipeline = ChannelPipeline.<Integer>builder("ingest")
                    .stage("parse", 8, 2, x -> x + 1)
                    .stage("store", 4, 1, x -> x * 10)
                    .sink(sink::add)
                    .start(workers);
            for (int i = 0; i < 100; i++) {
                pipeline.submit(i);                                // waits while "parse" is full
            }
            double[] pressure = pipeline.pressures();              // each stage's size / capacity
            assert pressure.length == 2;
            pipeline.close();                                      // stages drain in order
            pipeline.awaitTermination(Duration.ofSeconds(10));
            return sink.size();
        } finally {
            workers.shutdownNow();
        }
    }

    /**
     * A plain bounded channel between one producer and one consumer.
     *
     * @return the pressure after three sends, then after one receive
     * @throws Exception if interrupted
     */
    static double[] boundedChannel() throws Exception {
        BoundedChannel<String> orders = BoundedChannel.of("orders", 4);
        orders.send("a");
        orders.send("b");
        orders.trySend("c");
        double before = orders.pressure();                         // 0.75
        orders.receive();
        return new double[] {before, orders.pressure()};           // 0.5
    }

    /**
     * The PID shedder in a pipeline, updated on a (manual) scheduler: its own estimated latency held at
     * 200 ms.
     *
     * @return the rejection probability after a second of 400 ms measurements
     */
    static double pidShedder() {
        ManualTicker ticker = new ManualTicker();
        ManualScheduler scheduler = new ManualScheduler(ticker);
        double[] p99 = {400};
        PidShedder shedder = PidShedder.of("api", PidShedderConfig.builder()
                .measurement(() -> p99[0])                         // e.g. a p99 from your metrics
                .ticker(ticker).scheduler(scheduler).random(RandomSource.seeded(1)).build());
        scheduler.advance(Duration.ofSeconds(1));                  // ten updates of 100 ms
        String answer;
        try {
            answer = Pipeline.of(shedder).execute(() -> "ok");
        } catch (ShedException e) {
            answer = e.reason();                                   // "pid"
        }
        assert answer != null;
        shedder.close();
        return shedder.rejectionProbability();
    }

    /**
     * The priority shedder: above 80 % load, levels are dropped from the bottom up.
     *
     * @return the admitted levels at load 0.9
     */
    static List<Integer> priorityShedder() {
        double[] load = {0.9};
        PriorityShedder shedder = PriorityShedder.of("search", PriorityShedderConfig.builder().load(() -> load[0]).build());
        List<Integer> admitted = new ArrayList<>();
        for (int level = 1; level <= 10; level++) {
            if (shedder.admits(level)) {
                admitted.add(level);
            }
        }
        try (ContextScope s = RequestPriority.attach(CLASSIFIER.priority(new Request("/checkout", true)))) {
            shedder.execute(() -> "checkout served");              // level 10: admitted at any load
        }
        return admitted;
    }

    /**
     * The composite shedder: its decision with a reason, and the HTTP answer for a refusal.
     *
     * @return the HTTP headers of a CPU refusal
     */
    static Map<String, String> adaptiveShedder() {
        double[] cpu = {0.93};
        AdaptiveLoadShedder shedder = AdaptiveLoadShedder.of("api", AdaptiveLoadShedderConfig.builder()
                .maxConcurrent(100)                                // or .limit(concurrencyLimiter::limit)
                .cpu(() -> cpu[0])                                 // default: CpuLoadSignal.process()
                .memory(LoadSignal.constant(0.4))                  // default: MemoryLoadSignal.heapAfterGc()
                .build());
        ShedDecision d = shedder.decide(RequestPriority.DEFAULT, shedder.ticker().read());
        Map<String, String> headers = new LinkedHashMap<>();
        if (d.isShed()) {
            ShedResponse response = ShedResponse.of(d);            // 503, Retry-After: 5, X-Shed-Reason
            response.writeHeaders(headers::put);
            headers.put("body", shedder.explain(d));               // cpu_high:0.93
        }
        return headers;
    }

    /**
     * Load signals across a service call.
     *
     * @return the callee's decision for a request its overloaded caller sent with priority 2
     */
    static ShedDecision headers() {
        ManualTicker ticker = new ManualTicker();
        Clock clock = Clock.fixed(Instant.parse("2026-11-24T05:00:00Z"), ZoneOffset.UTC);
        LoadSignalHeaders signals = LoadSignalHeaders.builder().clock(clock).ticker(ticker).build();
        Map<String, String> outgoing = new LinkedHashMap<>();
        signals.inject(Deadline.afterNanos(2_000_000_000L, ticker), 2, 0.95, outgoing::put);
        // X-Deadline: 1795496401.800 (2 s x 0.9), X-Priority: 2, X-Load-Level: 0.950
        LoadSignalHeaders.Incoming in = signals.extract(outgoing::get);
        return signals.decide(in);                                 // UPSTREAM_LOAD
    }

    /**
     * Goodput beside throughput, and the metrics of all of it.
     *
     * @return the goodput ratio after one fast and one slow completion
     */
    static double goodputAndMetrics() {
        ManualTicker ticker = new ManualTicker();
        Goodput goodput = Goodput.of("api", Duration.ofMillis(300), ticker);
        int[] inFlight = {3};
        LoadSignal busy = InFlightSignal.of(() -> inFlight[0], () -> 10);
        PriorityShedder shedder = PriorityShedder.of("api", PriorityShedderConfig.builder().load(busy).ticker(ticker).build());
        CoDelQueue<String> queue = CoDelQueue.of("api", CoDelQueueConfig.builder().ticker(ticker).build());
        LoadSignal queueDelay = QueueDelaySignal.of(queue, Duration.ofMillis(100));
        assert queueDelay.load() == 0.0;

        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new SheddingMetricsBinder(shedder).bindTo(registry);
        new QueueMetricsBinder(queue).bindTo(registry);
        new GoodputMetricsBinder(goodput).bindTo(registry);

        Pipeline.of(goodput, shedder).execute(() -> {
            ticker.advance(Duration.ofMillis(50));
            return "fast";
        });
        Pipeline.of(goodput, shedder).execute(() -> {
            ticker.advance(Duration.ofMillis(500));
            return "slow";
        });
        return registry.get("levee.loadshed.goodput.ratio").gauge().value();   // 0.5
    }
}

package dev.levee.loadshed.queue;

import dev.levee.core.internal.Validate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.jspecify.annotations.Nullable;
import org.slf4j.LoggerFactory;

/**
 * A multi-stage pipeline joined by {@link BoundedChannel}s, so backpressure travels upstream: when
 * the last stage is slow its input channel fills, the workers of the stage before it wait in
 * {@code send}, their own input fills, and at last {@link #submit} waits (seed 002's Go
 * {@code Pipeline}). {@link #pressures()} shows where the pipeline is backed up.
 *
 * <pre>{@code
 * ChannelPipeline<Doc> p = ChannelPipeline.<Doc>builder("ingest")
 *         .stage("parse", 100, 4, Doc::parse)
 *         .stage("enrich", 100, 2, enricher::enrich)
 *         .sink(index::write)
 *         .start(Executors.newVirtualThreadPerTaskExecutor());
 * p.submit(doc);                 // waits while stage "parse" is full
 * double[] pressure = p.pressures();
 * p.close();                     // stages drain in order, then the workers end
 * }</pre>
 *
 * <p><b>Guarantees.</b> Each stage holds at most its capacity. Every submitted item passes through
 * every stage and reaches the sink exactly once, unless a stage function throws (the item is then
 * handed to the error handler, default: a WARN log, and counted in {@link #failedCount()}).
 * {@link #close()} stops intake; each stage's workers drain their input, and when the last worker of a
 * stage ends, the next stage's channel closes, so the whole pipeline ends without leaving a thread
 * blocked. An {@link Error} thrown by a stage ends that worker and is not swallowed.
 *
 * <p><b>Cost.</b> A {@link BoundedChannel} per stage; one task per worker on the executor given to
 * {@link Builder#start(Executor)}.
 *
 * @param <T> the item type
 */
public final class ChannelPipeline<T> implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ChannelPipeline.class);

    private final String name;
    private final List<Stage<T>> stages;
    private final Consumer<? super T> sink;
    private final ErrorHandler<? super T> onError;
    private final LongAdder failed = new LongAdder();
    private final CountDownLatch finished;

    private ChannelPipeline(Builder<T> b) {
        this.name = b.name;
        this.stages = List.copyOf(b.stages);
        this.sink = b.sink;
        this.onError = b.onError;
        int workers = 0;
        for (Stage<T> s : stages) {
            workers += s.workers;
        }
        this.finished = new CountDownLatch(workers);
    }

    /**
     * Starts a pipeline.
     *
     * @param name the pipeline's name; stage channels are named {@code <name>.<stage>}
     * @param <T> the item type
     * @return a builder
     */
    public static <T> Builder<T> builder(String name) {
        return new Builder<>(Validate.name("ChannelPipeline", name));
    }

    /** What to do with an item whose stage threw. */
    @FunctionalInterface
    public interface ErrorHandler<T> {
        /**
         * @param stage the stage's name
         * @param item the item
         * @param error what the stage function threw
         */
        void failed(String stage, T item, Exception error);
    }

    /**
     * Submits an item to the first stage, waiting while it is full (never past the current deadline).
     *
     * @param item the item
     * @return true if accepted; false once the pipeline is closed
     * @throws InterruptedException if interrupted while waiting
     */
    public boolean submit(T item) throws InterruptedException {
        return stages.get(0).channel.send(item);
    }

    /**
     * Submits an item if the first stage has room now.
     *
     * @param item the item
     * @return true if accepted
     */
    public boolean trySubmit(T item) {
        return stages.get(0).channel.trySend(item);
    }

    /**
     * Each stage's backpressure level, {@code size / capacity} of its input channel, in stage order.
     *
     * @return a new array of fractions in [0, 1]
     */
    public double[] pressures() {
        double[] p = new double[stages.size()];
        for (int i = 0; i < p.length; i++) {
            p[i] = stages.get(i).channel.pressure();
        }
        return p;
    }

    /** @return each stage's input channel, in order, for metrics ({@code QueueMetricsBinder}) */
    public List<BoundedChannel<T>> channels() {
        List<BoundedChannel<T>> out = new ArrayList<>(stages.size());
        for (Stage<T> s : stages) {
            out.add(s.channel);
        }
        return out;
    }

    /** @return the pipeline's name */
    public String name() {
        return name;
    }

    /** @return items whose stage function threw */
    public long failedCount() {
        return failed.sum();
    }

    /** Stops intake; the stages drain in order and their workers end. Idempotent. */
    @Override
    public void close() {
        stages.get(0).channel.close();
    }

    /**
     * Waits until every worker has ended (after {@link #close()}).
     *
     * @param timeout the longest wait
     * @return true if all ended
     * @throws InterruptedException if interrupted while waiting
     */
    public boolean awaitTermination(Duration timeout) throws InterruptedException {
        return finished.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    private void start(Executor executor) {
        for (int i = 0; i < stages.size(); i++) {
            Stage<T> stage = stages.get(i);
            @Nullable BoundedChannel<T> next = i + 1 < stages.size() ? stages.get(i + 1).channel : null;
            for (int w = 0; w < stage.workers; w++) {
                executor.execute(() -> runWorker(stage, next));
            }
        }
    }

    private void runWorker(Stage<T> stage, @Nullable BoundedChannel<T> next) {
        try {
            T item;
            while ((item = stage.channel.receive()) != null) {
                T out;
                try {
                    out = stage.function.apply(item);
                } catch (Exception e) {
                    failed.increment();
                    onError.failed(stage.name, item, e);
                    continue;
                }
                if (next == null) {
                    sink.accept(out);
                } else if (!next.send(out)) {
                    LOG.warn("ChannelPipeline '{}': stage after '{}' closed early; item not delivered", name, stage.name);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (stage.running.decrementAndGet() == 0 && next != null) {
                next.close();
            }
            finished.countDown();
        }
    }

    private static final class Stage<T> {
        final String name;
        final int workers;
        final UnaryOperator<T> function;
        final BoundedChannel<T> channel;
        final AtomicInteger running;

        Stage(String name, int workers, UnaryOperator<T> function, BoundedChannel<T> channel) {
            this.name = name;
            this.workers = workers;
            this.function = function;
            this.channel = channel;
            this.running = new AtomicInteger(workers);
        }
    }

    /**
     * Builds a {@link ChannelPipeline}. Not thread-safe.
     *
     * @param <T> the item type
     */
    public static final class Builder<T> {
        private final String name;
        private final List<Stage<T>> stages = new ArrayList<>();
        private Consumer<? super T> sink = item -> { };
        private ErrorHandler<? super T> onError = (stage, item, e) ->
                LOG.warn("ChannelPipeline stage '{}' failed on an item; it is not passed on", stage, e);

        private Builder(String name) {
            this.name = name;
        }

        /**
         * Adds a stage.
         *
         * @param stageName the stage's name
         * @param capacity its input channel's capacity
         * @param workers how many workers run it, in [1, 10,000]
         * @param function what it does to an item
         * @return this builder
         */
        public Builder<T> stage(String stageName, int capacity, int workers, UnaryOperator<T> function) {
            String policy = Validate.describe("ChannelPipeline", name);
            Validate.name(policy, stageName);
            Validate.inRange(policy, "workers", workers, 1, 10_000);
            Validate.notNull(policy, "function", function);
            stages.add(new Stage<>(stageName, workers, function, BoundedChannel.of(name + "." + stageName, capacity)));
            return this;
        }

        /**
         * Where the last stage's output goes (default: nowhere).
         *
         * @param sink the consumer, called on the last stage's workers
         * @return this builder
         */
        public Builder<T> sink(Consumer<? super T> sink) {
            this.sink = Objects.requireNonNull(sink, "sink");
            return this;
        }

        /**
         * What to do with an item whose stage threw (default: a WARN log).
         *
         * @param onError the handler
         * @return this builder
         */
        public Builder<T> onError(ErrorHandler<? super T> onError) {
            this.onError = Objects.requireNonNull(onError, "onError");
            return this;
        }

        /**
         * Builds the pipeline and starts its workers.
         *
         * @param executor runs one long-lived task per worker (virtual threads suit it)
         * @return the running pipeline
         */
        public ChannelPipeline<T> start(Executor executor) {
            String policy = Validate.describe("ChannelPipeline", name);
            Validate.check(!stages.isEmpty(), policy, "stages", "at least one", 0);
            Validate.notNull(policy, "executor", executor);
            ChannelPipeline<T> p = new ChannelPipeline<>(this);
            p.start(executor);
            return p;
        }
    }
}

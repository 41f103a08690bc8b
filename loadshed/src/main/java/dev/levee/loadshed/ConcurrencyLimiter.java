package dev.levee.loadshed;

import dev.levee.core.Classifier;
import dev.levee.core.Deadline;
import dev.levee.core.internal.EventListeners;
import dev.levee.core.Gate;
import dev.levee.core.LoadSignal;
import dev.levee.core.Outcome;
import dev.levee.core.PolicyRegistry;
import dev.levee.core.RejectedException;
import dev.levee.core.ShedException;
import dev.levee.core.Subscription;
import dev.levee.core.Ticker;
import dev.levee.core.internal.AsyncWaitQueue;
import dev.levee.core.internal.BoundedCounter;
import dev.levee.core.internal.ThreadStripe;
import dev.levee.core.internal.Validate;
import dev.levee.core.internal.Waits;
import dev.levee.loadshed.internal.SampleCell;
import dev.levee.loadshed.internal.WaitQueue;
import dev.levee.loadshed.limit.LimitAlgorithm;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An adaptive concurrency limit: admits a request while fewer than {@code limit} are in flight, and
 * moves the limit with a {@link LimitAlgorithm} fed by every completion's latency and outcome. It
 * protects a server from its callers (around a request handler) or a caller from overloading a
 * dependency (around an outbound call), and finds the limit by itself.
 *
 * <pre>{@code
 * ConcurrencyLimiter limiter = ConcurrencyLimiter.of("api", ConcurrencyLimiterConfig.builder()
 *         .algorithm(() -> GradientLimit.builder().maxLimit(200).build())
 *         .build());
 * Response r = limiter.execute(() -> handle(request));   // ShedException (reason concurrency_limit) when full
 * }</pre>
 *
 * <p><b>Model.</b> Two numbers: {@code inflight} (core's {@code BoundedCounter}), changed by one
 * bounded CAS on admission ({@code inflight < limit ? inflight + 1 : refuse}) and one CAS that never
 * goes below zero on completion; and {@code limit}, a volatile field written only by the algorithm's
 * single writer. A completion returns its slot and then offers its sample
 * {@code (end time, latency, inflight, drop)} to the algorithm: the thread that wins a CAS on a writer
 * flag runs {@link LimitAlgorithm#update}; a thread that finds the flag taken folds its sample into one
 * pending sample (the largest latency, and "drop" if any was a drop) that the writer, or the next
 * completion, applies.
 *
 * <p><b>Under contention</b> (after {@value #STRIPE_AFTER_COLLISIONS} completions found the writer
 * busy) completions stop competing for the writer flag on every sample: each folds its sample into a
 * per-thread cell of its own cache line, the same merge, and a cell's samples reach the algorithm as
 * one sample when the cell holds {@value #BATCH}, when one of them is a drop, or when nothing was
 * applied for {@value #BATCH_MAX_AGE_NANOS} ns; whoever then wins the writer flag applies every cell.
 * The algorithms move the limit at most once per round trip, and contended completions arrive many per
 * round trip, so a batch loses no reaction; and it takes the shared cache lines off the completion
 * path (one CAS on the in-flight count remains). A single-threaded caller never collides and feeds the
 * algorithm sample by sample.
 *
 * <p>Samples are merged, never dropped silently: a drop among them reaches the algorithm as a drop,
 * the slowest latency among them as its latency; and the algorithm is never run by two threads at
 * once. It is a {@link Gate}: use it alone
 * ({@link #execute}), through the permit protocol ({@link #tryAcquire(long)} then exactly one of
 * {@link #onSuccess}, {@link #onFailure}, {@link #onIgnored}), or in a {@link dev.levee.core.Pipeline},
 * where it shares the pipeline's clock readings and reads none of its own.
 *
 * <p><b>Outcomes.</b> A success (or a result) is a sample. A failure the config's {@link Classifier}
 * counts — timeouts and {@link dev.levee.core.DeadlineExceededException} included — is a sample with
 * {@code drop = true}. A failure it ignores (by default an {@link Error}), and {@link #onIgnored()},
 * return the slot without a sample.
 *
 * <p><b>Guarantees.</b>
 * <ul>
 *   <li>{@link #inflight()} never exceeds the limit in force when each request was admitted, under
 *       any concurrency; when the limit falls, requests already in flight finish and no new one is
 *       admitted until {@code inflight < limit}.</li>
 *   <li>Every permit is returned exactly once by its completion method; a completion without a permit
 *       throws {@link IllegalStateException} and leaves the count unchanged.</li>
 *   <li>{@link #tryAcquire(long)} never waits. {@link #acquire(long)} waits only when
 *       {@code maxWait > 0}: at most {@code maxWait}, never past the current {@link Deadline}, with
 *       at most {@code maxWaiters} threads waiting, served in {@code waitOrder} with direct hand-off. A
 *       waiting thread that is interrupted stops waiting, has its interrupt flag restored, and gets a
 *       {@link ShedException}. Waiting uses {@code java.util.concurrent.locks}, never a monitor.</li>
 *   <li>{@link #acquireAsync(long)} (and so {@code executeAsync} and asynchronous pipelines) never
 *       blocks: with {@code maxWait > 0} and no free slot the caller gets a pending stage, granted in
 *       {@code waitOrder} among asynchronous waiters (at most {@code maxWaiters} of them) or refused
 *       when its wait ends, completed on the configured {@code asyncExecutor}, never on the
 *       scheduler's thread. Threads waiting in {@link #acquire(long)} are served before asynchronous
 *       waiters.</li>
 *   <li>A refusal is a stackless {@link ShedException} with reason {@value #REASON}.</li>
 * </ul>
 *
 * <p><b>Logging.</b> One WARN when the limit falls to the algorithm's floor (an operator should know
 * the service is shedding as hard as it can), one INFO when it leaves it; every other change at DEBUG.
 *
 * <p><b>Cost.</b> Admission: a volatile read and a CAS. Completion: a CAS on the in-flight count, a
 * volatile read for waiters, then either a CAS on the writer flag and the algorithm's arithmetic, or
 * (contended) a CAS on the thread's own cell and, one completion in {@value #BATCH}, the writer's
 * pass over the cells. Nothing is allocated unless a request is refused, a caller waits, a listener
 * is registered, or (once) the cells when contention first shows: at most 16 padded cells, about
 * 2 KB per limiter (a keyed limiter pays it only for the keys whose completions contend).
 *
 * <p>Thread-safe. Configuration: {@link ConcurrencyLimiterConfig}.
 */
public final class ConcurrencyLimiter implements Gate {
    /** The shed reason of every refusal: {@value}. */
    public static final String REASON = "concurrency_limit";

    private static final Logger LOG = LoggerFactory.getLogger(ConcurrencyLimiter.class);
    private static final VarHandle UPDATING;
    private static final VarHandle PENDING;
    private static final VarHandle SAMPLES;
    private static final VarHandle LIMIT;
    private static final VarHandle COLLISIONS;
    private static final VarHandle LAST_APPLY;
    /** Latencies above this are stored as this in the packed pending sample. */
    private static final long MAX_PENDING_RTT = Long.MAX_VALUE >>> 2;
    /** Completions that found the writer busy before completions switch to per-thread cells. */
    static final int STRIPE_AFTER_COLLISIONS = 16;
    /** Samples a cell collects before its thread applies the cells (contended mode). */
    static final int BATCH = 8;
    /** A contended completion applies the cells at once if nothing was applied for this long. */
    static final long BATCH_MAX_AGE_NANOS = 1_000_000L;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            UPDATING = lookup.findVarHandle(Writer.class, "updating", int.class);
            PENDING = lookup.findVarHandle(Writer.class, "pending", long.class);
            SAMPLES = lookup.findVarHandle(Writer.class, "samples", long.class);
            LIMIT = lookup.findVarHandle(ConcurrencyLimiter.class, "limit", int.class);
            COLLISIONS = lookup.findVarHandle(Writer.class, "collisions", int.class);
            LAST_APPLY = lookup.findVarHandle(Writer.class, "lastApplyNanos", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final String name;
    private final ConcurrencyLimiterConfig config;
    private final Ticker ticker;
    private final Classifier classifier;
    private final LimitAlgorithm algorithm;
    private final int minLimit;
    private final long maxWaitNanos;
    private final boolean lifo;
    private final BoundedCounter inflight = new BoundedCounter();
    private final WaitQueue waiters;
    private final Slots slots = new Slots();
    private final AsyncWaitQueue asyncWaiters;
    /** Asynchronous callers waiting, bounded by {@code maxWaiters}. */
    private final BoundedCounter asyncWaiting = new BoundedCounter();
    private final int maxWaiters;
    private final LongAdder rejected = new LongAdder();
    private final LongAdder drops = new LongAdder();
    private final EventListeners<ConcurrencyLimiterEvent> listeners = new EventListeners<>();

    private final boolean waits;
    /** What completions write, on its own cache lines, away from what admissions read. */
    private final Writer writer = new Writer();

    /** The limit in force; written only by the writer that holds {@code writer.updating}. */
    private volatile int limit;
    /** Per-thread sample cells, null until completions first contend for the writer. */
    private volatile SampleCell @Nullable [] cells;

    private ConcurrencyLimiter(String name, ConcurrencyLimiterConfig config) {
        this.name = Validate.name("ConcurrencyLimiter", name);
        this.config = Validate.notNull(Validate.describe("ConcurrencyLimiter", name), "config", config);
        this.ticker = config.ticker();
        this.classifier = config.classifier();
        this.algorithm = ConcurrencyLimiterConfig.newAlgorithm(Validate.describe("ConcurrencyLimiter", name),
                config.algorithm());
        this.minLimit = algorithm.minLimit();
        this.maxWaitNanos = config.maxWaitNanos();
        this.lifo = config.waitOrder() == ConcurrencyLimiterConfig.WaitOrder.LIFO;
        this.maxWaiters = config.maxWaiters();
        this.waiters = new WaitQueue(lifo, maxWaiters);
        this.asyncWaiters = new AsyncWaitQueue(config.scheduler(), config.asyncExecutor(), lifo);
        this.waits = maxWaitNanos > 0;
        this.limit = algorithm.initialLimit();
        this.writer.lastApplyNanos = ticker.read();
    }

    /**
     * A limiter.
     *
     * @param name the name, used in rejections, events, logs and metric tags
     * @param config the configuration
     * @return the limiter
     * @throws dev.levee.core.InvalidConfigException if the name is blank or the algorithm's bounds are invalid
     */
    public static ConcurrencyLimiter of(String name, ConcurrencyLimiterConfig config) {
        return new ConcurrencyLimiter(name, config);
    }

    /**
     * A limiter with {@link ConcurrencyLimiterConfig#defaults()}: seed 002's AIMD, fail fast.
     *
     * @param name the name
     * @return the limiter
     */
    public static ConcurrencyLimiter ofDefaults(String name) {
        return new ConcurrencyLimiter(name, ConcurrencyLimiterConfig.defaults());
    }

    /**
     * A registry creating one limiter per name.
     *
     * @param defaultConfig the configuration of limiters created without a named configuration
     * @return the registry
     */
    public static PolicyRegistry<ConcurrencyLimiterConfig, ConcurrencyLimiter> registry(
            ConcurrencyLimiterConfig defaultConfig) {
        return PolicyRegistry.create(defaultConfig, ConcurrencyLimiter::of);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Ticker ticker() {
        return ticker;
    }

    /** @return the configuration this limiter was built from */
    public ConcurrencyLimiterConfig config() {
        return config;
    }

    // ------------------------------------------------------------------ admission

    /**
     * Admits if {@code inflight < limit}; never waits (and may take a slot ahead of waiting threads).
     *
     * @param nowNanos the current reading of {@link #ticker()}
     * @return true if the request may start; then exactly one completion method must follow
     */
    @Override
    public boolean tryAcquire(long nowNanos) {
        if (inflight.tryIncrement(limit) > 0) {
            return true;
        }
        onRejected(nowNanos);
        return false;
    }

    /**
     * Admits, waiting for a slot if {@code maxWait > 0}: up to {@code maxWait} and never past the
     * current {@link Deadline}. In FIFO order a caller does not take a slot ahead of waiting threads.
     *
     * @param nowNanos the current reading of {@link #ticker()}
     * @throws ShedException (reason {@value #REASON}) if no slot was free in time, too many threads
     *     wait, or the thread was interrupted while waiting (its interrupt flag is then set again)
     */
    @Override
    public void acquire(long nowNanos) {
        if ((lifo || nobodyWaits()) && inflight.tryIncrement(limit) > 0) {
            return;
        }
        if (maxWaitNanos == 0) {
            onRejected(nowNanos);
            throw rejection(nowNanos);
        }
        long end = Waits.waitEnd(ticker, nowNanos, maxWaitNanos);
        if (end <= nowNanos) {
            onRejected(nowNanos);
            throw rejection(nowNanos);
        }
        WaitQueue.Result result = waiters.await(slots, ticker, end);
        if (result == WaitQueue.Result.GRANTED) {
            return;
        }
        long now = ticker.read();
        onRejected(now);
        if (result == WaitQueue.Result.INTERRUPTED) {
            throw new ShedException(name, REASON, "ConcurrencyLimiter '" + name
                    + "': interrupted while waiting for a slot; interrupt flag restored", 0L, null);
        }
        throw rejection(now);
    }

    /**
     * Admits without blocking the calling thread: {@link Gate#granted()} if a slot is free (in FIFO
     * order: and nobody waits); a failed stage if none is and {@code maxWait} is zero, the current
     * {@link Deadline} leaves no time, or {@code maxWaiters} asynchronous callers already wait;
     * otherwise a stage that completes, on the configured {@code asyncExecutor}, when a completion
     * (or a rising limit) hands this caller a slot, in {@code waitOrder} among asynchronous waiters, or
     * fails with a {@link ShedException} (reason {@value #REASON}) when the wait ends (scheduled on
     * the configured {@code scheduler}, whose thread only hands the refusal to the executor).
     *
     * @param nowNanos the current reading of {@link #ticker()}
     * @return the permit's stage
     */
    @Override
    public CompletionStage<Void> acquireAsync(long nowNanos) {
        if ((lifo || nobodyWaits()) && inflight.tryIncrement(limit) > 0) {
            return Gate.granted();
        }
        long end = waits ? Waits.waitEnd(ticker, nowNanos, maxWaitNanos) : nowNanos;
        if (end <= nowNanos || asyncWaiting.tryIncrement(maxWaiters) < 0) {
            onRejected(nowNanos);
            return CompletableFuture.failedFuture(rejection(nowNanos));
        }
        return asyncWaiters.enqueue(end - nowNanos, slots, () -> {
            long now = ticker.read();
            onRejected(now);
            return rejection(now);
        });
    }

    private boolean nobodyWaits() {
        return waiters.size() == 0 && asyncWaiters.size() == 0;
    }

    @Override
    public RejectedException rejection(long nowNanos) {
        return new ShedException(name, REASON, "ConcurrencyLimiter '" + name + "' is at its limit: " + inflight.get()
                + " of " + limit + " requests in flight" + (maxWaitNanos > 0 ? " and no slot freed in time" : ""),
                0L, null);
    }

    // ------------------------------------------------------------------ completion

    @Override
    public void onSuccess(long latencyNanos) {
        complete(ticker.read(), latencyNanos, false);
    }

    @Override
    public void onResult(long latencyNanos, Object result) {
        onResultAt(ticker.read(), latencyNanos, result);
    }

    @Override
    public void onResultAt(long endNanos, long latencyNanos, Object result) {
        boolean drop = classifier.classifiesResults() && classifier.classifyResult(result) == Outcome.FAILURE;
        complete(endNanos, latencyNanos, drop);
    }

    @Override
    public void onFailure(long latencyNanos, Throwable error) {
        onFailureAt(ticker.read(), latencyNanos, error);
    }

    @Override
    public void onFailureAt(long endNanos, long latencyNanos, Throwable error) {
        Outcome outcome = classifier.classify(error);
        if (outcome == Outcome.IGNORED) {
            release();
        } else {
            complete(endNanos, latencyNanos, outcome == Outcome.FAILURE);
        }
    }

    @Override
    public void onIgnored() {
        release();
    }

    private void release() {
        returnSlot();
        if (waits) {
            grantWaiters();
        }
    }

    private void complete(long now, long latencyNanos, boolean drop) {
        int before = returnSlot();
        if (waits) {
            grantWaiters();
        }
        if (drop) {
            drops.increment();
        }
        sample(now, Math.max(0L, latencyNanos), before, drop);
    }

    /** Returns a slot: a CAS that never goes below zero; a completion without a permit is refused. */
    private int returnSlot() {
        int before = inflight.decrement();
        if (before == BoundedCounter.NOT_HELD) {
            throw new IllegalStateException("ConcurrencyLimiter '" + name + "': a permit was returned that was "
                    + "never acquired or was already returned (each acquire takes exactly one completion); the "
                    + "in-flight count was left unchanged");
        }
        return before;
    }

    /** Hands free slots to waiting threads first, then to asynchronous waiters. */
    private void grantWaiters() {
        waiters.grant(slots);
        if (asyncWaiters.size() != 0) {
            asyncWaiters.drain(slots);
        }
    }

    // ------------------------------------------------------------------ the single writer

    private void sample(long now, long rtt, int inflightAtEnd, boolean drop) {
        SampleCell[] cs = cells;
        if (cs != null) {
            sampleContended(cs, now, rtt, drop);
            return;
        }
        Writer w = writer;
        if ((int) UPDATING.getOpaque(w) == 0 && UPDATING.compareAndSet(w, 0, 1)) {
            try {
                apply(now, rtt, inflightAtEnd, drop);
            } finally {
                // A release store is enough: a sample folded meanwhile is applied by the next completion
                // at the latest (it stays in `pending`), never lost.
                UPDATING.setRelease(w, 0);
            }
        } else {
            fold(w, rtt, drop);
            if ((int) COLLISIONS.getAndAdd(w, 1) + 1 == STRIPE_AFTER_COLLISIONS) {
                cells = SampleCell.newCells();
            }
        }
        // A sample folded while this thread (or the writer it lost to) was applying: apply it now.
        // Two rounds at most, so one completion never runs the algorithm for a stream of others.
        for (int round = 0; round < 2 && w.pending != 0 && (int) UPDATING.getOpaque(w) == 0
                && UPDATING.compareAndSet(w, 0, 1); round++) {
            try {
                long p = (long) PENDING.getAndSet(w, 0L);
                if (p != 0) {
                    apply(now, (p >>> 1) - 1, inflight.get(), (p & 1) != 0);
                }
            } finally {
                UPDATING.setRelease(w, 0);
            }
        }
    }

    /**
     * Contended mode: fold the sample into this thread's cell, and apply the cells only when the cell
     * is full, the sample is a drop, or nothing was applied for a while. The thread id picks the cell,
     * so threads with consecutive ids never share one.
     */
    private void sampleContended(SampleCell[] cs, long now, long rtt, boolean drop) {
        int count = cs[ThreadStripe.of(cs.length - 1)].add(rtt, drop);
        Writer w = writer;
        if (count < BATCH && !drop && now - (long) LAST_APPLY.getOpaque(w) < BATCH_MAX_AGE_NANOS) {
            return;
        }
        // If the writer is busy the samples stay in their cells: this thread's next completion, or any
        // completion once BATCH_MAX_AGE_NANOS pass without an apply, applies them.
        if ((int) UPDATING.getOpaque(w) == 0 && UPDATING.compareAndSet(w, 0, 1)) {
            try {
                int inflightNow = inflight.get();
                for (SampleCell c : cs) {
                    long word = c.take();
                    if (word != 0) {
                        apply(now, SampleCell.rtt(word), inflightNow, SampleCell.drop(word));
                    }
                }
                if (w.pending != 0) {
                    long p = (long) PENDING.getAndSet(w, 0L);
                    if (p != 0) {
                        apply(now, (p >>> 1) - 1, inflightNow, (p & 1) != 0);
                    }
                }
            } finally {
                UPDATING.setRelease(w, 0);
            }
        }
    }

    /** Merges a sample into the pending one: the larger latency, and drop if either dropped. */
    private static void fold(Writer w, long rtt, boolean drop) {
        long capped = Math.min(rtt, MAX_PENDING_RTT);
        long current;
        long next;
        do {
            current = w.pending;
            long currentRtt = current == 0 ? -1 : (current >>> 1) - 1;
            if (currentRtt >= capped && ((current & 1) != 0 || !drop)) {
                return; // already covered: the pending sample is at least as slow and as much a drop
            }
            next = ((Math.max(currentRtt, capped) + 1) << 1) | (current & 1) | (drop ? 1 : 0);
        } while (!PENDING.compareAndSet(w, current, next));
    }

    private void apply(long now, long rtt, int inflightAtEnd, boolean drop) {
        int old = limit;
        int next = algorithm.update(now, rtt, inflightAtEnd, drop);
        Writer w = writer;
        SAMPLES.setRelease(w, w.samples + 1);
        LAST_APPLY.setOpaque(w, now);
        if (next != old) {
            LIMIT.setVolatile(this, next);
            limitChanged(now, old, next);
        }
    }

    private void limitChanged(long now, int old, int next) {
        if (next > old && waits) {
            grantWaiters();
        }
        Writer w = writer;
        if (next <= minLimit && !w.atFloor) {
            w.atFloor = true;
            LOG.warn("ConcurrencyLimiter '{}' fell to its floor of {} concurrent requests: latency or drops say the "
                    + "service is overloaded and it is shedding as hard as it can", name, next);
        } else if (next > minLimit && w.atFloor) {
            w.atFloor = false;
            LOG.info("ConcurrencyLimiter '{}' rose above its floor: limit {}", name, next);
        } else if (LOG.isDebugEnabled()) {
            LOG.debug("ConcurrencyLimiter '{}' limit {} -> {} ({} in flight)", name, old, next, inflight.get());
        }
        if (!listeners.isEmpty()) {
            listeners.publish(new ConcurrencyLimiterEvent.LimitChanged(name, now, old, next, inflight.get()));
        }
    }

    private void onRejected(long now) {
        rejected.increment();
        if (LOG.isDebugEnabled()) {
            LOG.debug("ConcurrencyLimiter '{}' shed a request: {} of {} in flight", name, inflight.get(), limit);
        }
        if (!listeners.isEmpty()) {
            listeners.publish(new ConcurrencyLimiterEvent.Rejected(name, now, REASON, limit, inflight.get()));
        }
    }

    // ------------------------------------------------------------------ readings

    /** @return the limit in force */
    public int limit() {
        return limit;
    }

    /** @return requests admitted and not yet completed */
    public int inflight() {
        return inflight.get();
    }

    /** @return callers waiting for a slot: threads and asynchronous callers */
    public int waiting() {
        return waiters.size() + asyncWaiters.size();
    }

    /** @return whether completions have contended and now fold samples into per-thread cells (for tests) */
    boolean contended() {
        return cells != null;
    }

    /** @return requests refused since creation */
    public long rejectedCount() {
        return rejected.sum();
    }

    /** @return a snapshot of the state and counters */
    public ConcurrencyLimiterMetrics metrics() {
        return new ConcurrencyLimiterMetrics(limit, inflight.get(), waiting(), rejected.sum(), drops.sum(),
                (long) SAMPLES.getAcquire(writer));
    }

    /**
     * The limiter's utilisation as a {@link LoadSignal}: {@code inflight / limit}, 1.0 at the limit.
     *
     * @return a signal reading this limiter
     */
    public LoadSignal loadSignal() {
        return () -> (double) inflight.get() / limit;
    }

    /**
     * Registers a listener; it runs on the thread that caused the event and must be fast.
     *
     * @param listener the listener
     * @return closing it unregisters the listener
     */
    public Subscription onEvent(Consumer<? super ConcurrencyLimiterEvent> listener) {
        return listeners.subscribe(listener);
    }

    @Override
    public String toString() {
        return "ConcurrencyLimiter[" + name + ", inflight=" + inflight.get() + "/" + limit + ", waiting="
                + waiting() + ", " + algorithm + "]";
    }

    /** Padding before the writer's fields. */
    abstract static class WriterPad {
        long p00, p01, p02, p03, p04, p05, p06, p07;
    }

    /**
     * The single writer's state, padded on both sides: completions write it on every sample, and it must
     * not share a cache line with {@code limit}, which every admission reads.
     */
    static final class Writer extends WriterPad {
        /** 1 while a thread runs the algorithm. */
        volatile int updating;
        /** A sample folded in while the writer was busy: {@code (rtt + 1) << 1 | drop}, 0 when none. */
        volatile long pending;
        /** Samples applied; written by the writer only (release store), read with acquire. */
        long samples;
        /** Whether the limit is at the floor (the WARN was logged); writer only. */
        boolean atFloor;
        /** Completions that found the writer busy (counted until the cells are created). */
        volatile int collisions;
        /** The end reading of the last sample applied; written by the writer (opaque), read by completions. */
        volatile long lastApplyNanos;
        long p10, p11, p12, p13, p14, p15, p16, p17;
    }

    /**
     * The limiter's slots as its waiters see them: threads in {@link WaitQueue}, asynchronous callers
     * in {@link AsyncWaitQueue}.
     */
    private final class Slots implements WaitQueue.Slots, AsyncWaitQueue.Permits {
        @Override
        public boolean tryTake() {
            return inflight.tryIncrement(limit) > 0;
        }

        /** A slot taken for a waiter that could not use it goes to a waiting thread, if any. */
        @Override
        public void giveBack() {
            inflight.decrement();
            waiters.grant(this);
        }

        @Override
        public void waiterLeft() {
            asyncWaiting.decrement();
        }
    }
}

package dev.levee.loadshed;

import dev.levee.core.Deadline;
import dev.levee.core.Gate;
import dev.levee.core.LoadSignal;
import dev.levee.core.ShedException;
import dev.levee.core.internal.AsyncWaitQueue;
import dev.levee.core.internal.BoundedCounter;
import dev.levee.core.internal.Validate;
import dev.levee.core.internal.Waits;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntSupplier;

/**
 * Seed 002's composite load shedder: one decision from several signals, in a fixed order, each
 * refusal with its reason.
 *
 * <pre>{@code
 * AdaptiveLoadShedder shedder = AdaptiveLoadShedder.of("api", AdaptiveLoadShedderConfig.builder()
 *         .limit(limiter::limit)                          // e.g. an adaptive concurrency limit
 *         .build());
 * ShedDecision d = shedder.decide(priority, ticker.read());   // no exception on the fast path
 * if (d.isShed()) return ShedResponse.of(d).writeTo(response);
 * // or as a Gate: Pipeline.of(shedder, ...).execute(...)      // waits when QUEUED
 * }</pre>
 *
 * <p><b>The decision</b> (seed 002's {@code should_shed}, in its order):
 * <ol>
 *   <li>in flight ≥ limit → {@code queue_full} if {@code maxQueueDepth} callers already wait, else
 *       {@code queued};</li>
 *   <li>CPU &gt; 0.85 → {@code cpu_high} ({@link ShedDecision#detail(double)} gives the seed's
 *       {@code cpu_high:0.93});</li>
 *   <li>memory after GC &gt; 0.90 → {@code memory_high};</li>
 *   <li>in flight &gt; 0.8 × limit and priority below {@code highPriorityLevel} →
 *       {@code low_priority_shed};</li>
 *   <li>otherwise {@code admitted}.</li>
 * </ol>
 *
 * <p><b>As a Gate.</b> {@link #tryAcquire(long)} admits only {@code admitted} (a {@code queued}
 * request cannot wait there and is refused as {@code concurrency_limit}). {@link #acquire(long)} —
 * what {@link dev.levee.core.Pipeline}s call — waits when {@code queued}: for a slot to free, up to
 * {@code maxQueueTime} and never past the current {@link Deadline} ({@code queue_timeout} or
 * {@code deadline}); an interrupted waiter keeps its interrupt flag and is refused. The priority is
 * {@link RequestPriority#current()}. {@link #acquireAsync(long)} — what {@code executeAsync} and
 * asynchronous pipelines call — waits the same way without blocking: a pending stage granted by a
 * completion (asynchronous callers oldest first among themselves; a freed slot goes to whichever of a
 * woken thread and the oldest asynchronous caller takes it first), or refused when the wait ends; it
 * is completed on the configured {@code asyncExecutor}. Threads and asynchronous callers together
 * are at most {@code maxQueueDepth}.
 *
 * <p><b>Guarantees.</b> In flight never exceeds the limit read at admission (one bounded CAS); at most
 * {@code maxQueueDepth} callers wait; every refusal is counted by reason. The limit is any
 * {@link IntSupplier}, so an adaptive limiter's current limit plugs in without a dependency.
 *
 * <p><b>Cost.</b> {@code decide}: one supplier call, two volatile signal reads, a few comparisons; no
 * lock, no allocation. A permit: one CAS in, one decrement out (a lock only when someone waits).
 */
public final class AdaptiveLoadShedder extends BaseShedder {
    private final AdaptiveLoadShedderConfig config;
    private final IntSupplier limit;
    private final LoadSignal cpu;
    private final LoadSignal memory;
    private final double cpuThreshold;
    private final double memoryThreshold;
    private final double priorityThreshold;
    private final int highPriorityLevel;
    private final int maxQueueDepth;
    private final long maxQueueTimeNanos;
    /** Callers waiting for a slot (threads and asynchronous callers), at most {@code maxQueueDepth}. */
    private final BoundedCounter waiting = new BoundedCounter();
    private final AsyncWaitQueue asyncWaiters;
    private final AsyncWaitQueue.Permits slots = new AsyncWaitQueue.Permits() {
        @Override
        public boolean tryTake() {
            return admit();
        }

        @Override
        public void giveBack() {
            releasePermit();
            signalThreads();
        }

        @Override
        public void waiterLeft() {
            waiting.decrement();
        }
    };
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition slotFreed = lock.newCondition();

    private AdaptiveLoadShedder(String name, AdaptiveLoadShedderConfig config) {
        super(name, config.ticker(), config.retryAfter().toNanos());
        this.config = config;
        this.limit = config.limit();
        this.cpu = config.cpu();
        this.memory = config.memory();
        this.cpuThreshold = config.cpuThreshold();
        this.memoryThreshold = config.memoryThreshold();
        this.priorityThreshold = config.priorityThreshold();
        this.highPriorityLevel = config.highPriorityLevel();
        this.maxQueueDepth = config.maxQueueDepth();
        this.maxQueueTimeNanos = config.maxQueueTime().toNanos();
        this.asyncWaiters = new AsyncWaitQueue(config.scheduler(), config.asyncExecutor());
    }

    /**
     * Creates a composite shedder.
     *
     * @param name the name, used in rejections, events and metric tags
     * @param config the configuration
     * @return the shedder
     */
    public static AdaptiveLoadShedder of(String name, AdaptiveLoadShedderConfig config) {
        Validate.name("AdaptiveLoadShedder", name);
        Validate.notNull(Validate.describe("AdaptiveLoadShedder", name), "config", config);
        return new AdaptiveLoadShedder(name, config);
    }

    /**
     * A composite shedder with seed 002's defaults and the JVM's CPU and memory signals.
     *
     * @param name the name
     * @return the shedder
     */
    public static AdaptiveLoadShedder ofDefaults(String name) {
        return of(name, AdaptiveLoadShedderConfig.defaults());
    }

    /** @return the configuration */
    public AdaptiveLoadShedderConfig config() {
        return config;
    }

    @Override
    public ShedDecision decide(int priority, long nowNanos) {
        int l = limit.getAsInt();
        int n = inFlight.get();
        if (n >= l) {
            return waiting.get() >= maxQueueDepth ? ShedDecision.QUEUE_FULL : ShedDecision.QUEUED;
        }
        if (cpu.load() > cpuThreshold) {
            return ShedDecision.CPU_HIGH;
        }
        if (memory.load() > memoryThreshold) {
            return ShedDecision.MEMORY_HIGH;
        }
        if (n > l * priorityThreshold && priority < highPriorityLevel) {
            return ShedDecision.LOW_PRIORITY_SHED;
        }
        return ShedDecision.ADMITTED;
    }

    /** One bounded CAS: never more in flight than the limit read now. */
    @Override
    boolean admit() {
        if (inFlight.tryIncrement(limit.getAsInt()) < 0) {
            return false;
        }
        countAdmitted();
        return true;
    }

    @Override
    public void acquire(long nowNanos) {
        ShedDecision d = decide(RequestPriority.current(), nowNanos);
        if (d == ShedDecision.ADMITTED && admit()) {
            return;
        }
        if (d == ShedDecision.ADMITTED || d == ShedDecision.QUEUED) {
            d = waitForSlot(nowNanos);
            if (d == ShedDecision.ADMITTED) {
                return;
            }
        }
        refuse(d, nowNanos);
        throw rejection(nowNanos);
    }

    /**
     * Asks for a slot without blocking: {@link Gate#granted()} when admitted; when the limit is
     * reached ({@code queued}), a stage completed (on the configured {@code asyncExecutor}) once a
     * completion frees a slot, or failed with {@code queue_timeout} or {@code deadline} when the wait
     * ends; a failed stage at once for every other refusal ({@code queue_full}, {@code cpu_high}, …).
     *
     * @param nowNanos the current reading of {@link #ticker()}
     * @return the permit's stage
     */
    @Override
    public CompletionStage<Void> acquireAsync(long nowNanos) {
        ShedDecision d = decide(RequestPriority.current(), nowNanos);
        if (d == ShedDecision.ADMITTED && admit()) {
            return Gate.granted();
        }
        if (d == ShedDecision.ADMITTED || d == ShedDecision.QUEUED) {
            long end = Waits.waitEnd(ticker, nowNanos, maxQueueTimeNanos);
            ShedDecision onExpiry = end - nowNanos < maxQueueTimeNanos ? ShedDecision.DEADLINE : ShedDecision.QUEUE_TIMEOUT;
            if (end <= nowNanos) {
                d = onExpiry;
            } else if (waiting.tryIncrement(maxQueueDepth) < 0) {
                d = ShedDecision.QUEUE_FULL;
            } else {
                return asyncWaiters.enqueue(end - nowNanos, slots, () -> {
                    refuse(onExpiry, ticker.read());
                    return rejectionFor(onExpiry);
                });
            }
        }
        refuse(d, nowNanos);
        return CompletableFuture.failedFuture(rejectionFor(d));
    }

    /** Waits for a slot as one of at most maxQueueDepth waiters. */
    private ShedDecision waitForSlot(long startNanos) {
        if (waiting.tryIncrement(maxQueueDepth) < 0) {
            return ShedDecision.QUEUE_FULL;
        }
        Deadline deadline = Deadline.currentOrNull();
        long queueEnd = startNanos + maxQueueTimeNanos;
        lock.lock();
        try {
            while (true) {
                if (admit()) {
                    return ShedDecision.ADMITTED;
                }
                long now = ticker.read();
                long left = queueEnd - now;
                boolean byDeadline = false;
                if (deadline != null) {
                    long d = deadline.remainingNanos();
                    if (d < left) {
                        left = d;
                        byDeadline = true;
                    }
                }
                if (left <= 0) {
                    return byDeadline ? ShedDecision.DEADLINE : ShedDecision.QUEUE_TIMEOUT;
                }
                try {
                    slotFreed.awaitNanos(Math.min(left, TimeUnit.MILLISECONDS.toNanos(100)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return ShedDecision.QUEUE_TIMEOUT;
                }
            }
        } finally {
            waiting.decrement();
            lock.unlock();
        }
    }

    @Override
    void release() {
        releasePermit();
        if (waiting.get() > 0) {
            signalThreads();
            if (asyncWaiters.size() != 0) {
                asyncWaiters.drain(slots);
            }
        }
    }

    /** Returns the permit only (the base class's count), without waking anyone. */
    private void releasePermit() {
        super.release();
    }

    private void signalThreads() {
        lock.lock();
        try {
            slotFreed.signal();
        } finally {
            lock.unlock();
        }
    }

    /** @return callers waiting for a slot now */
    public int waitingCount() {
        return waiting.get();
    }

    /** @return the concurrency limit in force now */
    public int limit() {
        return limit.getAsInt();
    }

    /**
     * The seed's detailed reason for a decision, with the reading that decided (e.g.
     * {@code cpu_high:0.93}); the plain reason word for the others. Allocates.
     *
     * @param decision a decision of this shedder
     * @return the detail
     */
    public String explain(ShedDecision decision) {
        if (decision == ShedDecision.CPU_HIGH) {
            return decision.detail(cpu.load());
        }
        if (decision == ShedDecision.MEMORY_HIGH) {
            return decision.detail(memory.load());
        }
        return decision.reason();
    }

    /**
     * The rejection for a refused {@link #decide} (for callers that decide and then throw).
     *
     * @param decision a refusing decision
     * @return the exception, carrying the reason and the retry-after hint
     */
    public ShedException rejectionFor(ShedDecision decision) {
        return new ShedException(name, decision.reason(), "AdaptiveLoadShedder '" + name + "' shed the call: "
                + explain(decision), config.retryAfter().toNanos(), null);
    }
}

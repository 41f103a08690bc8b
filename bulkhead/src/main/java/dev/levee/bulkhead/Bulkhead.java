package dev.levee.bulkhead;

import dev.levee.bulkhead.internal.Waits;
import dev.levee.core.BulkheadFullException;
import dev.levee.core.Chain;
import dev.levee.core.CheckedSupplier;
import dev.levee.core.Deadline;
import dev.levee.core.internal.EventListeners;
import dev.levee.core.Gate;
import dev.levee.core.PolicyRegistry;
import dev.levee.core.RejectedException;
import dev.levee.core.Subscription;
import dev.levee.core.Ticker;
import dev.levee.core.TimeNeed;
import dev.levee.core.internal.Validate;
import dev.levee.core.internal.AsyncWaitQueue;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A semaphore bulkhead: at most {@code limit} calls inside at once, so one slow dependency exhausts
 * its own slots and not every thread of the application.
 *
 * <p><b>Model.</b> The state is one counter, {@code active}. A call enters with one bounded
 * compare-and-set, {@code active < limit ? active + 1 : refuse}, and leaves with one decrement. Nothing
 * else happens on the way in or out unless a caller is waiting: a leaving call takes a lock and wakes
 * one waiter only when the waiter count is non-zero. Entering and leaving therefore take no lock and
 * allocate nothing. It is a {@link Gate}: use it alone ({@link #execute}), through the permit protocol
 * ({@link #tryAcquire(long)} then exactly one of {@link #onSuccess}, {@link #onFailure},
 * {@link #onIgnored}), or in a {@link dev.levee.core.Pipeline}, where it fuses with neighbouring gates.
 *
 * <p><b>Guarantees.</b>
 * <ul>
 *   <li>{@link #activeCount()} never exceeds the limit in force when each call entered, under any
 *       concurrency. After {@link #resize(int)} to a smaller limit, calls already inside finish and no
 *       new call enters until {@code active < limit}.</li>
 *   <li>{@link #tryAcquire(long)} never waits. {@link #acquire(long)} waits up to
 *       {@link BulkheadConfig#maxWait()}, and never past the current {@link Deadline}; a wait that
 *       cannot end in time is refused at once.</li>
 *   <li>A waiting thread that is interrupted stops waiting, has its interrupt flag restored, and gets a
 *       {@link BulkheadFullException} whose message says it was interrupted. The interrupt is never
 *       lost.</li>
 *   <li>No monitor locks: waiting uses a {@link ReentrantLock} and its {@link Condition}, so a
 *       waiting virtual thread unmounts and frees its carrier.</li>
 *   <li>With {@link BulkheadConfig#fair()}, waiters are admitted in arrival order and a new arrival
 *       does not take a slot while anyone waits.</li>
 *   <li>{@link #executeAsync} never blocks: with a {@code maxWait} and no free slot the caller waits
 *       asynchronously (see {@link #acquireAsync(long)}); its call starts on the configured
 *       {@code asyncExecutor}, never on a Levee timer thread.</li>
 *   <li>A permit returned twice (or never taken) is refused with an {@link IllegalStateException}
 *       and the count is left untouched: misuse never lets another caller in above the bound.</li>
 * </ul>
 *
 * <p><b>Knobs</b> ({@link BulkheadConfig}; defaults in its table): {@code maxConcurrentCalls} 25,
 * {@code maxWait} 0 (fail fast), {@code fair} false, {@code saturationWarning} 30 s.
 *
 * <p><b>Cost.</b> Entering and leaving: one compare-and-set each, no lock, no clock read, no
 * allocation; a lock only when someone waits. It needs no clock reading ({@link #timeNeed()} is
 * {@link TimeNeed#NONE}), so {@link #tryAcquire()}, {@code execute} and a pipeline of gates that need
 * none read no clock on the way in or out; a refusal reads the ticker once, for its event.
 *
 * <p><b>Saturation.</b> An episode of saturation starts with a rejection and ends when a call enters
 * leaving at least one slot free. If rejections continue for {@link BulkheadConfig#saturationWarning()}
 * within one episode, one WARN is logged and a {@link BulkheadEvent.Saturated} event published.
 *
 * <p>Thread-safe.
 */
public final class Bulkhead implements Gate {
    /*
     * Implementation notes (for maintainers).
     *
     * Lost wake-ups cannot happen. A leaving call decrements `active` and then reads `waiters`; a
     * waiter increments `waiters` and then re-reads `active`. Both are volatile, so at least one of the
     * two sees the other: either the leaver signals, or the waiter finds the free slot itself. The
     * signal is sent under the lock the waiter holds until it parks, so it cannot arrive between the
     * waiter's check and its park. Asynchronous waiters are counted in `waiters` too and are served by
     * AsyncWaitQueue.drain from signalOne(), with the same add-then-recheck ordering.
     *
     * Leaving is a CAS loop that refuses to go below zero (a decrement-then-undo would open a window in
     * which a concurrent tryEnter sees -1 and admits above the bound). `active == RETIRED` marks a
     * bulkhead a KeyedBulkhead evicted while empty; RETIRED is above every limit, so the fast path's
     * bound check refuses it without an extra read.
     *
     * tryEnter re-reads the limit after its CAS: a concurrent resize() may have lowered it in between.
     */
    private static final Logger LOG = LoggerFactory.getLogger(Bulkhead.class);
    private static final long NOT_SATURATED = Long.MIN_VALUE;
    /**
     * The value of {@code active} once a {@link KeyedBulkhead} has retired this bulkhead (evicted while
     * empty): far above any limit, so no call can enter it again.
     */
    static final int RETIRED = Integer.MAX_VALUE / 2;
    private static final VarHandle ACTIVE;
    private static final VarHandle LIMIT;
    private static final VarHandle WAITERS;
    private static final VarHandle SATURATED_SINCE;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            ACTIVE = lookup.findVarHandle(Bulkhead.class, "active", int.class);
            LIMIT = lookup.findVarHandle(Bulkhead.class, "limit", int.class);
            WAITERS = lookup.findVarHandle(Bulkhead.class, "waiters", int.class);
            SATURATED_SINCE = lookup.findVarHandle(Bulkhead.class, "saturatedSince", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final BulkheadConfig config;
    private final String name;
    private final Ticker ticker;
    private final long maxWaitNanos;
    private final boolean fair;
    private final ReentrantLock lock;
    private final Condition slotFreed;
    private final LongAdder rejections = new LongAdder();
    private final EventListeners<BulkheadEvent> listeners = new EventListeners<>();
    /** Asynchronous callers waiting for a slot; they are counted in {@code waiters} too. */
    private final AsyncWaitQueue asyncWaiters;
    /** The asynchronous waiters' view of the slots: take one ignoring fairness, give one back. */
    private final AsyncWaitQueue.Permits slots = new AsyncWaitQueue.Permits() {
        @Override
        public boolean tryTake() {
            return tryEnter();
        }

        @Override
        public void giveBack() {
            leave();
            if (waiters != 0) {
                signalSync();
            }
        }

        @Override
        public void waiterLeft() {
            WAITERS.getAndAdd(Bulkhead.this, -1);
        }
    };

    /** The bound in force; changed by {@link #resize(int)}. */
    private volatile int limit;
    /** Calls inside. Updated by CAS (enter) and atomic add (leave). */
    private volatile int active;
    /**
     * Callers waiting for a slot: threads in {@link #acquire(long)} and asynchronous waiters; a leaving
     * call signals only when this is non-zero.
     */
    private volatile int waiters;
    /** Ticker reading of the first rejection of the current saturation episode, or NOT_SATURATED. */
    private volatile long saturatedSince = NOT_SATURATED;
    /** Whether this episode was already reported. */
    private volatile boolean warned;

    private Bulkhead(String name, BulkheadConfig config) {
        this.name = Validate.name("Bulkhead", name);
        this.config = Validate.notNull(Validate.describe("Bulkhead", name), "config", config);
        this.ticker = config.ticker();
        this.maxWaitNanos = config.maxWaitNanos();
        this.fair = config.fair();
        this.lock = new ReentrantLock(fair);
        this.slotFreed = lock.newCondition();
        this.limit = config.maxConcurrentCalls();
        this.asyncWaiters = new AsyncWaitQueue(config.scheduler(), config.asyncExecutor());
    }

    /**
     * A bulkhead with the given configuration.
     *
     * @param name the name, used in rejections, events, logs and metric tags; not blank
     * @param config the configuration, shareable between bulkheads
     * @return the bulkhead
     * @throws dev.levee.core.InvalidConfigException if the name is blank or the config null
     */
    public static Bulkhead of(String name, BulkheadConfig config) {
        return new Bulkhead(name, config);
    }

    /**
     * A bulkhead with the default configuration ({@link BulkheadConfig#defaults()}: 25 calls, fail fast).
     *
     * @param name the name
     * @return the bulkhead
     */
    public static Bulkhead ofDefaults(String name) {
        return new Bulkhead(name, BulkheadConfig.defaults());
    }

    /**
     * A fail-fast bulkhead with the default settings and {@code maxConcurrentCalls}.
     *
     * @param name the name
     * @param maxConcurrentCalls the bound, in [1, 1,000,000]
     * @return the bulkhead
     */
    public static Bulkhead of(String name, int maxConcurrentCalls) {
        return new Bulkhead(name, BulkheadConfig.builder().maxConcurrentCalls(maxConcurrentCalls).build());
    }

    /**
     * A registry creating one bulkhead per name from {@code defaultConfig}, or from a named
     * configuration added to the registry.
     *
     * @param defaultConfig the configuration of bulkheads created without a named configuration
     * @return the registry
     */
    public static PolicyRegistry<BulkheadConfig, Bulkhead> registry(BulkheadConfig defaultConfig) {
        return PolicyRegistry.create(defaultConfig, Bulkhead::new);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Ticker ticker() {
        return ticker;
    }

    /** @return the configuration this bulkhead was built from (its limit may since have been resized) */
    public BulkheadConfig config() {
        return config;
    }

    /**
     * {@link TimeNeed#NONE}, always: entering and leaving read no clock. The rare paths that need the
     * time (a wait, a rejection's event) read the ticker themselves when handed {@link Gate#NO_READING}.
     *
     * @return {@link TimeNeed#NONE}
     */
    @Override
    public TimeNeed timeNeed() {
        return TimeNeed.NONE;
    }

    /**
     * Enters if a slot is free; never waits, and reads no clock unless it refuses. In fair mode, refuses
     * while others wait.
     *
     * @return true if the call may start; then exactly one completion method must follow
     */
    @Override
    public boolean tryAcquire() {
        if ((!fair || waiters == 0) && tryEnter()) {
            return true;
        }
        onRejected(ticker.read());
        return false;
    }

    /**
     * Enters if a slot is free; never waits. In fair mode, refuses while others wait.
     *
     * @param nowNanos the current reading of {@link #ticker()}, or {@link Gate#NO_READING} (this gate needs
     *     none; it reads the ticker itself if it refuses)
     * @return true if the call may start; then exactly one completion method must follow
     */
    @Override
    public boolean tryAcquire(long nowNanos) {
        if ((!fair || waiters == 0) && tryEnter()) {
            return true;
        }
        onRejected(now(nowNanos));
        return false;
    }

    /** The reading the caller passed, or a fresh one if it passed {@link Gate#NO_READING}. */
    private long now(long nowNanos) {
        return nowNanos == NO_READING ? ticker.read() : nowNanos;
    }

    /**
     * Enters, waiting for a slot up to {@link BulkheadConfig#maxWait()} and never past the current
     * {@link Deadline}.
     *
     * @param nowNanos the current reading of {@link #ticker()}, or {@link Gate#NO_READING}
     * @throws BulkheadFullException if no slot was free in time, or if the thread was interrupted while
     *     waiting (its interrupt flag is then set again)
     */
    @Override
    public void acquire(long nowNanos) {
        if ((!fair || waiters == 0) && tryEnter()) {
            return;
        }
        acquireAfterFastPathFailed(now(nowNanos));
    }

    /** Waits if configured to, else refuses. */
    private void acquireAfterFastPathFailed(long nowNanos) {
        if (active >= RETIRED) {
            throw retired();
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
        awaitSlot(end);
    }

    /**
     * Runs the call in a slot. A semaphore bulkhead needs no latency, so unlike the generic gate
     * protocol this reads no clock when a slot is free: one CAS in, one decrement out.
     */
    @Override
    public <T, E extends Throwable> T execute(Chain next, CheckedSupplier<T, E> call) throws E {
        if (fair && waiters != 0 || !tryEnter()) {
            acquireAfterFastPathFailed(ticker.read());
        }
        try {
            return next.proceed(call);
        } finally {
            release();
        }
    }

    /**
     * Like {@link #execute(Chain, CheckedSupplier)}: the slot is held until the stage completes. With a
     * {@code maxWait}, a caller that finds no free slot never blocks: it waits asynchronously (see
     * {@link #acquireAsync(long)}) and its call starts on the configured {@code asyncExecutor} once a
     * slot is granted.
     */
    @Override
    public <T> CompletionStage<T> executeAsync(Chain next, Supplier<? extends CompletionStage<T>> call) {
        if (fair && waiters != 0 || !tryEnter()) {
            CompletionStage<Void> permit = acquireAsyncAfterFastPathFailed(ticker.read());
            CompletableFuture<T> out = new CompletableFuture<>();
            permit.whenComplete((ignored, refused) -> {
                if (refused != null) {
                    out.completeExceptionally(refused);
                    return;
                }
                runHolding(next, call).whenComplete((value, failure) -> {
                    if (failure != null) {
                        out.completeExceptionally(dev.levee.core.internal.Exceptions.unwrap(failure));
                    } else {
                        out.complete(value);
                    }
                });
            });
            return out;
        }
        return runHolding(next, call);
    }

    /** Runs the asynchronous call in the slot this caller holds; the slot is returned when it completes. */
    private <T> CompletionStage<T> runHolding(Chain next, Supplier<? extends CompletionStage<T>> call) {
        CompletionStage<T> stage;
        try {
            stage = next.proceedAsync(call);
        } catch (RuntimeException | Error e) {
            release();
            throw e;
        }
        return stage.whenComplete((result, failure) -> release());
    }

    /**
     * Acquires a slot for an asynchronous call without blocking: {@link Gate#granted()} if a slot is
     * free (in fair mode: and nobody waits); a failed stage if none is and {@code maxWait} is zero or the
     * current {@link Deadline} leaves no time; otherwise a stage that completes, on the configured
     * {@code asyncExecutor}, when a leaving call hands this caller its slot, or fails with
     * {@link BulkheadFullException} when the wait ends (scheduled on the configured {@code scheduler},
     * whose thread only hands the refusal to the executor). Asynchronous waiters are served in arrival
     * order among themselves.
     *
     * @param nowNanos the current reading of {@link #ticker()}, or {@link Gate#NO_READING}
     * @return the permit's stage
     */
    @Override
    public CompletionStage<Void> acquireAsync(long nowNanos) {
        if ((!fair || waiters == 0) && tryEnter()) {
            return Gate.granted();
        }
        return acquireAsyncAfterFastPathFailed(now(nowNanos));
    }

    private CompletionStage<Void> acquireAsyncAfterFastPathFailed(long nowNanos) {
        if (active >= RETIRED) {
            return CompletableFuture.failedFuture(retired());
        }
        long end = maxWaitNanos == 0 ? nowNanos : Waits.waitEnd(ticker, nowNanos, maxWaitNanos);
        if (end <= nowNanos) {
            onRejected(nowNanos);
            return CompletableFuture.failedFuture(rejection(nowNanos));
        }
        WAITERS.getAndAdd(this, 1);
        CompletableFuture<Void> permit = asyncWaiters.enqueue(end - nowNanos, slots, () -> {
            long now = ticker.read();
            onRejected(now);
            return active >= RETIRED ? retired() : rejection(now);
        });
        // Counted as a waiter until granted or refused (AsyncWaitQueue calls waiterLeft then).
        return permit;
    }

    /** One bounded CAS increment; the whole fast path. */
    private boolean tryEnter() {
        while (true) {
            int current = active;
            int bound = limit;
            if (current >= bound) {
                return false;
            }
            if (ACTIVE.compareAndSet(this, current, current + 1)) {
                // A concurrent resize() may have lowered the limit between the read and the CAS: read
                // it again, and give the slot back if this entry went over the new bound.
                int now = limit;
                if (current + 1 > now) {
                    ACTIVE.getAndAdd(this, -1);
                    if (waiters != 0) {
                        signalSync();
                    }
                    continue;
                }
                if (saturatedSince != NOT_SATURATED && current + 1 < now) {
                    endSaturation();
                }
                return true;
            }
        }
    }

    private void awaitSlot(long end) {
        try {
            lock.lockInterruptibly();
        } catch (InterruptedException e) {
            throw interrupted();
        }
        WAITERS.getAndAdd(this, 1);
        boolean entered = false;
        try {
            while (true) {
                if (tryEnter()) {
                    entered = true;
                    return;
                }
                if (active >= RETIRED) {
                    throw retired();
                }
                long now = ticker.read();
                long remaining = end - now;
                if (remaining <= 0) {
                    onRejected(now);
                    throw rejection(now);
                }
                try {
                    slotFreed.awaitNanos(Waits.parkNanos(ticker, remaining));
                } catch (InterruptedException e) {
                    throw interrupted();
                }
            }
        } finally {
            WAITERS.getAndAdd(this, -1);
            // A signal this thread consumed but did not use must go to the next waiter.
            if (!entered && waiters > 0 && active < limit) {
                slotFreed.signal();
            }
            lock.unlock();
        }
    }

    private BulkheadFullException interrupted() {
        Thread.currentThread().interrupt();
        long now = ticker.read();
        onRejected(now);
        return new BulkheadFullException(
                name, "Bulkhead '" + name + "': interrupted while waiting for a slot; interrupt flag restored", 0L);
    }

    /** Leaves: one bounded decrement, and a signal only if someone waits. */
    private void release() {
        leave();
        if (waiters != 0) {
            signalOne();
        }
    }

    /**
     * One CAS decrement that never goes below zero. A permit returned twice (or never taken) finds
     * {@code active == 0} and is refused with an exception; the count is never touched, so no other
     * caller can slip in above the bound (a decrement-then-undo would briefly make room for one).
     */
    private void leave() {
        while (true) {
            int current = active;
            if (current <= 0 || current >= RETIRED) {
                throw new IllegalStateException("Bulkhead '" + name + "': a permit was returned that was never "
                        + "acquired or was already returned (each acquire takes exactly one completion); the "
                        + "count of calls inside was left unchanged");
            }
            if (ACTIVE.compareAndSet(this, current, current - 1)) {
                return;
            }
        }
    }

    /** Wakes one waiting thread, then hands free slots to asynchronous waiters. */
    private void signalOne() {
        signalSync();
        if (asyncWaiters.size() != 0) {
            asyncWaiters.drain(slots);
        }
    }

    private void signalSync() {
        lock.lock();
        try {
            slotFreed.signal();
        } finally {
            lock.unlock();
        }
    }

    /**
     * For {@link KeyedBulkhead}: closes this bulkhead for good if nothing is inside or waiting, in one
     * CAS from 0, so a caller still holding a reference can never enter it after its key got a fresh
     * bulkhead. Such a caller is refused with {@link RetiredException} and looks the key up again.
     *
     * @return true if retired; false if busy (it must be kept until it drains)
     */
    boolean retire() {
        return waiters == 0 && ACTIVE.compareAndSet(this, 0, RETIRED);
    }

    /** @return whether {@link #retire()} succeeded */
    boolean isRetired() {
        return active >= RETIRED;
    }

    private RetiredException retired() {
        return new RetiredException(this);
    }

    /**
     * Refusal by a bulkhead that a {@link KeyedBulkhead} evicted and retired: the key's current
     * bulkhead must be looked up again. {@link KeyedBulkhead} does so itself.
     */
    static final class RetiredException extends BulkheadFullException {
        private static final long serialVersionUID = 1L;
        /** The retired bulkhead. */
        final transient Bulkhead bulkhead;

        RetiredException(Bulkhead bulkhead) {
            super(bulkhead.name, "Bulkhead '" + bulkhead.name + "' was evicted from its keyed bulkhead; "
                    + "look the key up again", 0L);
            this.bulkhead = bulkhead;
        }
    }

    @Override
    public RejectedException rejection(long nowNanos) {
        return new BulkheadFullException(name, "Bulkhead '" + name + "' is full: " + active + " of " + limit
                + " calls in flight" + (maxWaitNanos > 0 ? " and no slot freed in time" : ""), 0L);
    }

    @Override
    public void onSuccess(long latencyNanos) {
        release();
    }

    @Override
    public void onFailure(long latencyNanos, Throwable error) {
        release();
    }

    @Override
    public void onIgnored() {
        release();
    }

    @Override
    public void onResult(long latencyNanos, Object result) {
        release();
    }

    /** Rejecting path: count, track saturation, publish. May allocate. */
    private void onRejected(long now) {
        rejections.increment();
        long since = saturatedSince;
        if (since == NOT_SATURATED) {
            SATURATED_SINCE.compareAndSet(this, NOT_SATURATED, now);
        } else if (!warned && now - since >= config.saturationWarningNanos()) {
            warned = true;
            LOG.warn("Bulkhead '{}' has been saturated for {} ms: all {} slots busy and calls rejected",
                    name, TimeUnit.NANOSECONDS.toMillis(now - since), limit);
            if (!listeners.isEmpty()) {
                listeners.publish(new BulkheadEvent.Saturated(name, now, activeCount(), limit));
            }
        }
        if (LOG.isDebugEnabled()) {
            LOG.debug("Bulkhead '{}' rejected a call: {} of {} slots busy", name, active, limit);
        }
        if (!listeners.isEmpty()) {
            listeners.publish(new BulkheadEvent.Rejected(name, now, activeCount(), limit));
        }
    }

    private void endSaturation() {
        boolean wasWarned = warned;
        saturatedSince = NOT_SATURATED;
        warned = false;
        if (wasWarned) {
            LOG.info("Bulkhead '{}' is no longer saturated", name);
        }
    }

    /**
     * Changes the bound on concurrent calls at run time. Growing wakes waiters at once; shrinking lets
     * calls already inside finish and admits no new call until fewer than {@code newLimit} are inside.
     *
     * @param newLimit the new bound, in [1, 1,000,000]
     * @throws dev.levee.core.InvalidConfigException if out of bounds
     */
    public void resize(int newLimit) {
        Validate.inRange(Validate.describe("Bulkhead", name), "maxConcurrentCalls", newLimit, 1,
                BulkheadConfig.MAX_CONCURRENT_CALLS_LIMIT);
        // getAndSet, so of two concurrent resizes the one that raised the limit last still wakes waiters.
        int old = (int) LIMIT.getAndSet(this, newLimit);
        if (newLimit > old && waiters != 0) {
            lock.lock();
            try {
                slotFreed.signalAll();
            } finally {
                lock.unlock();
            }
        }
        if (newLimit > old && asyncWaiters.size() != 0) {
            asyncWaiters.drain(slots);
        }
        LOG.info("Bulkhead '{}' resized from {} to {} concurrent calls", name, old, newLimit);
        if (!listeners.isEmpty()) {
            listeners.publish(new BulkheadEvent.Resized(name, ticker.read(), old, newLimit, activeCount()));
        }
    }

    /** @return the bound on concurrent calls now in force */
    public int maxConcurrentCalls() {
        return limit;
    }

    /** @return the calls inside right now */
    public int activeCount() {
        int a = active;
        return a >= RETIRED ? 0 : a;
    }

    /** @return the threads waiting for a slot right now */
    public int waitingCount() {
        return waiters;
    }

    /** @return free slots right now: {@code max(0, limit - active)} */
    public int availablePermits() {
        return Math.max(0, limit - activeCount());
    }

    /** @return how many calls were refused since creation */
    public long rejectedCount() {
        return rejections.sum();
    }

    /** @return a snapshot of this bulkhead's figures */
    public BulkheadMetrics metrics() {
        return new BulkheadMetrics(limit, activeCount(), waiters, availablePermits(), rejections.sum());
    }

    /** @return whether the current episode has been rejecting longer than the saturation warning */
    public boolean isSaturationReported() {
        return warned;
    }

    /**
     * Registers a listener for this bulkhead's events; it runs on the thread that caused the event.
     *
     * @param listener the listener
     * @return closing it unregisters the listener
     */
    public Subscription onEvent(Consumer<? super BulkheadEvent> listener) {
        return listeners.subscribe(listener);
    }

    @Override
    public String toString() {
        return "Bulkhead[" + name + ", active=" + active + "/" + limit + ", waiting=" + waiters + "]";
    }
}

package dev.levee.loadshed;

import dev.levee.core.Deadline;
import dev.levee.core.Gate;
import dev.levee.core.Scheduler;
import dev.levee.core.internal.Validate;
import dev.levee.core.internal.Waits;
import dev.levee.loadshed.internal.CoDelController;
import dev.levee.loadshed.queue.CoDelQueueConfig;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * CoDel for request handlers that have no explicit queue: a wrapper around a gate that bounds
 * concurrency (a bulkhead, a concurrency limiter), in which callers that find no free permit wait,
 * and the time they wait is the queue delay CoDel controls (Facebook's queue-latency shedding, seed
 * 001 §3.6; the waiting wrapper after Netflix's {@code LifoBlockingLimiter}).
 *
 * <pre>{@code
 * Gate codel = CoDelGate.of("api", CoDelQueueConfig.defaults(), Duration.ofSeconds(1), bulkhead);
 * Pipeline.of(codel).execute(() -> handle(request));            // waits for a slot; shed with reason "codel"
 * Pipeline.of(codel).executeAsync(() -> handleAsync(request));  // the same queue, without blocking
 * }</pre>
 *
 * <p><b>Model.</b> A caller first asks the inner gate directly (when nobody waits). Otherwise it joins
 * the waiters (at most {@code maxSize}, else {@code queue_full}). When a permit comes back through
 * this gate, it is handed to a waiter: the oldest, or the newest while congested (adaptive LIFO), and
 * the oldest waiter's waiting time is fed to the same state machine as {@link
 * dev.levee.loadshed.queue.CoDelQueue} (seed 002: target 5 ms, interval 100 ms; count re-entry rule;
 * drops every {@code interval / √count}). A drop refuses the oldest waiter with reason {@code codel}.
 * A waiter gives up after {@code maxWait} ({@code queue_timeout}) and never waits past its
 * {@link Deadline} ({@code deadline}); an interrupted waiter keeps its flag and is refused.
 *
 * <p><b>Asynchronous callers</b> ({@link #acquireAsync(long)}, so {@code executeAsync} and
 * asynchronous pipelines) wait the same way without blocking: a caller that finds no permit joins the
 * same waiters, in the same order, under the same {@code maxSize} and CoDel state as the threads, and
 * gets a pending stage. It is completed on the configured {@code asyncExecutor} ({@link
 * CoDelQueueConfig#asyncExecutor()}), never on the releasing thread, the scheduler's thread or under
 * the gate's lock: normally when a permit is handed to it, exceptionally with {@code codel} when CoDel
 * drops it, with {@code queue_timeout} at {@code maxWait} or {@code deadline} at the {@link Deadline}
 * current when it asked (both measured by the configured {@code scheduler}). A caller that gives up
 * (cancels the stage, or fails it with {@code orTimeout}) leaves the queue at once; if a permit was
 * handed to it in the meantime, the permit goes back to the inner gate and on to the next waiter.
 *
 * <p><b>Guarantees.</b> Never holds more than the inner gate allows: every permit is the inner
 * gate's, taken by the caller or on its behalf at hand-off; every waiter, thread or stage, ends exactly
 * once (granted, dropped, timed out, or, for a stage, cancelled by its caller), decided under the
 * gate's lock; a permit handed to a stage nobody will complete is returned. Permits of the inner gate
 * must come back through this gate (its {@code onSuccess}/{@code onFailure}/{@code onIgnored});
 * waiters also re-check every {@code interval} in case the inner gate freed capacity by itself.
 *
 * <p><b>Knobs</b> (in {@link CoDelQueueConfig} and {@link #of}): {@code target} 5 ms, {@code interval}
 * 100 ms, {@code maxSize} 1000 waiters, {@code adaptiveLifo} on, {@code maxWait} (given, at most one
 * hour), {@code scheduler} {@link Scheduler#system()}, {@code asyncExecutor} the common fork-join pool.
 *
 * <p><b>Cost.</b> With nobody waiting and CoDel idle: the inner gate's cost plus a volatile read. A
 * wait takes a lock and one small node; an asynchronous wait also a stage and one scheduler task per
 * {@code interval} it waits.
 */
public final class CoDelGate extends BaseShedder {
    private static final int WAITING = 0;
    private static final int GRANTED = 1;
    private static final int DROPPED = 2;
    /** Left on its own: timed out, interrupted, or (a stage) given up by its caller. */
    private static final int LEFT = 3;

    private final Gate inner;
    private final CoDelQueueConfig config;
    private final CoDelController codel;
    private final boolean adaptiveLifo;
    private final int maxWaiters;
    private final long maxWaitNanos;
    private final long recheckNanos;
    private final Scheduler scheduler;
    private final Executor asyncExecutor;
    private final ReentrantLock lock = new ReentrantLock();
    private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();
    private volatile int waiting;
    private volatile boolean idle = true;

    /** A waiter: a parked thread, or (the subclass) an asynchronous caller's stage. Its state changes under the lock only. */
    private static class Waiter {
        /** The parked thread; null for an asynchronous waiter. */
        final @Nullable Thread thread;
        final long enqueuedAt;
        volatile int state = WAITING;

        Waiter(@Nullable Thread thread, long enqueuedAt) {
            this.thread = thread;
            this.enqueuedAt = enqueuedAt;
        }
    }

    /** An asynchronous caller in the queue: its stage, its end and the refusal it gets there. */
    private static final class AsyncWaiter extends Waiter {
        final CompletableFuture<Void> future = new CompletableFuture<>();
        /** {@code maxWait} or the deadline, whichever is sooner, on the gate's ticker. */
        final long end;
        final ShedDecision onExpiry;
        /** The pending expiry or re-check; guarded by the lock. */
        Scheduler.@Nullable Cancellable timer;

        AsyncWaiter(long enqueuedAt, long end, ShedDecision onExpiry) {
            super(null, enqueuedAt);
            this.end = end;
            this.onExpiry = onExpiry;
        }
    }

    private CoDelGate(String name, CoDelQueueConfig config, long maxWaitNanos, Gate inner) {
        super(name, inner.ticker(), 0L);
        this.inner = inner;
        this.config = config;
        this.codel = new CoDelController(config.target().toNanos(), config.interval().toNanos());
        this.adaptiveLifo = config.adaptiveLifo();
        this.maxWaiters = config.maxSize();
        this.maxWaitNanos = maxWaitNanos;
        this.recheckNanos = config.interval().toNanos();
        this.scheduler = config.scheduler();
        this.asyncExecutor = config.asyncExecutor();
    }

    /**
     * Wraps a gate.
     *
     * @param name the name, used in rejections, events and metric tags
     * @param config CoDel's target, interval, the bound on waiters ({@code maxSize}), adaptive LIFO,
     *     and the {@code scheduler} and {@code asyncExecutor} of asynchronous waits; its ticker is not
     *     used (the inner gate's is)
     * @param maxWait the longest a caller waits for a permit, in [0, 1 hour]
     * @param inner the gate whose permits are waited for
     * @return the gate
     */
    public static CoDelGate of(String name, CoDelQueueConfig config, Duration maxWait, Gate inner) {
        Validate.name("CoDelGate", name);
        String policy = Validate.describe("CoDelGate", name);
        Validate.notNull(policy, "config", config);
        Validate.nonNegative(policy, "maxWait", maxWait);
        Validate.check(maxWait.compareTo(Duration.ofHours(1)) <= 0, policy, "maxWait", "<= 1 hour", maxWait);
        Validate.notNull(policy, "inner", inner);
        return new CoDelGate(name, config, maxWait.toNanos(), inner);
    }

    /**
     * The state without taking a permit: {@code codel} while CoDel is dropping, {@code queue_full}
     * when {@code maxSize} callers wait, else {@code admitted}.
     */
    @Override
    public ShedDecision decide(int priority, long nowNanos) {
        if (!idle) {
            lock.lock();
            try {
                if (codel.dropping()) {
                    return ShedDecision.CODEL;
                }
            } finally {
                lock.unlock();
            }
        }
        return waiting >= maxWaiters ? ShedDecision.QUEUE_FULL : ShedDecision.ADMITTED;
    }

    @Override
    public boolean tryAcquire(long nowNanos) {
        if (waiting == 0 && inner.tryAcquire(nowNanos)) {
            granted(nowNanos, true);
            return true;
        }
        refuse(ShedDecision.CONCURRENCY_LIMIT, nowNanos);
        return false;
    }

    /** Counts a permit; a caller that did not wait is a zero-delay sample (resets CoDel when not idle). */
    private void granted(long nowNanos, boolean direct) {
        takePermit();
        countAdmitted();
        if (direct && !idle) {
            lock.lock();
            try {
                codel.onSample(nowNanos, 0L, waiters.size());
                idle = !codel.congested() && !codel.dropping();
            } finally {
                lock.unlock();
            }
        }
    }

    @Override
    public void acquire(long nowNanos) {
        if (waiting == 0 && inner.tryAcquire(nowNanos)) {
            granted(nowNanos, true);
            return;
        }
        ShedDecision outcome = await(nowNanos);
        if (outcome == ShedDecision.ADMITTED) {
            return;
        }
        refuse(outcome, ticker.read());
        throw rejection(nowNanos);
    }

    private ShedDecision await(long nowNanos) {
        Waiter w = new Waiter(Thread.currentThread(), nowNanos);
        if (!enqueue(w)) {
            return ShedDecision.QUEUE_FULL;
        }
        dispatch(); // a permit may have come back before we joined
        Deadline deadline = Deadline.currentOrNull();
        long end = nowNanos + maxWaitNanos;
        boolean interrupted = false;
        while (w.state == WAITING) {
            long now = ticker.read();
            long left = end - now;
            boolean byDeadline = false;
            if (deadline != null) {
                long d = deadline.remainingNanos();
                if (d < left) {
                    left = d;
                    byDeadline = true;
                }
            }
            if (left <= 0 || interrupted) {
                if (leave(w)) {
                    if (interrupted) {
                        Thread.currentThread().interrupt();
                        return ShedDecision.QUEUE_TIMEOUT;
                    }
                    return byDeadline ? ShedDecision.DEADLINE : ShedDecision.QUEUE_TIMEOUT;
                }
                break; // granted or dropped while we were giving up
            }
            LockSupport.parkNanos(this, Math.min(left, recheckNanos));
            if (Thread.interrupted()) {
                interrupted = true;
            }
            if (w.state == WAITING) {
                dispatch();
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return w.state == GRANTED ? ShedDecision.ADMITTED : ShedDecision.CODEL;
    }

    /** Adds a waiter at the tail; false if {@code maxSize} callers wait already. */
    private boolean enqueue(Waiter w) {
        lock.lock();
        try {
            if (waiters.size() >= maxWaiters) {
                return false;
            }
            waiters.addLast(w);
            waiting = waiters.size();
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Asks for a permit without blocking: {@link Gate#granted()} when the inner gate has one and nobody
     * waits; otherwise a stage that waits in the same queue as the threads (see the class
     * documentation), or a failed stage at once when {@code maxSize} callers wait ({@code queue_full}).
     *
     * @param nowNanos the current reading of {@link #ticker()}
     * @return the permit's stage; once it has waited, completed on the configured {@code asyncExecutor}
     *     (a wait that ends before it starts, {@code maxWait} 0 or a deadline already passed, is refused
     *     on the calling thread)
     */
    @Override
    public CompletionStage<Void> acquireAsync(long nowNanos) {
        if (waiting == 0 && inner.tryAcquire(nowNanos)) {
            granted(nowNanos, true);
            return Gate.granted();
        }
        long end = Waits.waitEnd(ticker, nowNanos, maxWaitNanos);
        ShedDecision onExpiry = end - nowNanos < maxWaitNanos ? ShedDecision.DEADLINE : ShedDecision.QUEUE_TIMEOUT;
        AsyncWaiter w = new AsyncWaiter(nowNanos, end, onExpiry);
        CompletableFuture<Void> future = w.future;
        if (!enqueue(w)) {
            refuse(ShedDecision.QUEUE_FULL, nowNanos);
            return CompletableFuture.failedFuture(refusalOf(ShedDecision.QUEUE_FULL));
        }
        // A caller that gives up (cancel, orTimeout) leaves at once; after our own completion a no-op.
        future.whenComplete((ignored, failure) -> {
            if (failure != null) {
                leave(w);
            }
        });
        dispatch(); // a permit may have come back before we joined
        if (w.state == WAITING) {
            arm(w, nowNanos);
        }
        return future;
    }

    /**
     * Schedules an asynchronous waiter's next look: its end, or the re-check an {@code interval} away
     * if sooner. Expires it at once if its end has come.
     */
    private void arm(AsyncWaiter w, long nowNanos) {
        long left = w.end - nowNanos;
        if (left <= 0) {
            expire(w);
            return;
        }
        Scheduler.Cancellable timer;
        try {
            timer = scheduler.schedule(() -> {
                if (w.state == WAITING && !handOff(() -> look(w))) {
                    look(w); // the executor is gone: refusing here beats a waiter that never ends
                }
            }, Math.min(left, recheckNanos));
        } catch (RejectedExecutionException e) {
            expire(w); // the scheduler is gone: nothing would end this wait
            return;
        }
        boolean stale;
        lock.lock();
        try {
            stale = w.state != WAITING;
            if (!stale) {
                w.timer = timer;
            }
        } finally {
            lock.unlock();
        }
        if (stale) {
            timer.cancel();
        }
    }

    /** An asynchronous waiter's timer fired (on the executor): refuse it at its end, else re-check the inner gate. */
    private void look(AsyncWaiter w) {
        if (w.state != WAITING) {
            return;
        }
        long now = ticker.read();
        if (w.end - now <= 0) {
            expire(w);
            return;
        }
        dispatch();
        if (w.state == WAITING) {
            arm(w, now);
        }
    }

    /** Refuses an asynchronous waiter whose wait ended, unless another outcome came first. */
    private void expire(AsyncWaiter w) {
        if (leave(w)) {
            refuse(w.onExpiry, ticker.read());
            w.future.completeExceptionally(refusalOf(w.onExpiry));
        }
    }

    /** Removes a waiter that gives up; false if it was already granted or dropped (or had left). */
    private boolean leave(Waiter w) {
        lock.lock();
        try {
            if (w.state != WAITING) {
                return false;
            }
            waiters.remove(w);
            waiting = waiters.size();
            w.state = LEFT;
            if (w instanceof AsyncWaiter) {
                disarm((AsyncWaiter) w);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Under the lock: cancels an asynchronous waiter's pending timer. */
    private static void disarm(AsyncWaiter w) {
        Scheduler.Cancellable timer = w.timer;
        if (timer != null) {
            w.timer = null;
            timer.cancel();
        }
    }

    /**
     * Hands free permits of the inner gate to waiters, feeding CoDel the oldest waiter's delay. Threads
     * are woken under the lock; the stages of asynchronous waiters are completed after it, on the
     * executor.
     */
    private void dispatch() {
        if (waiting == 0) {
            return;
        }
        List<AsyncWaiter> resumed = null;
        lock.lock();
        try {
            while (!waiters.isEmpty()) {
                long now = ticker.read();
                if (!inner.tryAcquire(now)) {
                    break;
                }
                long headDelay = now - waiters.peekFirst().enqueuedAt;
                boolean lifo = adaptiveLifo && codel.congested();
                Waiter chosen = lifo ? waiters.pollLast() : waiters.pollFirst();
                int drops = codel.onSample(now, headDelay, waiters.size());
                idle = !codel.congested() && !codel.dropping();
                for (int i = 0; i < drops && !waiters.isEmpty(); i++) {
                    resumed = end(waiters.pollFirst(), DROPPED, resumed);
                }
                waiting = waiters.size();
                takePermit();
                countAdmitted();
                resumed = end(chosen, GRANTED, resumed);
            }
        } finally {
            lock.unlock();
        }
        if (resumed != null) {
            for (AsyncWaiter w : resumed) {
                resume(w);
            }
        }
    }

    /**
     * Under the lock: ends a waiter taken off the queue. A thread is woken here; an asynchronous waiter
     * is added to {@code resumed}, to be completed once the lock is released.
     */
    private static @Nullable List<AsyncWaiter> end(Waiter w, int outcome, @Nullable List<AsyncWaiter> resumed) {
        w.state = outcome;
        if (!(w instanceof AsyncWaiter)) {
            LockSupport.unpark(w.thread);
            return resumed;
        }
        AsyncWaiter async = (AsyncWaiter) w;
        disarm(async);
        List<AsyncWaiter> list = resumed != null ? resumed : new ArrayList<>(2);
        list.add(async);
        return list;
    }

    /** Completes an asynchronous waiter that was granted or dropped, on the executor. */
    private void resume(AsyncWaiter w) {
        if (handOff(() -> complete(w))) {
            return;
        }
        if (w.state == GRANTED) {
            onIgnored(); // nobody will run with this permit: back to the inner gate, on to the next waiter
            w.future.completeExceptionally(new RejectedExecutionException(
                    "the executor that completes asynchronous waits rejected the grant"));
        } else {
            complete(w); // a refusal here beats a waiter that never ends
        }
    }

    private void complete(AsyncWaiter w) {
        if (w.state == GRANTED) {
            if (!w.future.complete(null)) {
                onIgnored(); // its caller gave up meanwhile: the permit is nobody's, back it goes
            }
        } else {
            refuse(ShedDecision.CODEL, ticker.read());
            w.future.completeExceptionally(refusalOf(ShedDecision.CODEL));
        }
    }

    private boolean handOff(Runnable completion) {
        try {
            asyncExecutor.execute(completion);
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    /*
     * A completion returns this gate's own permit first: a second completion (or one without an
     * acquire) is refused there, before the inner gate is touched, so the inner gate's count cannot be
     * lowered by a misuse this gate refuses. Then the inner gate's permit goes back, and the waiters are
     * served even if the inner completion throws (a breaker's classifier, say).
     */

    @Override
    public void onSuccess(long latencyNanos) {
        super.release();
        try {
            inner.onSuccess(latencyNanos);
        } finally {
            dispatch();
        }
    }

    @Override
    public void onFailure(long latencyNanos, Throwable error) {
        super.release();
        try {
            inner.onFailure(latencyNanos, error);
        } finally {
            dispatch();
        }
    }

    @Override
    public void onIgnored() {
        super.release();
        try {
            inner.onIgnored();
        } finally {
            dispatch();
        }
    }

    @Override
    public void onResult(long latencyNanos, Object result) {
        super.release();
        try {
            inner.onResult(latencyNanos, result);
        } finally {
            dispatch();
        }
    }

    @Override
    public void onResultAt(long endNanos, long latencyNanos, Object result) {
        super.release();
        try {
            inner.onResultAt(endNanos, latencyNanos, result);
        } finally {
            dispatch();
        }
    }

    @Override
    public void onFailureAt(long endNanos, long latencyNanos, Throwable error) {
        super.release();
        try {
            inner.onFailureAt(endNanos, latencyNanos, error);
        } finally {
            dispatch();
        }
    }

    @Override
    public void onIgnoredAt(long startNanos) {
        super.release();
        try {
            inner.onIgnoredAt(startNanos);
        } finally {
            dispatch();
        }
    }

    /** @return callers waiting now */
    public int waitingCount() {
        return waiting;
    }

    /** @return whether CoDel is dropping */
    public boolean isDropping() {
        lock.lock();
        try {
            return codel.dropping();
        } finally {
            lock.unlock();
        }
    }

    /** @return the CoDel configuration */
    public CoDelQueueConfig config() {
        return config;
    }

    /** @return the wrapped gate */
    public Gate inner() {
        return inner;
    }

    @Override
    public String toString() {
        return "CoDelGate[" + name + ", waiting=" + waiting + ", inFlight=" + inFlight() + "]";
    }
}

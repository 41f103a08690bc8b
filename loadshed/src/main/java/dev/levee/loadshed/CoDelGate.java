package dev.levee.loadshed;

import dev.levee.core.Deadline;
import dev.levee.core.Gate;
import dev.levee.core.internal.Validate;
import dev.levee.loadshed.internal.CoDelController;
import dev.levee.loadshed.queue.CoDelQueueConfig;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * CoDel for request handlers that have no explicit queue: a wrapper around a gate that bounds
 * concurrency (a bulkhead, a concurrency limiter), in which callers that find no free permit wait,
 * and the time they wait is the queue delay CoDel controls (Facebook's queue-latency shedding, seed
 * 001 §3.6; the waiting wrapper after Netflix's {@code LifoBlockingLimiter}).
 *
 * <pre>{@code
 * Gate codel = CoDelGate.of("api", CoDelQueueConfig.defaults(), Duration.ofSeconds(1), bulkhead);
 * Pipeline.of(codel).execute(() -> handle(request));   // waits for a slot; shed with reason "codel"
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
 * <p><b>Guarantees.</b> Never holds more than the inner gate allows: every permit is the inner
 * gate's, taken by the caller or on its behalf at hand-off; every waiter ends exactly once (granted,
 * dropped, timed out). Permits of the inner gate must come back through this gate (its
 * {@code onSuccess}/{@code onFailure}/{@code onIgnored}); waiters also re-check every
 * {@code interval} in case the inner gate freed capacity by itself.
 *
 * <p><b>Asynchronous callers</b> do not wait: {@link #acquireAsync(long)} is the {@link Gate} default,
 * which grants if {@link #tryAcquire(long)} does and refuses otherwise (never blocking the caller).
 *
 * <p><b>Cost.</b> With nobody waiting and CoDel idle: the inner gate's cost plus a volatile read. A
 * wait takes a lock and one small node.
 */
public final class CoDelGate extends BaseShedder {
    private static final int WAITING = 0;
    private static final int GRANTED = 1;
    private static final int DROPPED = 2;

    private final Gate inner;
    private final CoDelQueueConfig config;
    private final CoDelController codel;
    private final boolean adaptiveLifo;
    private final int maxWaiters;
    private final long maxWaitNanos;
    private final long recheckNanos;
    private final ReentrantLock lock = new ReentrantLock();
    private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();
    private volatile int waiting;
    private volatile boolean idle = true;

    private static final class Waiter {
        final Thread thread = Thread.currentThread();
        final long enqueuedAt;
        volatile int state = WAITING;

        Waiter(long enqueuedAt) {
            this.enqueuedAt = enqueuedAt;
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
    }

    /**
     * Wraps a gate.
     *
     * @param name the name, used in rejections, events and metric tags
     * @param config CoDel's target, interval, the bound on waiters ({@code maxSize}) and adaptive LIFO;
     *     its ticker is not used (the inner gate's is)
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
        Waiter w = new Waiter(nowNanos);
        lock.lock();
        try {
            if (waiters.size() >= maxWaiters) {
                return ShedDecision.QUEUE_FULL;
            }
            waiters.addLast(w);
            waiting = waiters.size();
        } finally {
            lock.unlock();
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

    /** Removes a waiter that gives up; false if it was already granted or dropped. */
    private boolean leave(Waiter w) {
        lock.lock();
        try {
            if (w.state != WAITING) {
                return false;
            }
            waiters.remove(w);
            waiting = waiters.size();
            w.state = DROPPED;
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Hands free permits of the inner gate to waiters, feeding CoDel the oldest waiter's delay. */
    private void dispatch() {
        if (waiting == 0) {
            return;
        }
        lock.lock();
        try {
            while (!waiters.isEmpty()) {
                long now = ticker.read();
                if (!inner.tryAcquire(now)) {
                    return;
                }
                long headDelay = now - waiters.peekFirst().enqueuedAt;
                boolean lifo = adaptiveLifo && codel.congested();
                Waiter chosen = lifo ? waiters.pollLast() : waiters.pollFirst();
                int drops = codel.onSample(now, headDelay, waiters.size());
                idle = !codel.congested() && !codel.dropping();
                for (int i = 0; i < drops && !waiters.isEmpty(); i++) {
                    Waiter d = waiters.pollFirst();
                    d.state = DROPPED;
                    LockSupport.unpark(d.thread);
                }
                waiting = waiters.size();
                takePermit();
                countAdmitted();
                chosen.state = GRANTED;
                LockSupport.unpark(chosen.thread);
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    void release() {
        super.release();
        dispatch();
    }

    @Override
    public void onSuccess(long latencyNanos) {
        inner.onSuccess(latencyNanos);
        release();
    }

    @Override
    public void onFailure(long latencyNanos, Throwable error) {
        inner.onFailure(latencyNanos, error);
        release();
    }

    @Override
    public void onIgnored() {
        inner.onIgnored();
        release();
    }

    @Override
    public void onResult(long latencyNanos, Object result) {
        inner.onResult(latencyNanos, result);
        release();
    }

    @Override
    public void onResultAt(long endNanos, long latencyNanos, Object result) {
        inner.onResultAt(endNanos, latencyNanos, result);
        release();
    }

    @Override
    public void onFailureAt(long endNanos, long latencyNanos, Throwable error) {
        inner.onFailureAt(endNanos, latencyNanos, error);
        release();
    }

    @Override
    public void onIgnoredAt(long startNanos) {
        inner.onIgnoredAt(startNanos);
        release();
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

package dev.levee.timeout.internal;

import dev.levee.core.Scheduler;
import dev.levee.core.Ticker;
import dev.levee.core.internal.ThreadStripe;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A hashed timer wheel: many pending timers, each armed and cancelled in O(1), fired by one task that
 * runs on a {@link Scheduler} once per tick while any timer is pending.
 *
 * <p><b>Model.</b> Time is cut into ticks of {@code resolution} nanoseconds; tick {@code k} covers
 * {@code [k·resolution, (k+1)·resolution)} on the ticker. A timer with deadline {@code d} belongs to
 * tick {@code ceil(d / resolution)} and sits in bucket {@code tick mod buckets}, a doubly linked list;
 * a timer more than one revolution away stays in its bucket and is passed over until its tick comes.
 * At each run the tick task reads the ticker once, {@code now}, and sweeps every tick up to
 * {@code floor(now / resolution)} that it has not swept yet (each bucket at most once per run).
 *
 * <p><b>Guarantees.</b>
 * <ul>
 *   <li>Never early: a timer expires only in a run whose {@code now >= deadline} (its tick is at most
 *       {@code floor(now / resolution)}, and {@code tick · resolution >= deadline}).</li>
 *   <li>At most once, and never after a successful {@link #cancel(Timer)}: expiry and cancellation
 *       race on one CAS of the timer's state, and exactly one of them wins.</li>
 *   <li>Late by at most one resolution plus the scheduler's delay in running the tick task (and
 *       the time the task takes), while the scheduler keeps up.</li>
 *   <li>{@link #schedule} and {@link #cancel} are O(1) and lock-free: one CAS on the calling thread's
 *       stripe of the armed stack (and,
 *       for a timer the tick task has already filed, one more on the cancelled stack). They never touch
 *       a bucket: only the tick task does, so buckets need no lock. A cancelled timer leaves its bucket
 *       at the next tick, not at its deadline, so cancelled timers do not pile up.</li>
 *   <li>Idle costs nothing: the tick task stops after a tick in which no timer was pending and none
 *       arrived, and the next {@link #schedule} starts it again.</li>
 * </ul>
 *
 * <p><b>Cost.</b> No allocation per timer beyond the caller's {@link Timer} (the wheel allocates
 * nothing per timer; the scheduler may allocate per tick). Memory: one reference per bucket.
 */
public final class TimerWheel {
    /*
     * Implementation notes.
     *
     * Ownership: the buckets, Timer.prev/next, Timer.tick after filing, lastTick and pending belong
     * to the tick task. Ticks run one at a time: a run schedules the next run as its last action, or
     * stops, and a new chain starts only through the CAS on `running`; every hand-over goes through a
     * volatile write/read (running, or the scheduler's own queue), so each run sees the previous one's
     * writes.
     *
     * Arming pushes the timer on its thread's stripe of `armed` (Treiber stacks through Timer.link) and
     * then reads `running`; stopping writes `running = false` and then reads every stripe. Both are
     * volatile, so one of the two sides sees the other: an armed timer is never stranded on a stopped
     * wheel. The tick task drains every stripe; timers of one stripe are filed in stack order, and the
     * order of filing does not matter (a bucket is a set).
     *
     * Timer.state packs the outcome (ARMED, CANCELLED, EXPIRED) in its low two bits and three
     * flags: FILED (the tick task put it in a bucket), DONE (the expiry callback returned) and MARK
     * (a subclass's own flag, set from its expiry callback). A canceller that wins
     * ARMED -> CANCELLED on a FILED timer pushes it on `cancelled`, reusing Timer.link (the tick
     * task read it when it drained `armed`, before filing). A canceller that saw no FILED flag pushes
     * nothing: the tick task sets FILED with one atomic OR and files the timer only if the value it
     * replaced was still ARMED, so a timer cancelled before filing is dropped at once. Either way a
     * cancelled timer is out of its bucket by the end of the next tick. A canceller that saw no FILED flag
     * also tries to pop its timer off its own thread's stripe, by one CAS that succeeds only while the
     * timer is that stack's head: a timer is pushed once and never again, so a head equal to it means
     * the tick task has not taken that stack since, and the timer's link is still the entry below it.
     */
    private static final Logger LOG = LoggerFactory.getLogger(TimerWheel.class);
    /** Default tick: 1 ms. */
    public static final long DEFAULT_RESOLUTION_NANOS = 1_000_000L;
    /** Default buckets: 8192, one revolution = 8.2 s at 1 ms, so a 5 s timeout is visited once. */
    public static final int DEFAULT_BUCKETS = 8192;

    private static final int OUTCOME = 3;
    private static final int ARMED = 0;
    private static final int CANCELLED = 1;
    private static final int EXPIRED = 2;
    private static final int FILED = 4;
    private static final int DONE = 8;
    private static final int MARK = 16;
    private static final VarHandle STATE;
    /**
     * Armed stacks: a power of two of at least eight per processor, at most 64. A thread's stripe is
     * the low bits of its id ({@code ThreadStripe}), so up to 64 threads with consecutive ids (a pool's
     * workers) never share one.
     */
    private static final int STRIPES = Math.min(64, Integer.highestOneBit(Math.max(1, Runtime.getRuntime().availableProcessors()) * 8));
    /** Slots between two stripes' heads: 128 bytes of references, so no two heads share a cache line. */
    private static final int STRIPE_SPACING = 32;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(Timer.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Ticker ticker;
    private final Scheduler scheduler;
    private final long resolution;
    private final int mask;
    private final @Nullable Timer[] buckets;
    /**
     * The armed stacks, one per stripe, each alone on its cache line ({@link #STRIPE_SPACING} slots
     * apart, the first one slot group past the array's header, which every access reads for its bounds
     * check): threads arming at once push on different stacks instead of fighting over one head.
     */
    private final AtomicReferenceArray<@Nullable Timer> armed = new AtomicReferenceArray<>((STRIPES + 1) * STRIPE_SPACING);
    private final AtomicReference<@Nullable Timer> cancelled = new AtomicReference<>();
    private final AtomicBoolean running = new AtomicBoolean();
    private final Runnable tickTask = this::tick;
    /** The last tick swept (tick task only). */
    private long lastTick;
    /** Timers filed in buckets (tick task only; read by tests between runs). */
    private long pending;
    /** Timer records the tick task looked at in its runs (tick task only): a measure of its work. */
    private long visited;

    /**
     * A wheel with a 1 ms resolution and 8192 buckets.
     *
     * @param ticker the time source deadlines are read on
     * @param scheduler runs the tick task
     */
    public TimerWheel(Ticker ticker, Scheduler scheduler) {
        this(ticker, scheduler, DEFAULT_RESOLUTION_NANOS, DEFAULT_BUCKETS);
    }

    /**
     * @param ticker the time source deadlines are read on
     * @param scheduler runs the tick task
     * @param resolutionNanos the tick, &gt; 0
     * @param buckets the number of buckets, a power of two
     */
    public TimerWheel(Ticker ticker, Scheduler scheduler, long resolutionNanos, int buckets) {
        if (resolutionNanos <= 0 || buckets <= 0 || Integer.bitCount(buckets) != 1) {
            throw new IllegalArgumentException("TimerWheel: resolution must be > 0 and buckets a power of two, but were "
                    + resolutionNanos + " ns and " + buckets);
        }
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.resolution = resolutionNanos;
        this.mask = buckets - 1;
        this.buckets = new Timer[buckets];
        this.lastTick = Math.floorDiv(ticker.read(), resolutionNanos);
    }

    /** @return the ticker deadlines are read on */
    public Ticker ticker() {
        return ticker;
    }

    /** @return the tick in nanoseconds */
    public long resolutionNanos() {
        return resolution;
    }

    /**
     * Arms {@code timer} to expire at {@code deadlineNanos} on the wheel's ticker. O(1), lock-free.
     *
     * @param timer a timer never armed before
     * @param deadlineNanos the earliest time it may expire
     */
    public void schedule(Timer timer, long deadlineNanos) {
        // ceil(deadline / resolution), without overflow at Long.MAX_VALUE.
        timer.tick = -Math.floorDiv(-deadlineNanos, resolution);
        int stripe = stripeOfCurrentThread();
        while (true) {
            Timer head = armed.get(stripe);
            timer.link = head;
            if (armed.compareAndSet(stripe, head, timer)) {
                break;
            }
        }
        if (!running.get() && running.compareAndSet(false, true)) {
            scheduler.schedule(tickTask, resolution);
        }
    }

    /**
     * Cancels {@code timer} if it has not expired. O(1), lock-free.
     *
     * @param timer an armed timer
     * @return true if the timer will never expire; false if it expired (or is expiring) already
     */
    public boolean cancel(Timer timer) {
        while (true) {
            int state = timer.state;
            if ((state & OUTCOME) != ARMED) {
                return false;
            }
            if (STATE.compareAndSet(timer, state, state | CANCELLED)) {
                if ((state & FILED) != 0) {
                    while (true) {
                        Timer head = cancelled.get();
                        timer.link = head;
                        if (cancelled.compareAndSet(head, timer)) {
                            break;
                        }
                    }
                } else {
                    // Not filed yet: if it is still the top of this thread's armed stack (a call that ended
                    // before anything else was armed there), take it off, so the tick task never reads it
                    // and it is garbage at once. Otherwise the tick task drops it when it drains the stack.
                    int stripe = stripeOfCurrentThread();
                    armed.compareAndSet(stripe, timer, timer.link);
                }
                return true;
            }
        }
    }

    /**
     * Timers in buckets, as of the last tick: cancelled ones leave at the next tick. For tests and
     * metrics; read it between ticks (on manual time, on the thread that advances the scheduler).
     *
     * @return the count
     */
    public long pending() {
        return pending;
    }

    /**
     * Timer records the tick task has looked at since the wheel was made (filing, sweeping, removing),
     * for tests that check the work stays proportional to the timers, not to the time or the buckets.
     *
     * @return the count
     */
    public long visited() {
        return visited;
    }

    /** One run of the tick task: file new timers, sweep due ticks, drop cancelled timers, go on or stop. */
    private void tick() {
        long now = ticker.read();
        long target = Math.floorDiv(now, resolution);
        if (pending == 0 && target - 1 > lastTick) {
            lastTick = target - 1; // an empty wheel has nothing to sweep in between
        }
        boolean arrived = false;
        for (int i = 0; i < STRIPES; i++) {
            Timer head = armed.getAndSet(STRIPE_SPACING * (i + 1), null);
            arrived |= head != null;
            fileArmed(head);
        }
        if (target > lastTick) {
            if (target - lastTick > mask) {
                for (int i = 0; i <= mask; i++) {
                    sweep(i, target);
                }
            } else {
                for (long t = lastTick + 1; t <= target; t++) {
                    sweep((int) (t & mask), t);
                }
            }
            lastTick = target;
        }
        for (Timer c = cancelled.getAndSet(null); c != null; ) {
            Timer next = c.link;
            c.link = null;
            visited++;
            remove(c);
            c = next;
        }
        if (pending > 0 || arrived) {
            // Timers arrived in this tick even if all were already cancelled: more are likely to follow,
            // so keep ticking rather than stop and have the next arming thread restart the task. The
            // wheel stops after one tick in which nothing arrived and nothing is pending.
            scheduler.schedule(tickTask, (target + 1) * resolution - now);
            return;
        }
        running.set(false);
        if (anyArmed() && running.compareAndSet(false, true)) {
            scheduler.schedule(tickTask, resolution);
        }
    }

    private boolean anyArmed() {
        for (int i = 0; i < STRIPES; i++) {
            if (armed.get(STRIPE_SPACING * (i + 1)) != null) {
                return true;
            }
        }
        return false;
    }

    /** The index of the calling thread's armed stack (a thread keeps its stripe for life). */
    private static int stripeOfCurrentThread() {
        return STRIPE_SPACING * (1 + ThreadStripe.of(STRIPES - 1));
    }

    private void fileArmed(@Nullable Timer head) {
        for (Timer t = head; t != null; ) {
            Timer next = t.link;
            visited++;
            if ((t.state & OUTCOME) != ARMED) {
                // Cancelled before it was filed (most timers of calls that end in time): its canceller saw
                // no FILED flag and pushed nothing. Drop it with a read, not the atomic OR below, so the
                // timer's line, still in the canceller's cache, is not taken over.
                t = next;
                continue;
            }
            t.link = null;
            int state = (int) STATE.getAndBitwiseOr(t, FILED);
            if ((state & OUTCOME) == ARMED) {
                // Never in a tick already swept: at the latest the next one.
                t.tick = Math.max(t.tick, lastTick + 1);
                int bucket = (int) (t.tick & mask);
                Timer first = buckets[bucket];
                t.prev = null;
                t.next = first;
                if (first != null) {
                    first.prev = t;
                }
                buckets[bucket] = t;
                pending++;
            }
            // Cancelled before it was filed: its canceller saw no FILED flag and pushed nothing; drop it.
            t = next;
        }
    }

    private void sweep(int bucket, long tick) {
        for (Timer t = buckets[bucket]; t != null; ) {
            Timer next = t.next;
            visited++;
            int state = t.state;
            if ((state & OUTCOME) == CANCELLED) {
                remove(t);
            } else if (t.tick <= tick) {
                remove(t);
                if (STATE.compareAndSet(t, state, (state & ~OUTCOME) | EXPIRED)) {
                    expire(t);
                }
            }
            t = next;
        }
    }

    private static void expire(Timer t) {
        try {
            t.expire();
        } catch (RuntimeException e) {
            LOG.warn("TimerWheel: a timer's expiry threw; the wheel goes on", e);
        } finally {
            STATE.getAndBitwiseOr(t, DONE);
        }
    }

    /** Takes {@code t} out of its bucket if it is still in one. */
    private void remove(Timer t) {
        if (t.prev == t) {
            return; // already removed
        }
        Timer prev = t.prev;
        Timer next = t.next;
        if (prev == null) {
            buckets[(int) (t.tick & mask)] = next;
        } else {
            prev.next = next;
        }
        if (next != null) {
            next.prev = prev;
        }
        t.prev = t;
        t.next = null;
        pending--;
    }

    /**
     * A pending timer, armed once with {@link #schedule}. Subclasses say what happens at expiry; a
     * timer is 40 bytes with one reference field of the subclass's own.
     */
    public abstract static class Timer {
        /** Outcome bits and the FILED/DONE flags (see the wheel's notes); CAS through {@code STATE}. */
        volatile int state;
        /** The tick the timer belongs to: set before arming, raised by the tick task when filed. */
        long tick;
        @Nullable Timer prev;
        @Nullable Timer next;
        /** The next timer on the armed stack, then on the cancelled stack. */
        @Nullable Timer link;

        /** Creates an unarmed timer. */
        protected Timer() {}

        /**
         * Runs on the scheduler's thread when the timer expires, at most once. Must be short and not
         * throw; the wheel logs and goes on if it does.
         */
        protected abstract void expire();

        /** Sets this timer's one free flag, for a subclass to record what its expiry did. */
        protected final void mark() {
            STATE.getAndBitwiseOr(this, MARK);
        }

        /** @return whether {@link #mark()} was called */
        protected final boolean marked() {
            return (state & MARK) != 0;
        }

        /** @return true once {@link #expire()} has returned */
        public final boolean expired() {
            return (state & DONE) != 0;
        }

        /**
         * Waits until {@link #expire()} has returned; call only after a failed cancel. The wait is the
         * few instructions of the expiry, so it spins, and yields the processor if the tick task's
         * thread was descheduled in between.
         */
        public final void awaitExpired() {
            for (int spins = 0; (state & DONE) == 0; spins++) {
                if (spins < 100) {
                    Thread.onSpinWait();
                } else {
                    Thread.yield();
                }
            }
        }
    }
}

package dev.levee.jcstress;

import dev.levee.core.Scheduler;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A scheduler that holds at most one task and runs it only when a test says so ({@link #runNext()}),
 * on the calling thread: a test's actor plays "the scheduler's thread". A second task scheduled while
 * one is still pending is recorded in {@link #overlapped} (the code under test promised one chain).
 * A task's handle cancels it only while it is pending, exactly once, as a real scheduler's does.
 */
final class OneSlotScheduler implements Scheduler {
    private static final int PENDING = 0;
    private static final int CANCELLED = 1;
    private static final int RAN = 2;

    private final AtomicReference<Task> slot = new AtomicReference<>();
    /** Set if a task was scheduled while another was still pending. */
    volatile boolean overlapped;

    private static final class Task implements Cancellable {
        final Runnable body;
        final AtomicInteger state = new AtomicInteger(PENDING);

        Task(Runnable body) {
            this.body = body;
        }

        @Override
        public boolean cancel() {
            return state.compareAndSet(PENDING, CANCELLED);
        }
    }

    @Override
    public Cancellable schedule(Runnable task, long delayNanos) {
        Task t = new Task(task);
        Task previous = slot.getAndSet(t);
        if (previous != null && previous.state.get() == PENDING) {
            overlapped = true;
        }
        return t;
    }

    /**
     * Runs the pending task, if any and not cancelled, on this thread.
     *
     * @return whether a task ran
     */
    boolean runNext() {
        Task t = slot.getAndSet(null);
        if (t == null || !t.state.compareAndSet(PENDING, RAN)) {
            return false;
        }
        t.body.run();
        return true;
    }

    /** Runs tasks until none is pending (at most {@code max}); returns how many ran. */
    int drain(int max) {
        int ran = 0;
        while (ran < max && runNext()) {
            ran++;
        }
        return ran;
    }
}

package dev.levee.core;

import java.time.Duration;
import java.util.PriorityQueue;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * A {@link Scheduler} for tests: tasks run on the thread that calls {@link #advance}, in due-time
 * order, when the {@link ManualTicker} it owns passes their due time. Nothing runs in the background.
 *
 * <pre>{@code
 * ManualTicker ticker = new ManualTicker();
 * ManualScheduler scheduler = new ManualScheduler(ticker);
 * // ... a policy configured with ticker and scheduler schedules a 100 ms backoff ...
 * scheduler.advance(Duration.ofMillis(100)); // the backoff task runs here
 * }</pre>
 *
 * <p>Thread-safe: tasks may be scheduled from any thread, including from a running task (such a task
 * runs in the same {@code advance} call if it is due by its end).
 */
public final class ManualScheduler implements Scheduler {
    private final ManualTicker ticker;
    private final ReentrantLock lock = new ReentrantLock();
    private final PriorityQueue<Task> queue = new PriorityQueue<>();
    private long sequence;

    /**
     * @param ticker the ticker this scheduler reads and advances
     */
    public ManualScheduler(ManualTicker ticker) {
        this.ticker = java.util.Objects.requireNonNull(ticker, "ticker");
    }

    /**
     * The ticker this scheduler runs on.
     *
     * @return the ticker
     */
    public ManualTicker ticker() {
        return ticker;
    }

    @Override
    public Cancellable schedule(Runnable task, long delayNanos) {
        java.util.Objects.requireNonNull(task, "task");
        lock.lock();
        try {
            Task t = new Task(task, ticker.read() + Math.max(0L, delayNanos), sequence++);
            queue.add(t);
            return t;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Advances the ticker by {@code amount}, stopping at each due task's time to run it.
     *
     * @param amount how far to move time; not negative
     * @return the number of tasks run
     */
    public int advance(Duration amount) {
        return advance(amount.toNanos());
    }

    /**
     * Advances the ticker by {@code amountNanos}, stopping at each due task's time to run it.
     *
     * @param amountNanos how far to move time, in nanoseconds; not negative
     * @return the number of tasks run
     */
    public int advance(long amountNanos) {
        if (amountNanos < 0) {
            throw new IllegalArgumentException("ManualScheduler: advance must be >= 0 ns but was " + amountNanos);
        }
        long target = ticker.read() + amountNanos;
        int ran = 0;
        while (true) {
            Task next = pollDue(target);
            if (next == null) {
                break;
            }
            long now = ticker.read();
            if (next.dueNanos > now) {
                ticker.advance(next.dueNanos - now);
            }
            next.action.run();
            ran++;
        }
        long now = ticker.read();
        if (target > now) {
            ticker.advance(target - now);
        }
        return ran;
    }

    /**
     * Runs the tasks already due, without moving time.
     *
     * @return the number of tasks run
     */
    public int runDue() {
        return advance(0L);
    }

    /**
     * The number of tasks waiting (cancelled ones are removed when cancelled).
     *
     * @return the count
     */
    public int pending() {
        lock.lock();
        try {
            return queue.size();
        } finally {
            lock.unlock();
        }
    }

    private @Nullable Task pollDue(long target) {
        lock.lock();
        try {
            Task head = queue.peek();
            if (head == null || head.dueNanos > target) {
                return null;
            }
            return queue.poll();
        } finally {
            lock.unlock();
        }
    }

    private final class Task implements Comparable<Task>, Cancellable {
        final Runnable action;
        final long dueNanos;
        final long order;

        Task(Runnable action, long dueNanos, long order) {
            this.action = action;
            this.dueNanos = dueNanos;
            this.order = order;
        }

        @Override
        public int compareTo(Task other) {
            int byTime = Long.compare(dueNanos, other.dueNanos);
            return byTime != 0 ? byTime : Long.compare(order, other.order);
        }

        @Override
        public boolean cancel() {
            lock.lock();
            try {
                return queue.remove(this);
            } finally {
                lock.unlock();
            }
        }
    }
}

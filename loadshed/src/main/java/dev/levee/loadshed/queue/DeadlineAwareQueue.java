package dev.levee.loadshed.queue;

import dev.levee.core.Deadline;
import dev.levee.core.Ticker;
import dev.levee.core.internal.Validate;
import dev.levee.core.internal.Nanos;
import dev.levee.loadshed.internal.TimedRing;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * A bounded priority queue whose entries carry deadlines (seed 002's {@code DeadlineAwareQueue},
 * "inspired by gRPC deadline propagation"): the consumer gets the most important entry that can still
 * finish, and work that can no longer be useful is dropped instead of served late.
 *
 * <pre>{@code
 * DeadlineAwareQueue<Request> queue = DeadlineAwareQueue.of("api", DeadlineAwareQueueConfig.defaults(),
 *         (request, reason) -> request.reply(503, reason.reason()));
 * if (!queue.offer(request, classifier.priority(request), deadline)) request.reply(503, "queue_full");
 * ...
 * Request next = queue.take();     // a worker
 * }</pre>
 *
 * <p><b>Model.</b> Priorities 1 (least) to 10 (most important), default 5; each entry has a deadline
 * (given, else the current {@link Deadline}, else now + 5 s). Within a priority, first come first
 * served.
 * <ul>
 *   <li><b>Enqueue.</b> Expired entries at the head of each priority are dropped
 *       ({@link DropReason#EXPIRED}); if the queue is still full, every expired entry is purged. If it
 *       is still full, the oldest entry of the lowest priority present is evicted
 *       ({@link DropReason#EVICTED}) <em>only if</em> the newcomer's priority is strictly higher;
 *       otherwise the newcomer is refused ({@code false}, counted as {@link DropReason#QUEUE_FULL}).
 *       A newcomer whose deadline already passed is refused too.</li>
 *   <li><b>Dequeue</b> returns the highest-priority entry that is still valid, dropping on the way
 *       every entry that expired ({@link DropReason#EXPIRED}) or has less than {@code minRemaining}
 *       (100 ms) left ({@link DropReason#TOO_LATE}).</li>
 * </ul>
 * The seed's code evicts with {@code heappop}, which removes the <em>highest</em> priority on its
 * negated heap, and compares against {@code queue[-1]}, which is not the lowest; we do what its
 * comment says.
 *
 * <p><b>Guarantees.</b> Never more than {@code maxSize} entries. Every accepted entry is handed to
 * exactly one consumer or passed exactly once to the {@link DropListener} with its reason; nothing
 * disappears silently. An entry is never handed out past its deadline or with less than
 * {@code minRemaining} left (as read on the ticker at the dequeue).
 *
 * <p><b>Knobs:</b> {@link DeadlineAwareQueueConfig} (max size 1000, default deadline 5 s, minimum
 * remaining 100 ms).
 *
 * <p><b>Cost.</b> One {@link ReentrantLock}; ten FIFO rings (one per priority) that grow to
 * {@code maxSize} and then never allocate; enqueue and dequeue are O(1) plus the entries they drop;
 * the full purge is O(size), run only when an enqueue finds the queue full.
 *
 * @param <T> the entry type
 */
public final class DeadlineAwareQueue<T> implements MeasuredQueue {
    /** The least important priority. */
    public static final int MIN_PRIORITY = 1;
    /** The most important priority. */
    public static final int MAX_PRIORITY = 10;
    /** The priority of an entry offered without one (seed 002). */
    public static final int DEFAULT_PRIORITY = 5;

    private final String name;
    private final DeadlineAwareQueueConfig config;
    private final Ticker ticker;
    private final long defaultDeadlineNanos;
    private final long minRemainingNanos;
    private final int maxSize;
    private final DropListener<? super T> listener;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    private final TimedRing<T>[] rings = newRings();
    private final QueueStats stats = new QueueStats();
    private int size;
    private volatile int depth;

    @SuppressWarnings({"unchecked", "rawtypes"}) // a generic array: every slot holds a TimedRing<T>
    private static <T> TimedRing<T>[] newRings() {
        return new TimedRing[MAX_PRIORITY + 1];
    }

    private DeadlineAwareQueue(String name, DeadlineAwareQueueConfig config, DropListener<? super T> listener) {
        this.name = name;
        this.config = config;
        this.ticker = config.ticker();
        this.defaultDeadlineNanos = config.defaultDeadline().toNanos();
        this.minRemainingNanos = config.minRemaining().toNanos();
        this.maxSize = config.maxSize();
        this.listener = listener;
        for (int p = MIN_PRIORITY; p <= MAX_PRIORITY; p++) {
            rings[p] = new TimedRing<>(Math.min(16, maxSize), maxSize);
        }
    }

    /**
     * A queue with a drop listener.
     *
     * @param name the name, used in logs and metric tags
     * @param config the configuration
     * @param listener receives every accepted entry that is dropped
     * @param <T> the entry type
     * @return the queue
     */
    public static <T> DeadlineAwareQueue<T> of(String name, DeadlineAwareQueueConfig config, DropListener<? super T> listener) {
        Validate.name("DeadlineAwareQueue", name);
        Validate.notNull("DeadlineAwareQueue '" + name + "'", "config", config);
        Validate.notNull("DeadlineAwareQueue '" + name + "'", "listener", listener);
        return new DeadlineAwareQueue<>(name, config, listener);
    }

    /**
     * A queue that counts drops without a listener.
     *
     * @param name the name
     * @param config the configuration
     * @param <T> the entry type
     * @return the queue
     */
    public static <T> DeadlineAwareQueue<T> of(String name, DeadlineAwareQueueConfig config) {
        return of(name, config, DropListener.none());
    }

    /**
     * A queue with the defaults of seed 002 and no listener.
     *
     * @param name the name
     * @param <T> the entry type
     * @return the queue
     */
    public static <T> DeadlineAwareQueue<T> ofDefaults(String name) {
        return of(name, DeadlineAwareQueueConfig.defaults());
    }

    @Override
    public String name() {
        return name;
    }

    /** @return the configuration */
    public DeadlineAwareQueueConfig config() {
        return config;
    }

    /**
     * Offers at the default priority with the current deadline, or the default deadline.
     *
     * @param item the entry
     * @return false if refused
     */
    public boolean offer(T item) {
        return offer(item, DEFAULT_PRIORITY);
    }

    /**
     * Offers with the current deadline (the attached {@link Deadline} if on this queue's ticker), or
     * the default deadline.
     *
     * @param item the entry
     * @param priority in [1, 10]
     * @return false if refused
     * @throws IllegalArgumentException if the priority is outside [1, 10]
     */
    public boolean offer(T item, int priority) {
        long now = ticker.read();
        Deadline current = Deadline.currentOrNull();
        long deadline = current != null && current.ticker() == ticker
                ? current.instantNanos()
                : Nanos.add(now, defaultDeadlineNanos);
        return offerAt(item, priority, deadline, now);
    }

    /**
     * Offers with a deadline.
     *
     * @param item the entry
     * @param priority in [1, 10]
     * @param deadline the entry's deadline (measured on its own ticker)
     * @return false if refused
     * @throws IllegalArgumentException if the priority is outside [1, 10]
     */
    public boolean offer(T item, int priority, Deadline deadline) {
        Objects.requireNonNull(deadline, "deadline");
        long now = ticker.read();
        return offerAt(item, priority, Nanos.add(now, deadline.remainingNanos()), now);
    }

    /**
     * Offers with a deadline given as a reading of this queue's ticker.
     *
     * @param item the entry
     * @param priority in [1, 10]
     * @param deadlineNanos the deadline, a reading of {@link DeadlineAwareQueueConfig#ticker()}
     * @return false if refused
     * @throws IllegalArgumentException if the priority is outside [1, 10]
     */
    public boolean offerAt(T item, int priority, long deadlineNanos) {
        return offerAt(item, priority, deadlineNanos, ticker.read());
    }

    private boolean offerAt(T item, int priority, long deadline, long now) {
        Objects.requireNonNull(item, "item");
        if (priority < MIN_PRIORITY || priority > MAX_PRIORITY) {
            throw new IllegalArgumentException("DeadlineAwareQueue '" + name + "': priority must be in [1, 10] but was " + priority);
        }
        List<Object> dropped = null;
        boolean accepted;
        lock.lock();
        try {
            dropped = dropExpiredHeads(now, dropped);
            if (deadline - now <= 0) {
                stats.countDrop(DropReason.QUEUE_FULL);
                accepted = false;
            } else {
                if (size == maxSize) {
                    dropped = purgeExpired(now, dropped);
                }
                if (size == maxSize) {
                    int lowest = lowestPresent();
                    if (priority > lowest) {
                        dropped = add(dropped, rings[lowest].pollFirst(), DropReason.EVICTED);
                        size--;
                    }
                }
                if (size == maxSize) {
                    stats.countDrop(DropReason.QUEUE_FULL);
                    accepted = false;
                } else {
                    rings[priority].addLast(item, now, deadline);
                    size++;
                    accepted = true;
                    notEmpty.signal();
                }
            }
            depth = size;
        } finally {
            lock.unlock();
        }
        deliver(dropped);
        return accepted;
    }

    private int lowestPresent() {
        for (int p = MIN_PRIORITY; p <= MAX_PRIORITY; p++) {
            if (!rings[p].isEmpty()) {
                return p;
            }
        }
        return MAX_PRIORITY + 1;
    }

    private @Nullable List<Object> dropExpiredHeads(long now, @Nullable List<Object> dropped) {
        for (int p = MIN_PRIORITY; p <= MAX_PRIORITY; p++) {
            TimedRing<T> r = rings[p];
            while (!r.isEmpty() && r.firstDeadline() - now <= 0) {
                dropped = add(dropped, r.pollFirst(), DropReason.EXPIRED);
                size--;
            }
        }
        return dropped;
    }

    private @Nullable List<Object> purgeExpired(long now, @Nullable List<Object> dropped) {
        for (int p = MIN_PRIORITY; p <= MAX_PRIORITY; p++) {
            TimedRing<T> r = rings[p];
            for (int i = r.size() - 1; i >= 0; i--) {
                if (r.deadlineAt(i) - now <= 0) {
                    dropped = add(dropped, r.removeAt(i), DropReason.EXPIRED);
                    size--;
                }
            }
        }
        return dropped;
    }

    /** Counts the drop and remembers it for the listener (entry, reason pairs). */
    private List<Object> add(@Nullable List<Object> dropped, @Nullable Object item, DropReason reason) {
        List<Object> out = dropped != null ? dropped : new ArrayList<>(4);
        stats.countDrop(reason);
        out.add(Objects.requireNonNull(item));
        out.add(reason);
        return out;
    }

    @SuppressWarnings("unchecked")
    private void deliver(@Nullable List<Object> dropped) {
        if (dropped != null) {
            for (int i = 0; i < dropped.size(); i += 2) {
                QueueStats.notify(listener, name, (T) dropped.get(i), (DropReason) dropped.get(i + 1));
            }
        }
    }

    /**
     * Removes the highest-priority entry that is still valid, without waiting.
     *
     * @return the entry, or null if none is left
     */
    public @Nullable T poll() {
        List<Object> dropped = null;
        T item = null;
        lock.lock();
        try {
            long now = ticker.read();
            for (int p = MAX_PRIORITY; p >= MIN_PRIORITY && item == null; p--) {
                TimedRing<T> r = rings[p];
                while (!r.isEmpty()) {
                    long left = r.firstDeadline() - now;
                    long stamp = r.firstStamp();
                    T head = r.pollFirst();
                    size--;
                    if (left <= 0) {
                        dropped = add(dropped, head, DropReason.EXPIRED);
                    } else if (left < minRemainingNanos) {
                        dropped = add(dropped, head, DropReason.TOO_LATE);
                    } else {
                        stats.served(now - stamp);
                        item = head;
                        break;
                    }
                }
            }
            depth = size;
        } finally {
            lock.unlock();
        }
        deliver(dropped);
        return item;
    }

    /**
     * Waits for a valid entry.
     *
     * @return the entry
     * @throws InterruptedException if interrupted while waiting
     */
    public T take() throws InterruptedException {
        while (true) {
            T item = poll();
            if (item != null) {
                return item;
            }
            lock.lockInterruptibly();
            try {
                while (size == 0) {
                    notEmpty.await();
                }
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * Waits up to {@code timeout} (real time) for a valid entry.
     *
     * @param timeout how long to wait
     * @param unit its unit
     * @return the entry, or null when the time ran out
     * @throws InterruptedException if interrupted while waiting
     */
    public @Nullable T poll(long timeout, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(timeout);
        while (true) {
            T item = poll();
            if (item != null) {
                return item;
            }
            lock.lockInterruptibly();
            try {
                while (size == 0) {
                    if (nanos <= 0L) {
                        return null;
                    }
                    nanos = notEmpty.awaitNanos(nanos);
                }
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * Entries held at a priority.
     *
     * @param priority in [1, 10]
     * @return the count
     */
    public int size(int priority) {
        lock.lock();
        try {
            return rings[priority].size();
        } finally {
            lock.unlock();
        }
    }

    /** @return entries held, including expired ones not yet dropped */
    public int size() {
        return depth;
    }

    @Override
    public int depth() {
        return depth;
    }

    @Override
    public int capacity() {
        return maxSize;
    }

    @Override
    public QueueStats stats() {
        return stats;
    }

    @Override
    public String toString() {
        return "DeadlineAwareQueue[" + name + ", depth=" + depth + "/" + maxSize + "]";
    }
}

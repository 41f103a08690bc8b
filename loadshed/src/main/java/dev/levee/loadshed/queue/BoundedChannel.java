package dev.levee.loadshed.queue;

import dev.levee.core.Deadline;
import dev.levee.core.DeadlineExceededException;
import dev.levee.core.Ticker;
import dev.levee.core.internal.Validate;
import dev.levee.core.internal.Nanos;
import dev.levee.loadshed.internal.TimedRing;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * A bounded channel between producers and consumers: <em>backpressure</em> (a full channel makes
 * senders wait, so a fast producer slows to the consumer's pace) and <em>load leveling</em> (the
 * consumer pulls at its own rate while the channel absorbs short spikes), as seed 002's Go
 * {@code BoundedChannel} and seed 004 §17.2 describe.
 *
 * <pre>{@code
 * BoundedChannel<Order> orders = BoundedChannel.of("orders", 500);
 * orders.send(order);                       // producer: waits while full (never past the current deadline)
 * Order next;
 * while ((next = orders.receive()) != null) handle(next);   // consumer: null once closed and drained
 * }</pre>
 *
 * <p><b>Operations.</b>
 * <table>
 *   <caption>Sending and receiving</caption>
 *   <tr><th>call</th><th>when full / empty</th><th>when closed</th></tr>
 *   <tr><td>{@link #send(Object)}</td><td>waits (interruptibly; at most until the current
 *       {@link Deadline}, then {@link DeadlineExceededException})</td><td>{@code false}</td></tr>
 *   <tr><td>{@link #trySend(Object)}</td><td>{@code false} at once</td><td>{@code false}</td></tr>
 *   <tr><td>{@link #send(Object, Duration)}</td><td>waits up to the timeout (and the deadline), then
 *       {@code false}</td><td>{@code false}</td></tr>
 *   <tr><td>{@link #receive()}</td><td>waits (interruptibly)</td><td>the remaining items, then
 *       {@code null}</td></tr>
 *   <tr><td>{@link #poll(Duration)}</td><td>waits up to the timeout, then {@code null}</td><td>the
 *       remaining items, then {@code null}</td></tr>
 * </table>
 *
 * <p><b>Guarantees.</b> Never more than {@code capacity} items. {@link #pressure()} is exactly
 * {@code size / capacity}. {@link #close()} wakes every waiting sender (they return {@code false}) and
 * lets receivers drain what is left before they see the end; no thread stays blocked on a closed
 * channel. Every item sent is received exactly once.
 *
 * <p><b>Cost.</b> One {@link ReentrantLock} with two {@link Condition}s around a preallocated ring (as
 * {@code ArrayBlockingQueue}); no {@code synchronized}, so virtual threads unmount while they wait; no
 * allocation per item. Waits measure time on real time (the condition) and re-check the deadline on
 * its own ticker.
 *
 * @param <T> the item type
 */
public final class BoundedChannel<T> implements MeasuredQueue {
    /** The default capacity (seed 002 sizes its queues at 1000). */
    public static final int DEFAULT_CAPACITY = 1000;
    /** The largest capacity accepted. */
    public static final int MAX_CAPACITY = 10_000_000;

    private final String name;
    private final int capacity;
    private final Ticker ticker;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    private final Condition notFull = lock.newCondition();
    private final TimedRing<T> ring;
    private final QueueStats stats = new QueueStats();
    private volatile int depth;
    private volatile boolean closed;

    private BoundedChannel(String name, int capacity, Ticker ticker) {
        this.name = name;
        this.capacity = capacity;
        this.ticker = ticker;
        this.ring = new TimedRing<>(Math.min(capacity, 1024), capacity);
    }

    /**
     * A channel on the system ticker.
     *
     * @param name the name, used in metric tags
     * @param capacity items held at most, in [1, 10,000,000]
     * @param <T> the item type
     * @return the channel
     */
    public static <T> BoundedChannel<T> of(String name, int capacity) {
        return of(name, capacity, Ticker.system());
    }

    /**
     * A channel whose queue delay is measured on {@code ticker}.
     *
     * @param name the name, used in metric tags
     * @param capacity items held at most, in [1, 10,000,000]
     * @param ticker the time source for queue delay and deadlines
     * @param <T> the item type
     * @return the channel
     */
    public static <T> BoundedChannel<T> of(String name, int capacity, Ticker ticker) {
        Validate.name("BoundedChannel", name);
        String policy = Validate.describe("BoundedChannel", name);
        Validate.inRange(policy, "capacity", capacity, 1, MAX_CAPACITY);
        Validate.notNull(policy, "ticker", ticker);
        return new BoundedChannel<>(name, capacity, ticker);
    }

    /**
     * A channel of the default capacity, {@value #DEFAULT_CAPACITY}.
     *
     * @param name the name
     * @param <T> the item type
     * @return the channel
     */
    public static <T> BoundedChannel<T> ofDefaults(String name) {
        return of(name, DEFAULT_CAPACITY);
    }

    @Override
    public String name() {
        return name;
    }

    /**
     * Sends, waiting while the channel is full, never past the current {@link Deadline}.
     *
     * @param item the item
     * @return true if sent, false if the channel is (or became) closed
     * @throws InterruptedException if interrupted while waiting (the item is not sent)
     * @throws DeadlineExceededException if the current deadline passed while waiting
     */
    public boolean send(T item) throws InterruptedException {
        Objects.requireNonNull(item, "item");
        Deadline deadline = Deadline.currentOrNull();
        lock.lockInterruptibly();
        try {
            while (!closed && ring.isFull()) {
                if (deadline == null) {
                    notFull.await();
                } else {
                    long left = deadline.remainingNanos();
                    if (left <= 0) {
                        throw new DeadlineExceededException(name, "BoundedChannel '" + name
                                + "' stayed full until the deadline", 0L);
                    }
                    notFull.awaitNanos(left);
                }
            }
            return enqueueLocked(item);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Sends if there is room now.
     *
     * @param item the item
     * @return true if sent; false if full or closed
     */
    public boolean trySend(T item) {
        Objects.requireNonNull(item, "item");
        lock.lock();
        try {
            if (ring.isFull()) {
                stats.countDrop(DropReason.QUEUE_FULL);
                return false;
            }
            return enqueueLocked(item);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Sends, waiting up to {@code timeout} while full, and never past the current {@link Deadline}.
     *
     * @param item the item
     * @param timeout the longest wait
     * @return true if sent; false on timeout, at the deadline, or if closed
     * @throws InterruptedException if interrupted while waiting (the item is not sent)
     */
    public boolean send(T item, Duration timeout) throws InterruptedException {
        Objects.requireNonNull(item, "item");
        long nanos = Nanos.of(Objects.requireNonNull(timeout, "timeout"));
        Deadline deadline = Deadline.currentOrNull();
        if (deadline != null) {
            nanos = Math.min(nanos, deadline.remainingNanos());
        }
        lock.lockInterruptibly();
        try {
            while (!closed && ring.isFull()) {
                if (nanos <= 0) {
                    stats.countDrop(DropReason.QUEUE_FULL);
                    return false;
                }
                nanos = notFull.awaitNanos(nanos);
            }
            return enqueueLocked(item);
        } finally {
            lock.unlock();
        }
    }

    private boolean enqueueLocked(T item) {
        if (closed) {
            return false;
        }
        ring.addLast(item, ticker.read(), 0L);
        depth = ring.size();
        notEmpty.signal();
        return true;
    }

    /**
     * Receives, waiting while the channel is empty and open.
     *
     * @return the next item, or null once the channel is closed and drained
     * @throws InterruptedException if interrupted while waiting
     */
    public @Nullable T receive() throws InterruptedException {
        lock.lockInterruptibly();
        try {
            while (ring.isEmpty()) {
                if (closed) {
                    return null;
                }
                notEmpty.await();
            }
            return dequeueLocked();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Receives, waiting up to {@code timeout}.
     *
     * @param timeout the longest wait
     * @return the next item, or null on timeout or once closed and drained
     * @throws InterruptedException if interrupted while waiting
     */
    public @Nullable T poll(Duration timeout) throws InterruptedException {
        long nanos = Nanos.of(Objects.requireNonNull(timeout, "timeout"));
        lock.lockInterruptibly();
        try {
            while (ring.isEmpty()) {
                if (closed || nanos <= 0) {
                    return null;
                }
                nanos = notEmpty.awaitNanos(nanos);
            }
            return dequeueLocked();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Receives if an item is there now.
     *
     * @return the item, or null
     */
    public @Nullable T tryReceive() {
        lock.lock();
        try {
            return ring.isEmpty() ? null : dequeueLocked();
        } finally {
            lock.unlock();
        }
    }

    private T dequeueLocked() {
        long stamp = ring.firstStamp();
        T item = Objects.requireNonNull(ring.pollFirst());
        stats.served(ticker.read() - stamp);
        depth = ring.size();
        notFull.signal();
        if (closed && ring.isEmpty()) {
            notEmpty.signalAll();
        }
        return item;
    }

    /**
     * Closes the channel: later sends return false, waiting senders wake and return false, receivers
     * drain what is left and then see {@code null}. Idempotent.
     */
    public void close() {
        lock.lock();
        try {
            closed = true;
            notFull.signalAll();
            notEmpty.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** @return whether {@link #close()} was called */
    public boolean isClosed() {
        return closed;
    }

    /** @return whether closed and empty: receivers have nothing more to get */
    public boolean isDrained() {
        return closed && depth == 0;
    }

    /** @return items held now */
    public int size() {
        return depth;
    }

    /** @return whether at capacity */
    public boolean isFull() {
        return depth >= capacity;
    }

    @Override
    public int depth() {
        return depth;
    }

    @Override
    public int capacity() {
        return capacity;
    }

    @Override
    public QueueStats stats() {
        return stats;
    }

    @Override
    public String toString() {
        return "BoundedChannel[" + name + ", " + depth + "/" + capacity + (closed ? ", closed" : "") + "]";
    }
}

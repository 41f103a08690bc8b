package dev.levee.loadshed.queue;

import dev.levee.core.Ticker;
import dev.levee.core.internal.Validate;
import dev.levee.loadshed.internal.CoDelController;
import dev.levee.loadshed.internal.TimedRing;
import java.util.AbstractQueue;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * A bounded {@link BlockingQueue} that keeps its <em>standing delay</em> near a target with CoDel
 * (Nichols &amp; Jacobson, ACM Queue 2012), in the form seed 002 gives, and serves newest-first while
 * congested (adaptive LIFO, Facebook's practice). Use it as the work queue of a
 * {@link java.util.concurrent.ThreadPoolExecutor} or between any producers and consumers:
 *
 * <pre>{@code
 * CoDelQueue<Runnable> queue = CoDelQueue.of("search", CoDelQueueConfig.defaults(),
 *         (task, reason) -> log.info("shed {}", reason));          // Futures are cancelled anyway
 * ExecutorService pool = new ThreadPoolExecutor(8, 8, 0, TimeUnit.SECONDS, queue);
 * }</pre>
 *
 * <p><b>Model.</b> Every entry is stamped when offered. Each dequeue measures the <em>sojourn</em>
 * (now − stamp) of the oldest entry and feeds it to the CoDel state machine:
 * <pre>
 *   sojourn &lt; target                          → not congested; leave the dropping state
 *   first sample ≥ target                     → firstAboveTime = now + interval
 *   now ≥ firstAboveTime, entering dropping   → count = count − 2 if count &gt; 2 and
 *                                                now − dropNext &lt; 16 × interval, else 1
 *                                               dropNext = now + interval / √count
 *   dropping and now ≥ dropNext               → drop the head (while more than one entry is left),
 *                                               count += 1, dropNext = now + interval / √count
 * </pre>
 * While congested and {@code adaptiveLifo} is on, the dequeue hands out the <em>newest</em> entry (it
 * still has its whole deadline ahead) while drops keep coming from the head (the stalest). The
 * sample is always the oldest entry's sojourn, so serving LIFO cannot hide a standing queue.
 *
 * <p><b>Guarantees.</b> Never holds more than {@code maxSize} entries. Every accepted entry is either
 * returned by exactly one dequeue, drained, or passed once to the {@link DropListener} with
 * {@link DropReason#CODEL} (the default listener cancels a {@link Future}, so an executor's caller
 * is not left waiting). Refused offers return {@code false} and are counted as
 * {@link DropReason#QUEUE_FULL}.
 *
 * <p><b>Knobs:</b> {@link CoDelQueueConfig} (target 5 ms, interval 100 ms, max size 1000, adaptive
 * LIFO on).
 *
 * <p><b>Cost.</b> One {@link ReentrantLock} (as {@code ArrayBlockingQueue}) around a preallocated
 * ring; one ticker read per offer and per dequeue; no allocation per entry. Blocking waits are on
 * {@link Condition}s, so virtual threads unmount while waiting.
 *
 * @param <T> the entry type
 */
public final class CoDelQueue<T> extends AbstractQueue<T> implements BlockingQueue<T>, MeasuredQueue {
    private final String name;
    private final CoDelQueueConfig config;
    private final Ticker ticker;
    private final boolean adaptiveLifo;
    private final DropListener<? super T> listener;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    private final Condition notFull = lock.newCondition();
    private final TimedRing<T> ring;
    private final CoDelController codel;
    private final QueueStats stats = new QueueStats();
    private volatile int depth;
    private volatile boolean congested;

    private CoDelQueue(String name, CoDelQueueConfig config, DropListener<? super T> listener) {
        this.name = name;
        this.config = config;
        this.ticker = config.ticker();
        this.adaptiveLifo = config.adaptiveLifo();
        this.listener = listener;
        this.ring = new TimedRing<>(config.maxSize());
        this.codel = new CoDelController(config.target().toNanos(), config.interval().toNanos());
    }

    /**
     * A queue with a drop listener.
     *
     * @param name the name, used in logs and metric tags
     * @param config the configuration
     * @param listener receives every entry CoDel drops
     * @param <T> the entry type
     * @return the queue
     */
    public static <T> CoDelQueue<T> of(String name, CoDelQueueConfig config, DropListener<? super T> listener) {
        Validate.name("CoDelQueue", name);
        Validate.notNull("CoDelQueue '" + name + "'", "config", config);
        Validate.notNull("CoDelQueue '" + name + "'", "listener", listener);
        return new CoDelQueue<>(name, config, listener);
    }

    /**
     * A queue whose listener cancels dropped {@link Future}s (an executor's tasks) and ignores other
     * entries; drops are counted either way.
     *
     * @param name the name
     * @param config the configuration
     * @param <T> the entry type
     * @return the queue
     */
    public static <T> CoDelQueue<T> of(String name, CoDelQueueConfig config) {
        return of(name, config, CoDelQueue::cancelFuture);
    }

    /**
     * A queue with the defaults of seed 002.
     *
     * @param name the name
     * @param <T> the entry type
     * @return the queue
     */
    public static <T> CoDelQueue<T> ofDefaults(String name) {
        return of(name, CoDelQueueConfig.defaults());
    }

    private static void cancelFuture(Object item, DropReason reason) {
        if (item instanceof Future<?>) {
            ((Future<?>) item).cancel(false);
        }
    }

    @Override
    public String name() {
        return name;
    }

    /** @return the configuration */
    public CoDelQueueConfig config() {
        return config;
    }

    @Override
    public boolean offer(T item) {
        Objects.requireNonNull(item, "item");
        long now = ticker.read();
        lock.lock();
        try {
            if (ring.isFull()) {
                stats.countDrop(DropReason.QUEUE_FULL);
                return false;
            }
            enqueueLocked(item, now);
            return true;
        } finally {
            lock.unlock();
        }
    }

    private void enqueueLocked(T item, long now) {
        ring.addLast(item, now, 0L);
        depth = ring.size();
        notEmpty.signal();
    }

    @Override
    public void put(T item) throws InterruptedException {
        Objects.requireNonNull(item, "item");
        lock.lockInterruptibly();
        try {
            while (ring.isFull()) {
                notFull.await();
            }
            enqueueLocked(item, ticker.read());
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean offer(T item, long timeout, TimeUnit unit) throws InterruptedException {
        Objects.requireNonNull(item, "item");
        long nanos = unit.toNanos(timeout);
        lock.lockInterruptibly();
        try {
            while (ring.isFull()) {
                if (nanos <= 0L) {
                    stats.countDrop(DropReason.QUEUE_FULL);
                    return false;
                }
                nanos = notFull.awaitNanos(nanos);
            }
            enqueueLocked(item, ticker.read());
            return true;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public @Nullable T poll() {
        lock.lock();
        Object[] dropped;
        T item;
        try {
            if (ring.isEmpty()) {
                return null;
            }
            item = dequeueLocked(ticker.read());
            dropped = takeDrops();
        } finally {
            lock.unlock();
        }
        deliverDrops(dropped);
        return item;
    }

    @Override
    public T take() throws InterruptedException {
        lock.lockInterruptibly();
        Object[] dropped;
        T item;
        try {
            while (ring.isEmpty()) {
                notEmpty.await();
            }
            item = dequeueLocked(ticker.read());
            dropped = takeDrops();
        } finally {
            lock.unlock();
        }
        deliverDrops(dropped);
        return item;
    }

    @Override
    public @Nullable T poll(long timeout, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(timeout);
        lock.lockInterruptibly();
        Object[] dropped;
        T item;
        try {
            while (ring.isEmpty()) {
                if (nanos <= 0L) {
                    return null;
                }
                nanos = notEmpty.awaitNanos(nanos);
            }
            item = dequeueLocked(ticker.read());
            dropped = takeDrops();
        } finally {
            lock.unlock();
        }
        deliverDrops(dropped);
        return item;
    }

    // Drops decided by the last dequeueLocked, handed out after the lock is released. Only the
    // thread holding the lock writes it; takeDrops() clears it before unlocking.
    private Object @Nullable [] pendingDrops;

    /** The ring is not empty. Serves one entry and performs CoDel's drops (at most one, see CoDelController). */
    private T dequeueLocked(long now) {
        long headSojourn = now - ring.firstStamp();
        boolean lifo = adaptiveLifo && codel.congested();
        long servedSojourn = lifo ? now - ring.lastStamp() : headSojourn;
        T item = lifo ? ring.pollLast() : ring.pollFirst();
        int drops = codel.onSample(now, headSojourn, ring.size());
        if (drops > 0) {
            Object[] out = new Object[drops];
            for (int i = 0; i < drops; i++) {
                out[i] = ring.pollFirst();
                stats.countDrop(DropReason.CODEL);
            }
            pendingDrops = out;
        }
        congested = codel.congested();
        depth = ring.size();
        stats.served(servedSojourn);
        notFull.signal();
        if (drops > 0) {
            notFull.signalAll();
        }
        return Objects.requireNonNull(item);
    }

    private Object @Nullable [] takeDrops() {
        Object[] d = pendingDrops;
        pendingDrops = null;
        return d;
    }

    @SuppressWarnings("unchecked")
    private void deliverDrops(Object @Nullable [] dropped) {
        if (dropped != null) {
            for (Object o : dropped) {
                QueueStats.notify(listener, name, (T) o, DropReason.CODEL);
            }
        }
    }

    @Override
    public @Nullable T peek() {
        lock.lock();
        try {
            if (ring.isEmpty()) {
                return null;
            }
            return adaptiveLifo && codel.congested() ? ring.get(ring.size() - 1) : ring.peekFirst();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int size() {
        return depth;
    }

    @Override
    public int remainingCapacity() {
        return config.maxSize() - depth;
    }

    @Override
    public int drainTo(Collection<? super T> c) {
        return drainTo(c, Integer.MAX_VALUE);
    }

    /** Drains without CoDel: entries drained are handed over, never dropped. */
    @Override
    public int drainTo(Collection<? super T> c, int maxElements) {
        Objects.requireNonNull(c, "c");
        if (c == this) {
            throw new IllegalArgumentException("cannot drain a queue into itself");
        }
        lock.lock();
        try {
            int n = 0;
            while (n < maxElements && !ring.isEmpty()) {
                c.add(ring.pollFirst());
                n++;
            }
            depth = ring.size();
            if (n > 0) {
                notFull.signalAll();
            }
            return n;
        } finally {
            lock.unlock();
        }
    }

    /** Removes an entry (used by {@code ThreadPoolExecutor.remove}); O(n). */
    @Override
    public boolean remove(@Nullable Object o) {
        if (o == null) {
            return false;
        }
        lock.lock();
        try {
            for (int i = 0; i < ring.size(); i++) {
                if (o.equals(ring.get(i))) {
                    ring.removeAt(i);
                    depth = ring.size();
                    notFull.signal();
                    return true;
                }
            }
            return false;
        } finally {
            lock.unlock();
        }
    }

    /** A snapshot iterator, oldest first (weakly consistent, as the executor expects). */
    @Override
    public Iterator<T> iterator() {
        lock.lock();
        try {
            List<T> copy = new ArrayList<>(ring.size());
            for (int i = 0; i < ring.size(); i++) {
                copy.add(ring.get(i));
            }
            return copy.iterator();
        } finally {
            lock.unlock();
        }
    }

    /** @return whether the last sample was at or above target (serving newest first if adaptive LIFO is on) */
    public boolean isCongested() {
        return congested;
    }

    /** @return whether CoDel is in its dropping state */
    public boolean isDropping() {
        lock.lock();
        try {
            return codel.dropping();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int depth() {
        return depth;
    }

    @Override
    public int capacity() {
        return config.maxSize();
    }

    @Override
    public QueueStats stats() {
        return stats;
    }

    @Override
    public String toString() {
        return "CoDelQueue[" + name + ", depth=" + depth + "/" + config.maxSize() + ", congested=" + congested + "]";
    }
}

package dev.levee.loadshed.internal;

import dev.levee.core.Ticker;
import dev.levee.core.internal.Waits;
import java.util.ArrayDeque;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Threads waiting for a slot of a concurrency limit, served first-in first-out or last-in first-out,
 * with direct hand-off: a freed slot is taken on the waiter's behalf by the thread that frees it, so a
 * woken waiter never races new arrivals for it. Not for users: may change without notice.
 *
 * <p><b>Lost wake-ups cannot happen.</b> A releasing thread frees its slot and then reads
 * {@link #size()}; a waiter increments the size and then tries to take a slot itself, both under
 * volatile accesses, so at least one of the two sees the other. Hand-off and parking happen under one
 * {@link ReentrantLock} (never a monitor, so a waiting virtual thread unmounts).
 *
 * <p>Cost: nothing unless someone waits (one volatile read on release); a waiter allocates its node.
 */
public final class WaitQueue {
    /** The slots a waiter waits for. */
    public interface Slots {
        /**
         * Takes a slot if one is free.
         *
         * @return true if taken
         */
        boolean tryTake();

        /** Returns a slot taken on behalf of a waiter that could not use it. */
        void giveBack();
    }

    /** How a wait ended. */
    public enum Result {
        /** The waiter holds a slot. */
        GRANTED,
        /** No slot within the wait allowed, or the queue was full. */
        TIMED_OUT,
        /** The thread was interrupted; its interrupt flag is set again. */
        INTERRUPTED
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final ArrayDeque<Node> nodes = new ArrayDeque<>();
    private final boolean lifo;
    private final int maxWaiters;
    private volatile int size;

    /**
     * @param lifo true to serve the newest waiter first
     * @param maxWaiters at most this many threads wait; more are refused at once
     */
    public WaitQueue(boolean lifo, int maxWaiters) {
        this.lifo = lifo;
        this.maxWaiters = maxWaiters;
    }

    /** @return threads waiting now */
    public int size() {
        return size;
    }

    /**
     * Hands free slots to waiters; call after freeing a slot or raising the limit. Costs one volatile
     * read when nobody waits.
     *
     * @param slots the slots
     */
    public void grant(Slots slots) {
        if (size == 0) {
            return;
        }
        lock.lock();
        try {
            grantLocked(slots);
        } finally {
            lock.unlock();
        }
    }

    private void grantLocked(Slots slots) {
        while (!nodes.isEmpty() && slots.tryTake()) {
            Node n = lifo ? nodes.pollLast() : nodes.pollFirst();
            size = nodes.size();
            n.granted = true;
            n.condition.signal();
        }
    }

    /**
     * Waits for a slot until the ticker reads {@code endNanos}.
     *
     * @param slots the slots
     * @param ticker the limiter's ticker
     * @param endNanos when to give up, a reading of {@code ticker}
     * @return how the wait ended
     */
    public Result await(Slots slots, Ticker ticker, long endNanos) {
        try {
            lock.lockInterruptibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Result.INTERRUPTED;
        }
        try {
            if (nodes.size() >= maxWaiters) {
                return Result.TIMED_OUT;
            }
            Node node = new Node(lock.newCondition());
            nodes.addLast(node);
            size = nodes.size();
            grantLocked(slots);
            while (!node.granted) {
                long remaining = endNanos - ticker.read();
                if (remaining <= 0) {
                    remove(node);
                    return Result.TIMED_OUT;
                }
                try {
                    node.condition.awaitNanos(Waits.parkNanos(ticker, remaining));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    if (node.granted) {
                        // The slot was handed over just before the interrupt: pass it on.
                        slots.giveBack();
                        grantLocked(slots);
                    } else {
                        remove(node);
                    }
                    return Result.INTERRUPTED;
                }
            }
            return Result.GRANTED;
        } finally {
            lock.unlock();
        }
    }

    private void remove(Node node) {
        nodes.remove(node);
        size = nodes.size();
    }

    private static final class Node {
        final Condition condition;
        boolean granted;

        Node(Condition condition) {
            this.condition = condition;
        }
    }
}

package dev.levee.loadshed.sim;

import java.util.ArrayDeque;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Where a {@link Simulation} parks requests that admission refused, until a completion makes room.
 * FIFO and LIFO bounded queues are provided; a CoDel or deadline-aware queue implements the same
 * three methods.
 *
 * <p>Contract: {@link #offer} may refuse (the request is then rejected). {@link #next} removes and
 * returns the request to try next, and hands any it decides to drop to {@code dropped} (the simulation
 * records them as {@code DROPPED_IN_QUEUE}); requests whose client deadline passed may be returned —
 * the simulation then records them as {@code EXPIRED_IN_QUEUE} without admitting them. If admission
 * refuses the returned request it is given back with {@link #putBack}, and must be the next one
 * returned.
 */
public interface FrontQueue {

    /**
     * Offers a request admission refused.
     *
     * @param request the request
     * @param nowNanos the virtual time
     * @param dropped receives any queued request the queue pushes out to make room
     * @return false to reject {@code request}
     */
    boolean offer(SimRequest request, long nowNanos, Consumer<SimRequest> dropped);

    /**
     * Removes the next request to try.
     *
     * @param nowNanos the virtual time
     * @param dropped receives every request the queue drops on the way
     * @return the request, or null if none is left
     */
    @Nullable SimRequest next(long nowNanos, Consumer<SimRequest> dropped);

    /**
     * Gives back the request {@link #next} returned, which admission refused; it goes back where it was.
     *
     * @param request the request
     */
    void putBack(SimRequest request);

    /** @return requests queued right now */
    int size();

    /**
     * A bounded first-in first-out queue; a request older than {@code maxWaitNanos} is dropped.
     *
     * @param capacity at most this many wait; more are refused
     * @param maxWaitNanos longest wait before the queue drops a request ({@code Long.MAX_VALUE}: none)
     * @return the queue
     */
    static FrontQueue fifo(int capacity, long maxWaitNanos) {
        return new Bounded(capacity, maxWaitNanos, false);
    }

    /**
     * A bounded last-in first-out queue (the freshest request is served first, "adaptive LIFO"). When
     * full, the oldest request is dropped to make room for the new one.
     *
     * @param capacity at most this many wait
     * @param maxWaitNanos longest wait before the queue drops a request ({@code Long.MAX_VALUE}: none)
     * @return the queue
     */
    static FrontQueue lifo(int capacity, long maxWaitNanos) {
        return new Bounded(capacity, maxWaitNanos, true);
    }

    /** FIFO or LIFO over one deque: the head is the oldest entry, the tail the newest. */
    final class Bounded implements FrontQueue {
        private final ArrayDeque<SimRequest> deque = new ArrayDeque<>();
        private final int capacity;
        private final long maxWaitNanos;
        private final boolean lifo;

        Bounded(int capacity, long maxWaitNanos, boolean lifo) {
            if (capacity < 1 || maxWaitNanos < 0) {
                throw new IllegalArgumentException("capacity >= 1 and maxWaitNanos >= 0");
            }
            this.capacity = capacity;
            this.maxWaitNanos = maxWaitNanos;
            this.lifo = lifo;
        }

        @Override
        public boolean offer(SimRequest request, long nowNanos, Consumer<SimRequest> dropped) {
            if (deque.size() >= capacity) {
                if (!lifo) {
                    return false;
                }
                // LIFO sheds the oldest: it is the one least likely to meet its deadline.
                dropped.accept(deque.pollFirst());
            }
            deque.addLast(request);
            return true;
        }

        @Override
        public @Nullable SimRequest next(long nowNanos, Consumer<SimRequest> dropped) {
            // Old requests sit at the head in both orders: drop those past the queue's own wait bound.
            while (!deque.isEmpty() && maxWaitNanos != Long.MAX_VALUE
                    && nowNanos - deque.peekFirst().arrivalNanos() > maxWaitNanos) {
                dropped.accept(deque.pollFirst());
            }
            return lifo ? deque.pollLast() : deque.pollFirst();
        }

        @Override
        public void putBack(SimRequest request) {
            if (lifo) {
                deque.addLast(request);
            } else {
                deque.addFirst(request);
            }
        }

        @Override
        public int size() {
            return deque.size();
        }

        @Override
        public String toString() {
            return (lifo ? "LIFO" : "FIFO") + "[" + deque.size() + "/" + capacity + "]";
        }
    }
}

package dev.levee.loadshed.internal;

import org.jspecify.annotations.Nullable;

/**
 * A fixed-capacity double-ended ring of items, each stamped with two {@code long}s (an enqueue time and
 * a deadline). Allocates only at construction. Not thread-safe: owners guard it with their lock.
 *
 * @param <T> the item type
 */
public final class TimedRing<T> {
    private final int capacity;
    private Object[] items;
    private long[] stamps;
    private long[] deadlines;
    private int head;
    private int size;

    /**
     * A ring allocated at its full capacity.
     *
     * @param capacity the fixed capacity, at least 1
     */
    public TimedRing(int capacity) {
        this(capacity, capacity);
    }

    /**
     * A ring that starts small and doubles up to its capacity (then never allocates again).
     *
     * @param initial the initial array length, in [1, capacity]
     * @param capacity the fixed capacity, at least 1
     */
    public TimedRing(int initial, int capacity) {
        this.capacity = capacity;
        items = new Object[initial];
        stamps = new long[initial];
        deadlines = new long[initial];
    }

    private void grow() {
        int n = (int) Math.min(capacity, Math.max(1L, items.length * 2L));
        Object[] ni = new Object[n];
        long[] ns = new long[n];
        long[] nd = new long[n];
        for (int i = 0; i < size; i++) {
            int s = slot(i);
            ni[i] = items[s];
            ns[i] = stamps[s];
            nd[i] = deadlines[s];
        }
        items = ni;
        stamps = ns;
        deadlines = nd;
        head = 0;
    }

    /** @return entries held */
    public int size() {
        return size;
    }

    /** @return the fixed capacity */
    public int capacity() {
        return capacity;
    }

    /** @return whether empty */
    public boolean isEmpty() {
        return size == 0;
    }

    /** @return whether full */
    public boolean isFull() {
        return size == capacity;
    }

    private int slot(int index) {
        int i = head + index;
        return i >= items.length ? i - items.length : i;
    }

    /**
     * Appends at the tail; the caller checks {@link #isFull()} first.
     *
     * @param item the item
     * @param stamp its enqueue time
     * @param deadline its deadline
     */
    public void addLast(T item, long stamp, long deadline) {
        if (size == items.length) {
            grow();
        }
        int s = slot(size);
        items[s] = item;
        stamps[s] = stamp;
        deadlines[s] = deadline;
        size++;
    }

    /** @return the head's enqueue time; the ring must not be empty */
    public long firstStamp() {
        return stamps[head];
    }

    /** @return the head's deadline; the ring must not be empty */
    public long firstDeadline() {
        return deadlines[head];
    }

    /** @return the tail's enqueue time; the ring must not be empty */
    public long lastStamp() {
        return stamps[slot(size - 1)];
    }

    /** @return the tail's deadline; the ring must not be empty */
    public long lastDeadline() {
        return deadlines[slot(size - 1)];
    }

    /**
     * The entry at {@code index} from the head.
     *
     * @param index in [0, size)
     * @return the item
     */
    @SuppressWarnings("unchecked")
    public T get(int index) {
        return (T) items[slot(index)];
    }

    /**
     * @param index in [0, size)
     * @return that entry's deadline
     */
    public long deadlineAt(int index) {
        return deadlines[slot(index)];
    }

    /** @return the head item, or null when empty */
    @SuppressWarnings("unchecked")
    public @Nullable T peekFirst() {
        return size == 0 ? null : (T) items[head];
    }

    /** @return the head item removed, or null when empty */
    @SuppressWarnings("unchecked")
    public @Nullable T pollFirst() {
        if (size == 0) {
            return null;
        }
        T item = (T) items[head];
        items[head] = null;
        head = head + 1 == items.length ? 0 : head + 1;
        size--;
        return item;
    }

    /** @return the tail item removed, or null when empty */
    @SuppressWarnings("unchecked")
    public @Nullable T pollLast() {
        if (size == 0) {
            return null;
        }
        int s = slot(size - 1);
        T item = (T) items[s];
        items[s] = null;
        size--;
        return item;
    }

    /**
     * Removes the entry at {@code index}, closing the gap (O(size)).
     *
     * @param index in [0, size)
     * @return the removed item
     */
    public T removeAt(int index) {
        T item = get(index);
        for (int i = index; i < size - 1; i++) {
            int to = slot(i);
            int from = slot(i + 1);
            items[to] = items[from];
            stamps[to] = stamps[from];
            deadlines[to] = deadlines[from];
        }
        items[slot(size - 1)] = null;
        size--;
        return item;
    }

    /** Empties the ring. */
    public void clear() {
        while (size > 0) {
            pollLast();
        }
        head = 0;
    }
}

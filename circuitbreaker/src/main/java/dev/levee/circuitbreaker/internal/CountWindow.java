package dev.levee.circuitbreaker.internal;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The last {@code size} calls, in a ring of outcome slots.
 *
 * <p><b>Recording.</b> {@code i = next.getAndIncrement()} gives the caller slot {@code i mod size}; the
 * slot's previous outcome is replaced by a CAS, and the packed totals are adjusted by the difference
 * only when the outcome changed. In steady state a success replaces a success, so a fast success costs
 * one atomic increment and one read.
 *
 * <p><b>A clean window is not written.</b> When the window is full and holds only fast successes, recording
 * another fast success would replace a success by a success: the window would not change. Such a success
 * returns after one read of the totals, without claiming a slot, so a healthy dependency's calls write no
 * shared memory at all and scale across cores. The index then simply stays put; the next failure takes
 * the slot it points at (a success, like all of them) and is evicted exactly {@code size} recordings
 * later, so the window still holds the last {@code size} calls.
 *
 * <p><b>Exactness.</b> Because each slot changes only by CAS and the totals move by exactly the
 * difference of each successful CAS, the totals always equal the sum over the slots once in-flight
 * recordings finish: no drift, so no periodic recount is needed. Two recordings share a slot only if
 * {@code size} other calls were recorded while one of them was between its increment and its CAS;
 * then the slot keeps one of the two outcomes (the window is, by definition, the last {@code size}).
 * The index wraps after 2<sup>31</sup> calls, which restarts the ring at slot 0 once: harmless.
 *
 * <p><b>No division per call.</b> The slot is {@code i mod size} with {@code size} known only at run time,
 * which a JIT compiles to an integer division (tens of cycles, on every call that claims a slot). It is
 * computed instead as {@code i − floor(i / size) × size} with {@code floor(i / size) = (i × m) >>> s}, where
 * {@code s = 31 + ceil(log2 size)} and {@code m = ceil(2^s / size)} (Granlund and Montgomery, "Division by
 * invariant integers using multiplication", 1994, theorem 4.2: exact for every {@code 0 <= i < 2^31}
 * because {@code 2^s <= m × size <= 2^s + 2^(s − 31)}); {@code i × m < 2^63}, so the product fits a
 * {@code long}.
 */
public final class CountWindow extends SlidingWindow {
    private final int size;
    /** {@code m = ceil(2^shift / size)}: {@code (i * m) >>> shift == i / size} for every {@code 0 <= i < 2^31}. */
    private final long reciprocal;
    /** {@code 31 + ceil(log2 size)}. */
    private final int shift;
    private final int minimumCalls;
    private final AtomicIntegerArray slots;
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicLong totals = new AtomicLong();
    /** The totals of a full window of fast successes. */
    private final long clean;

    /**
     * @param size the number of calls the window holds, in [1, 1 000 000]
     * @param minimumCalls the calls the window must hold before the rates may trip the breaker
     */
    public CountWindow(int size, int minimumCalls) {
        this.size = size;
        this.shift = shiftFor(size);
        this.reciprocal = reciprocalFor(size);
        this.minimumCalls = minimumCalls;
        this.slots = new AtomicIntegerArray(size);
        this.clean = pack(size, 0, 0);
    }

    @Override
    public boolean record(int outcome, long nowNanos) {
        if (outcome == SUCCESS) {
            if (totals.get() == clean) {
                return false;
            }
        }
        int slot = slotOf(next.getAndIncrement() & Integer.MAX_VALUE);
        int old = slots.get(slot);
        while (old != outcome) {
            if (slots.compareAndSet(slot, old, outcome)) {
                long before = totals.getAndAdd(delta(old, outcome));
                // A fast success lowers both rates; it can make a rule true only by filling an empty
                // slot that brings the window to its minimum (exactly one recording sees that count).
                return outcome != SUCCESS || (old == EMPTY && calls(before) + 1 == minimumCalls);
            }
            old = slots.get(slot);
        }
        return outcome != SUCCESS;
    }

    /**
     * {@code index mod size} without a division (see the class comment).
     *
     * @param index a non-negative index
     * @return the slot, in {@code [0, size)}
     */
    int slotOf(int index) {
        return mod(index, size, reciprocal, shift);
    }

    /** {@code index mod size} given {@link #reciprocalFor} and {@link #shiftFor} of {@code size}. */
    static int mod(int index, int size, long reciprocal, int shift) {
        return index - (int) ((index * reciprocal) >>> shift) * size;
    }

    /** {@code s = 31 + ceil(log2 size)}. */
    static int shiftFor(int size) {
        return 31 + (32 - Integer.numberOfLeadingZeros(size - 1));
    }

    /** {@code m = ceil(2^s / size)}. */
    static long reciprocalFor(int size) {
        return ((1L << shiftFor(size)) + size - 1) / size;
    }

    /** The change of the packed totals when a slot goes from {@code from} to {@code to}; fields may go negative in the delta, never in the sum. */
    private static long delta(int from, int to) {
        long calls = (from == EMPTY ? 1 : 0);
        long failures = (isFailure(to) ? 1 : 0) - (isFailure(from) ? 1 : 0);
        long slow = (isSlow(to) ? 1 : 0) - (isSlow(from) ? 1 : 0);
        return calls + (failures << FIELD_BITS) + (slow << (2 * FIELD_BITS));
    }

    @Override
    public long totals(long nowNanos) {
        return totals.get();
    }
}

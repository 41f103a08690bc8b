package dev.levee.loadshed.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A non-negative counter that increments only while below a bound: the in-flight count of a
 * concurrency limit. Lock-free and allocation-free.
 *
 * <p>Exactness: every successful {@link #tryIncrement} is one CAS from {@code v < bound} to
 * {@code v + 1}, and every {@link #decrement} one atomic add; so the value is exactly the number of
 * increments not yet matched by a decrement, and it never exceeds the largest bound an increment was
 * given. Not for users: may change without notice (a candidate for {@code core.internal}, where the
 * bulkhead's counter may move).
 */
public final class BoundedCounter extends BoundedCounterValue {
    private static final VarHandle VALUE;

    static {
        try {
            VALUE = MethodHandles.lookup().findVarHandle(BoundedCounterValue.class, "value", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Padding after the value, so no other object's fields share its cache line. */
    long p10, p11, p12, p13, p14, p15, p16, p17;

    /** A counter at zero. */
    public BoundedCounter() {}

    /**
     * Adds one if the value is below {@code bound}.
     *
     * @param bound the exclusive bound
     * @return the new value, or -1 if the value was already at or above the bound
     */
    public int tryIncrement(int bound) {
        int current;
        do {
            current = value;
            if (current >= bound) {
                return -1;
            }
        } while (!VALUE.weakCompareAndSet(this, current, current + 1));
        return current + 1;
    }

    /**
     * Subtracts one.
     *
     * @return the value before the decrement
     * @throws IllegalStateException if the value was zero (a release without an acquire); the counter
     *     is left at zero
     */
    public int decrement() {
        int before = (int) VALUE.getAndAdd(this, -1);
        if (before <= 0) {
            VALUE.getAndAdd(this, 1);
            throw new IllegalStateException("released more permits than were acquired");
        }
        return before;
    }

    /** @return the current value */
    public int get() {
        return value;
    }
}

/** Padding before the value (field layout keeps a superclass's fields first). */
abstract class BoundedCounterPad {
    long p00, p01, p02, p03, p04, p05, p06, p07;
}

/** The counted value, between two paddings. */
abstract class BoundedCounterValue extends BoundedCounterPad {
    volatile int value;
}

package dev.levee.core.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.IntSupplier;

/**
 * A non-negative count of permits held, incremented only below a limit that may change at any time:
 * the occupancy of a semaphore bulkhead and the in-flight count of a concurrency limit. Lock-free,
 * allocation-free, padded onto its own cache line. Not for users: may change without notice.
 *
 * <p><b>Exactness.</b> Every successful increment is one CAS from {@code v < limit} to {@code v + 1};
 * every decrement one CAS from {@code v > 0} to {@code v - 1}. The value is therefore exactly the
 * number of increments not yet matched by a decrement, and a decrement without a matching increment
 * is refused without touching the value. (Subtracting first and adding back on misuse would open a
 * window in which the value is -1 and one admission too many fits under the limit.)
 *
 * <p><b>A limit that moves.</b> {@link #tryIncrement(IntSupplier, Runnable)} re-reads the limit after
 * its CAS: if the limit fell between the read and the CAS and the new value is above it, the permit is
 * given back at once (and the caller told, so it can wake a waiter the transient permit may have
 * turned away) and the attempt starts over. So no holder is ever admitted above the limit in force
 * after its own admission. {@link #tryIncrement(int)} is the variant for an owner whose limit moves
 * only on its own completions (a concurrency limit): it admits below the limit it was given.
 *
 * <p><b>Retiring.</b> {@link #retire()} moves the value from 0 to {@link #RETIRED} in one CAS, above
 * every limit, so a holder of a stale reference can never increment it again (a keyed bulkhead evicts
 * an idle member this way).
 */
public final class BoundedCounter extends BoundedCounterValue {
    /** The value of a retired counter: above every limit, so no increment succeeds. */
    public static final int RETIRED = Integer.MAX_VALUE / 2;
    /** What {@link #decrement()} returns when the value was 0 or retired: nothing was changed. */
    public static final int NOT_HELD = -1;

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
     * Adds one if the value is below {@code limit}.
     *
     * @param limit the exclusive bound
     * @return the new value (at least 1), or -1 if the value was at or above the limit
     */
    public int tryIncrement(int limit) {
        int current = value;
        while (current < limit) {
            int witness = (int) VALUE.compareAndExchange(this, current, current + 1);
            if (witness == current) {
                return current + 1;
            }
            current = witness;
        }
        return -1;
    }

    /**
     * Adds one if the value is below the limit, re-checking the limit after the CAS: a permit that a
     * concurrent lowering of the limit left above it is given back, {@code gaveBack} runs, and the
     * attempt starts over.
     *
     * @param limit reads the limit in force (a volatile read)
     * @param gaveBack runs after a permit was given back (to wake a waiter it may have turned away)
     * @return the new value (at least 1, at most the limit read after the CAS), or -1 if full
     */
    public int tryIncrement(IntSupplier limit, Runnable gaveBack) {
        while (true) {
            int next = tryIncrement(limit.getAsInt());
            if (next < 0) {
                return -1;
            }
            if (next <= limit.getAsInt()) {
                return next;
            }
            decrement();
            gaveBack.run();
        }
    }

    /**
     * Subtracts one if the value is positive and the counter not retired.
     *
     * @return the value before the decrement (at least 1), or {@link #NOT_HELD} if the value was 0 or
     *     retired (a release without an acquire); then nothing was changed
     */
    public int decrement() {
        int current = value;
        while (current > 0 && current < RETIRED) {
            int witness = (int) VALUE.compareAndExchange(this, current, current - 1);
            if (witness == current) {
                return current;
            }
            current = witness;
        }
        return NOT_HELD;
    }

    /**
     * Retires the counter if it is at zero: from then on every increment fails and every decrement
     * returns {@link #NOT_HELD}.
     *
     * @return true if retired now; false if permits are held (or it was already retired)
     */
    public boolean retire() {
        return VALUE.compareAndSet(this, 0, RETIRED);
    }

    /** @return whether {@link #retire()} succeeded */
    public boolean isRetired() {
        return value >= RETIRED;
    }

    /** @return permits held now (0 once retired) */
    public int get() {
        int v = value;
        return v >= RETIRED ? 0 : v;
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

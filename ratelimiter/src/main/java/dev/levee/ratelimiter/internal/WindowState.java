package dev.levee.ratelimiter.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The state of a window algorithm: an origin, a window length, a limit, and one packed {@code long}
 * updated by CAS. Replaced whole (after sealing) when the rate changes.
 */
final class WindowState {
    static final long SEALED = Long.MIN_VALUE;
    static final VarHandle STATE;
    /** The clock lag tolerated between a caller's reading and its decision: one minute. */
    static final long LAG_NANOS = 60_000_000_000L;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(WindowState.class, "state", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final long origin;
    final long length;
    final long limit;
    /**
     * How many windows a late clock reading may lag the state's window and still be a late reading
     * ({@value #LAG_NANOS} ns' worth, at least 2); a larger lag means the wrapped window index
     * of a long idle gap (each algorithm caps it below half its index range).
     */
    final long lag;
    @SuppressWarnings("unused") // accessed through STATE
    volatile long state;

    WindowState(long origin, long length, long limit, long state) {
        this.origin = origin;
        this.length = length;
        this.limit = limit;
        this.lag = Math.max(2L, (LAG_NANOS + length - 1) / length);
        this.state = state;
    }

    /** The index of the window holding {@code now}; 0 before the origin. */
    long epochOf(long now) {
        long e = now - origin;
        return e <= 0 ? 0L : e / length;
    }

    long startOf(long epoch) {
        return origin + epoch * length;
    }

    long get() {
        return (long) STATE.getVolatile(this);
    }

    boolean cas(long expected, long value) {
        return STATE.compareAndSet(this, expected, value);
    }

    /**
     * A compare-and-exchange: the witness of a failed exchange is the state now, so a decider that
     * lost the race retries without reading the contended line again.
     *
     * @return the state found: {@code expected} if the exchange took place
     */
    long exchange(long expected, long value) {
        return (long) STATE.compareAndExchange(this, expected, value);
    }

    /** Seals this state and returns the value it held. */
    long seal() {
        long s;
        do {
            s = get();
        } while (!cas(s, SEALED));
        return s;
    }

    /**
     * Restores the value a failed rate change had sealed, so deciders are never left spinning on a seal.
     *
     * @param s the value {@link #seal()} returned
     */
    void unseal(long s) {
        STATE.setVolatile(this, s);
    }

    /**
     * {@code epoch − stored}, where the state stores the window index in the {@code 64 − countBits} bits
     * above its counts, so the index wraps modulo {@code 2^(64 − countBits)}. The difference is read as
     * a signed number of that width, except that a reading more than {@code min(lag, 2^(62 − countBits))}
     * windows behind the state is not a late reading but a wrapped index after a long idle gap, and is
     * returned as the (positive) gap modulo the index range.
     *
     * @param epoch the reading's window index
     * @param stored the index stored in the state
     * @param countBits how many low bits of the state hold counts
     * @return the windows elapsed since the stored one (negative for a late reading)
     */
    long epochDiff(long epoch, long stored, int countBits) {
        long d = ((epoch - stored) << countBits) >> countBits;
        long maxLag = 1L << (64 - countBits - 2);
        return d < -Math.min(lag, maxLag) ? d + (1L << (64 - countBits)) : d;
    }
}

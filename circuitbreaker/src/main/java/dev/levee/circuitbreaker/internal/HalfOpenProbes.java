package dev.levee.circuitbreaker.internal;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The probe accounting of one half-open round, in one {@code long} updated by CAS, so admission is exact
 * under any contention: a probe is admitted only by the CAS that raises {@code admitted} from below the
 * limit.
 *
 * <p>Fields, 12 bits each: {@code admitted} (probes out or back), {@code completed} (probes back and
 * recorded), {@code failures}, {@code slow}, {@code good} (succeeded and not slow). An ignored probe is
 * given back: {@code admitted} drops by one so another probe may go. A completion is recorded only while
 * {@code completed < admitted}, so stray completions can never count more outcomes than probes.
 */
public final class HalfOpenProbes {
    private static final int BITS = 12;
    private static final long MASK = (1L << BITS) - 1;
    private static final long ONE_ADMITTED = 1L;
    private static final long ONE_COMPLETED = 1L << BITS;
    private static final long ONE_FAILURE = 1L << (2 * BITS);
    private static final long ONE_SLOW = 1L << (3 * BITS);
    private static final long ONE_GOOD = 1L << (4 * BITS);

    private final int permitted;
    private final AtomicLong state = new AtomicLong();

    /**
     * @param permitted probes admitted per round, in [1, 1000]
     */
    public HalfOpenProbes(int permitted) {
        this.permitted = permitted;
    }

    /**
     * Admits a probe if fewer than {@code permitted} are admitted.
     *
     * @return true if admitted
     */
    public boolean tryAdmit() {
        while (true) {
            long s = state.get();
            if (admitted(s) >= permitted) {
                return false;
            }
            if (state.compareAndSet(s, s + ONE_ADMITTED)) {
                return true;
            }
        }
    }

    /** Gives back a probe whose outcome is ignored, if one is out. */
    public void release() {
        while (true) {
            long s = state.get();
            if (admitted(s) <= completed(s)) {
                return;
            }
            if (state.compareAndSet(s, s - ONE_ADMITTED)) {
                return;
            }
        }
    }

    /**
     * Records a probe's outcome.
     *
     * @param failed whether it failed
     * @param slow whether it was slow
     * @return the packed state after recording, or -1 if no probe was out (a stray completion)
     */
    public long record(boolean failed, boolean slow) {
        long add = ONE_COMPLETED + (failed ? ONE_FAILURE : 0) + (slow ? ONE_SLOW : 0) + (!failed && !slow ? ONE_GOOD : 0);
        while (true) {
            long s = state.get();
            if (completed(s) >= admitted(s)) {
                return -1L;
            }
            long next = s + add;
            if (state.compareAndSet(s, next)) {
                return next;
            }
        }
    }

    /** @return the packed state */
    public long snapshot() {
        return state.get();
    }

    /** @return probes admitted per round */
    public int permitted() {
        return permitted;
    }

    /**

     * @param s packed state

     * @return probes admitted and not given back

     */
    public static int admitted(long s) {
        return (int) (s & MASK);
    }

    /**

     * @param s packed state

     * @return probes back and recorded

     */
    public static int completed(long s) {
        return (int) ((s >>> BITS) & MASK);
    }

    /**

     * @param s packed state

     * @return probes that failed

     */
    public static int failures(long s) {
        return (int) ((s >>> (2 * BITS)) & MASK);
    }

    /**

     * @param s packed state

     * @return probes that were slow

     */
    public static int slow(long s) {
        return (int) ((s >>> (3 * BITS)) & MASK);
    }

    /**

     * @param s packed state

     * @return probes that succeeded and were not slow

     */
    public static int good(long s) {
        return (int) ((s >>> (4 * BITS)) & MASK);
    }
}

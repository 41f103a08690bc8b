package dev.levee.circuitbreaker.internal;

/**
 * The recent outcomes of a CLOSED (or METRICS_ONLY) breaker: how many calls, how many failed, how many
 * were slow. Lock-free; recording allocates nothing.
 *
 * <p>Outcome codes: {@link #SUCCESS}, {@link #FAILURE}, {@link #SLOW_SUCCESS}, {@link #SLOW_FAILURE}
 * ({@link #EMPTY} marks a count-window slot never written). A slow failure counts both as a failure and
 * as slow.
 *
 * <p>Threshold checks ({@link TripRules#breaches}) run after every recording that can make a rule true, which
 * {@link #record} reports: a failure or a slow call always; a fast success only when it can complete
 * the minimum number of calls (a count window whose call count just reached the minimum), or, in a
 * time window, when buckets may have expired since the last check (the first success in a bucket
 * after the rules last saw the window at or over its minimum) or the window is below its minimum.
 * Any other fast success only lowers both rates.
 */
public abstract class SlidingWindow {
    /** A count-window slot that holds no call yet. */
    public static final int EMPTY = 0;
    /** A call that succeeded within the slow-call threshold. */
    public static final int SUCCESS = 1;
    /** A call that failed within the slow-call threshold. */
    public static final int FAILURE = 2;
    /** A call that succeeded but was slow. */
    public static final int SLOW_SUCCESS = 3;
    /** A call that failed and was slow. */
    public static final int SLOW_FAILURE = 4;

    /** {@link TripRules#breaches} bit: the failure rate is at or over its threshold. */
    public static final int FAILURE_RATE = 1;
    /** {@link TripRules#breaches} bit: the slow-call rate is at or over its threshold. */
    public static final int SLOW_CALL_RATE = 2;

    /** Packed totals: 21 bits each of calls, failures, slow calls. */
    static final int FIELD_BITS = 21;
    static final long FIELD_MASK = (1L << FIELD_BITS) - 1;

    /**
     * The outcome code of a call.
     *
     * @param failed whether it counts as a failure
     * @param slow whether it was slow
     * @return the code
     */
    public static int outcome(boolean failed, boolean slow) {
        return failed ? (slow ? SLOW_FAILURE : FAILURE) : (slow ? SLOW_SUCCESS : SUCCESS);
    }

    static boolean isFailure(int code) {
        return code == FAILURE || code == SLOW_FAILURE;
    }

    static boolean isSlow(int code) {
        return code == SLOW_SUCCESS || code == SLOW_FAILURE;
    }

    /**
     * Records one call.
     *
     * @param outcome an outcome code other than {@link #EMPTY}
     * @param nowNanos the ticker reading at completion (ignored by a count window)
     * @return whether this recording can have made a rule true, so the caller must check
     *     the rules: always for a failure or a slow call
     */
    public abstract boolean record(int outcome, long nowNanos);

    /**
     * Tells the window that a check at {@code nowNanos} found at least the minimum number of calls, so
     * later fast successes in the same bucket need no check. A no-op for a count window.
     *
     * @param nowNanos the reading of that check
     */
    public void minimumSeen(long nowNanos) {}

    /**
     * The totals over the window, packed: calls, failures and slow calls, 21 bits each
     * (a time window saturates each field at 2<sup>21</sup> − 1 after scaling all three alike, which
     * keeps the rates). Decode with {@link #calls}, {@link #failures}, {@link #slowCalls}.
     *
     * @param nowNanos the ticker reading (ignored by a count window)
     * @return the packed totals
     */
    public abstract long totals(long nowNanos);

    /**

     * @param packed from {@link #totals}

     * @return calls in the window

     */
    public static long calls(long packed) {
        return packed & FIELD_MASK;
    }

    /**

     * @param packed from {@link #totals}

     * @return failed calls in the window

     */
    public static long failures(long packed) {
        return (packed >>> FIELD_BITS) & FIELD_MASK;
    }

    /**

     * @param packed from {@link #totals}

     * @return slow calls in the window

     */
    public static long slowCalls(long packed) {
        return (packed >>> (2 * FIELD_BITS)) & FIELD_MASK;
    }

    static long pack(long calls, long failures, long slow) {
        return calls | (failures << FIELD_BITS) | (slow << (2 * FIELD_BITS));
    }
}

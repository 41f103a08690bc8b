package dev.levee.circuitbreaker.internal;

/**
 * The window rules that open a CLOSED breaker, as pure functions of the window's packed totals
 * ({@link SlidingWindow#totals}): no state, no clock, no side effect, so each rule is testable alone.
 *
 * <pre>
 *   FAILURE_RATE    calls &gt;= minimumCalls  and  failures / calls &gt;= failureRateThreshold
 *   SLOW_CALL_RATE  calls &gt;= minimumCalls  and  slow / calls     &gt;= slowCallRateThreshold
 *   FAILURE_COUNT   failureCountThreshold &gt; 0  and  failures &gt;= failureCountThreshold
 * </pre>
 * Rates are fractions in (0, 1], compared as {@code part / (double) whole >= threshold}: the quotient
 * and a decimal threshold round to the same double when the rate equals it exactly (7 of 10 against
 * 0.7 trips; {@code part >= threshold × whole} would not, 0.7 × 10 being 7.000000000000001).
 */
public final class TripRules {
    /** {@link #breaches} bit: the failure rate is at or over its threshold. */
    public static final int FAILURE_RATE = SlidingWindow.FAILURE_RATE;
    /** {@link #breaches} bit: the slow-call rate is at or over its threshold. */
    public static final int SLOW_CALL_RATE = SlidingWindow.SLOW_CALL_RATE;
    /** {@link #breaches} bit: the window holds at least {@code failureCountThreshold} failures. */
    public static final int FAILURE_COUNT = 4;

    private final int minimumCalls;
    private final double failureRateThreshold;
    private final double slowCallRateThreshold;
    private final int failureCountThreshold;

    /**
     * @param minimumCalls calls the window must hold before the rate rules apply, at least 1
     * @param failureRateThreshold a fraction in (0, 1]
     * @param slowCallRateThreshold a fraction in (0, 1]
     * @param failureCountThreshold failures in the window that trip whatever the rate; 0 for off
     */
    public TripRules(int minimumCalls, double failureRateThreshold, double slowCallRateThreshold,
            int failureCountThreshold) {
        this.minimumCalls = minimumCalls;
        this.failureRateThreshold = failureRateThreshold;
        this.slowCallRateThreshold = slowCallRateThreshold;
        this.failureCountThreshold = failureCountThreshold;
    }

    /**
     * Which rules the totals break.
     *
     * @param totals packed totals from {@link SlidingWindow#totals}
     * @return a mask of {@link #FAILURE_RATE}, {@link #SLOW_CALL_RATE} and {@link #FAILURE_COUNT}; 0 when none
     */
    public int breaches(long totals) {
        long calls = SlidingWindow.calls(totals);
        long failures = SlidingWindow.failures(totals);
        long slow = SlidingWindow.slowCalls(totals);
        if (failures > calls || slow > calls) {
            // Two recordings racing on one count-window slot can leave the totals briefly inconsistent;
            // the next check sees them settled. Never trip on such a reading.
            return 0;
        }
        int mask = 0;
        if (failureCountThreshold > 0 && failures >= failureCountThreshold) {
            mask |= FAILURE_COUNT;
        }
        if (calls < minimumCalls || calls == 0) {
            return mask;
        }
        if (rate(failures, calls) >= failureRateThreshold) {
            mask |= FAILURE_RATE;
        }
        if (rate(slow, calls) >= slowCallRateThreshold) {
            mask |= SLOW_CALL_RATE;
        }
        return mask;
    }

    /**
     * Whether the window holds at least the minimum number of calls.
     *
     * @param totals packed totals
     * @return true when the rate rules apply
     */
    public boolean minimumReached(long totals) {
        return SlidingWindow.calls(totals) >= minimumCalls;
    }

    /**
     * Whether a half-open round must reopen: the failed (or slow) probes alone reach the threshold share
     * of all permitted probes, so the round can no longer end below it.
     *
     * @param failures probes that failed
     * @param slow probes that were slow
     * @param permitted probes permitted in the round
     * @return {@link #FAILURE_RATE}, {@link #SLOW_CALL_RATE}, or 0
     */
    public int probeBreach(int failures, int slow, int permitted) {
        if (rate(failures, permitted) >= failureRateThreshold) {
            return FAILURE_RATE;
        }
        if (rate(slow, permitted) >= slowCallRateThreshold) {
            return SLOW_CALL_RATE;
        }
        return 0;
    }

    /**
     * {@code part / whole}, 0 for an empty whole.
     *
     * @param part the part
     * @param whole the whole
     * @return a fraction
     */
    public static double rate(long part, long whole) {
        return whole == 0 ? 0.0 : (double) part / whole;
    }
}

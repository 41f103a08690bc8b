package dev.levee.core.internal;

import dev.levee.core.Deadline;
import dev.levee.core.Ticker;

/**
 * Time arithmetic shared by every bounded wait (the bulkheads', the concurrency limiter's): when a
 * wait must end, and how long to park on a ticker that may not be the system's. Not for users: may
 * change without notice.
 */
public final class Waits {
    /**
     * On a ticker other than the system one (a test's {@code ManualTicker}), a parked thread cannot be
     * woken by the ticker moving; it re-reads the ticker at least this often of real time instead.
     */
    public static final long FOREIGN_TICKER_RECHECK_NANOS = 1_000_000L;

    private Waits() {}

    /**
     * The instant, on {@code ticker}, at which a wait that starts at {@code nowNanos} must end: the
     * earlier of {@code now + maxWait} and the current deadline.
     *
     * @param ticker the waiting policy's ticker
     * @param nowNanos a reading of {@code ticker}
     * @param maxWaitNanos the policy's own limit
     * @return the end instant on {@code ticker}, saturated
     */
    public static long waitEnd(Ticker ticker, long nowNanos, long maxWaitNanos) {
        long end = Nanos.add(nowNanos, maxWaitNanos);
        Deadline deadline = Deadline.currentOrNull();
        if (deadline != null) {
            long remaining = deadline.ticker() == ticker ? deadline.remainingNanos(nowNanos) : deadline.remainingNanos();
            end = Math.min(end, Nanos.add(nowNanos, remaining));
        }
        return end;
    }

    /**
     * How long to park for a wait with {@code remainingNanos} left.
     *
     * @param ticker the ticker the wait is measured on
     * @param remainingNanos time left, positive
     * @return the park time in real nanoseconds
     */
    public static long parkNanos(Ticker ticker, long remainingNanos) {
        return ticker == Ticker.system() ? remainingNanos : Math.min(remainingNanos, FOREIGN_TICKER_RECHECK_NANOS);
    }

}

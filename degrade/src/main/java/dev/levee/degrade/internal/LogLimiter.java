package dev.levee.degrade.internal;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Lets one log line through per interval on an injected clock and counts the lines held back, so an
 * outage produces one WARN per interval that says how many fallbacks it stands for.
 *
 * <p>Exactness: of all the calls with {@code now} in one interval, exactly one wins the CAS on
 * {@code nextAllowed}; every other call is counted in {@code held} and reported exactly once, by a
 * later winner ({@code LongAdder.sumThenReset} takes each cell with one atomic swap, so a count is
 * neither lost nor reported twice; one held while a winner reads the count may go to that winner).
 */
public final class LogLimiter {
    private final long intervalNanos;
    private final AtomicLong nextAllowed;
    private final LongAdder held = new LongAdder();

    /**
     * @param intervalNanos the least time between two lines; 0 lets every line through
     * @param nowNanos the current reading; the first line is allowed at once
     */
    public LogLimiter(long intervalNanos, long nowNanos) {
        this.intervalNanos = intervalNanos;
        this.nextAllowed = new AtomicLong(nowNanos);
    }

    /**
     * Asks to log a line now.
     *
     * @param nowNanos the current reading
     * @return -1 if the line must be held back; otherwise how many lines were held back since the last
     *     one let through (and that count restarts)
     */
    public long tryLog(long nowNanos) {
        long next = nextAllowed.get();
        if (nowNanos - next >= 0 && nextAllowed.compareAndSet(next, nowNanos + intervalNanos)) {
            return held.sumThenReset();
        }
        held.increment();
        return -1L;
    }
}

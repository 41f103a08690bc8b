package dev.levee.core.internal;

import java.time.Duration;

/**
 * Saturating arithmetic on nanosecond {@code long}s: time math that clamps to
 * {@code [Long.MIN_VALUE, Long.MAX_VALUE]} instead of wrapping into the past or the future. Shared by
 * every module that adds durations to ticker readings.
 */
public final class Nanos {
    /**
     * The largest duration, in nanoseconds, that a state machine adds to ticker readings with plain
     * arithmetic: {@code Long.MAX_VALUE / 4}, about 73 years. Readings and such durations can then be
     * added (and their sums compared) without wrapping, so no saturation is needed on the hot path.
     */
    public static final long ARITHMETIC_CAP = Long.MAX_VALUE / 4;

    private Nanos() {}

    /**
     * {@code a + b}, saturated. Overflow happened iff both operands have the same sign and the
     * result's sign differs: {@code ((a ^ r) & (b ^ r)) < 0}.
     *
     * @param a an operand
     * @param b an operand
     * @return the saturated sum
     */
    public static long add(long a, long b) {
        long r = a + b;
        if (((a ^ r) & (b ^ r)) < 0) {
            return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        return r;
    }

    /**
     * {@code a - b}, saturated. Overflow happened iff the operands have different signs and the
     * result's sign differs from {@code a}'s: {@code ((a ^ b) & (a ^ r)) < 0}.
     *
     * @param a the minuend
     * @param b the subtrahend
     * @return the saturated difference
     */
    public static long subtract(long a, long b) {
        long r = a - b;
        if (((a ^ b) & (a ^ r)) < 0) {
            return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        return r;
    }

    /**
     * A duration's length in nanoseconds, saturated instead of throwing on overflow (a
     * {@code Duration} reaches about 292 years of nanoseconds before {@code toNanos()} fails).
     *
     * @param d a duration
     * @return its length in nanoseconds
     */
    public static long of(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException overflow) {
            return d.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }

    /**
     * A duration's length in nanoseconds, clamped to {@link #ARITHMETIC_CAP}, for state machines that
     * add it to ticker readings with plain arithmetic (a breaker's wait in open, a slow-call
     * threshold): {@code min(of(d), ARITHMETIC_CAP)}.
     *
     * @param d a duration
     * @return its length in nanoseconds, at most {@link #ARITHMETIC_CAP}
     */
    public static long ofCapped(Duration d) {
        return Math.min(of(d), ARITHMETIC_CAP);
    }
}

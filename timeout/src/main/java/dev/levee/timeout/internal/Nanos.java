package dev.levee.timeout.internal;

/** Saturating {@code long} arithmetic on nanoseconds: time math that clamps instead of wrapping. */
public final class Nanos {
    private Nanos() {}

    /**
     * {@code a + b}, clamped to {@code [Long.MIN_VALUE, Long.MAX_VALUE]}.
     *
     * @param a an operand
     * @param b an operand
     * @return the saturated sum
     */
    public static long add(long a, long b) {
        long r = a + b;
        // Overflow iff both operands have the same sign and the result's sign differs.
        if (((a ^ r) & (b ^ r)) < 0) {
            return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        return r;
    }

    /**
     * {@code a - b}, clamped to {@code [Long.MIN_VALUE, Long.MAX_VALUE]}.
     *
     * @param a the minuend
     * @param b the subtrahend
     * @return the saturated difference
     */
    public static long subtract(long a, long b) {
        long r = a - b;
        // Overflow iff the operands have different signs and the result's sign differs from a's.
        if (((a ^ b) & (a ^ r)) < 0) {
            return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        return r;
    }
}

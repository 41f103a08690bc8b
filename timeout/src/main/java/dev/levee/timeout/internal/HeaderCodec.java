package dev.levee.timeout.internal;

/**
 * Parses and formats relative-timeout header values. Total: parsing never throws and never
 * allocates, whatever the input (null, empty, binary garbage, a megabyte of digits); a bad value
 * yields one of the negative codes below.
 *
 * <p>Two formats, told apart by the last character:
 * <ul>
 *   <li><b>gRPC</b> ({@code grpc-timeout}): 1 to 8 ASCII digits and a unit, {@code H} hours,
 *       {@code M} minutes, {@code S} seconds, {@code m} milliseconds, {@code u} microseconds,
 *       {@code n} nanoseconds, e.g. {@code 250m};</li>
 *   <li><b>milliseconds</b>: a plain non-negative decimal integer, e.g. {@code 250}.</li>
 * </ul>
 * Spaces and tabs around the value are ignored (HTTP optional whitespace); nothing else is accepted:
 * no sign, no fraction, no inner spaces.
 */
public final class HeaderCodec {
    /** Not a valid value of either format. */
    public static final long MALFORMED = -1L;
    /** A minus sign followed by an otherwise valid number. */
    public static final long NEGATIVE = -2L;
    /** A well-formed number too large to represent in nanoseconds, or gRPC with more than 8 digits. */
    public static final long OVERFLOW = -3L;

    /** Longest value even looked at; longer input is malformed without scanning it. */
    static final int MAX_LENGTH = 32;
    private static final int GRPC_MAX_DIGITS = 8;

    private HeaderCodec() {}

    /**
     * Parses either format.
     *
     * @param value the header value, possibly null
     * @return the timeout in nanoseconds ({@code >= 0}), or {@link #MALFORMED}, {@link #NEGATIVE},
     *         {@link #OVERFLOW}
     */
    public static long parse(CharSequence value) {
        if (value == null) {
            return MALFORMED;
        }
        int start = 0;
        int end = value.length();
        while (start < end && isBlank(value.charAt(start))) {
            start++;
        }
        while (end > start && isBlank(value.charAt(end - 1))) {
            end--;
        }
        if (start == end || end - start > MAX_LENGTH) {
            return MALFORMED;
        }
        boolean negative = value.charAt(start) == '-';
        if (negative) {
            start++;
        }
        char last = value.charAt(end - 1);
        long unitNanos = unitNanos(last);
        int digitsEnd = unitNanos > 0 ? end - 1 : end;
        if (unitNanos == 0) {
            unitNanos = 1_000_000L; // a plain number is milliseconds
        }
        int digits = digitsEnd - start;
        if (digits <= 0) {
            return MALFORMED;
        }
        long number = 0;
        boolean overflow = false;
        for (int i = start; i < digitsEnd; i++) {
            char c = value.charAt(i);
            if (c < '0' || c > '9') {
                return MALFORMED;
            }
            if (number > (Long.MAX_VALUE - (c - '0')) / 10) {
                overflow = true; // keep scanning: garbage later in the value makes it malformed instead
            } else {
                number = number * 10 + (c - '0');
            }
        }
        if (negative) {
            return NEGATIVE;
        }
        if (overflow || (digitsEnd != end && digits > GRPC_MAX_DIGITS)) {
            return OVERFLOW;
        }
        if (number > Long.MAX_VALUE / unitNanos) {
            return OVERFLOW;
        }
        return number * unitNanos;
    }

    private static boolean isBlank(char c) {
        return c == ' ' || c == '\t';
    }

    /** The gRPC unit's length in nanoseconds, or 0 if {@code c} is not a unit. */
    private static long unitNanos(char c) {
        switch (c) {
            case 'H': return 3_600_000_000_000L;
            case 'M': return 60_000_000_000L;
            case 'S': return 1_000_000_000L;
            case 'm': return 1_000_000L;
            case 'u': return 1_000L;
            case 'n': return 1L;
            default: return 0L;
        }
    }

    /**
     * Formats a timeout as a gRPC value: the finest unit whose count fits in 8 digits, rounded down
     * (a callee must never get more time than the caller has). Zero or negative gives {@code 0n};
     * more than 99,999,999 hours gives {@code 99999999H}.
     *
     * @param nanos the timeout
     * @return the value, e.g. {@code 250000u}
     */
    public static String formatGrpc(long nanos) {
        if (nanos <= 0) {
            return "0n";
        }
        long limit = 100_000_000L;
        if (nanos < limit) {
            return nanos + "n";
        }
        long micros = nanos / 1_000L;
        if (micros < limit) {
            return micros + "u";
        }
        long millis = nanos / 1_000_000L;
        if (millis < limit) {
            return millis + "m";
        }
        long seconds = nanos / 1_000_000_000L;
        if (seconds < limit) {
            return seconds + "S";
        }
        long minutes = seconds / 60;
        if (minutes < limit) {
            return minutes + "M";
        }
        return Math.min(minutes / 60, limit - 1) + "H";
    }

    /**
     * Formats a timeout as whole milliseconds, rounded down; zero or negative gives {@code 0}.
     *
     * @param nanos the timeout
     * @return the value, e.g. {@code 250}
     */
    public static String formatMillis(long nanos) {
        return Long.toString(Math.max(0L, nanos / 1_000_000L));
    }
}

package dev.levee.http;

import dev.levee.core.internal.Validate;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Parses the HTTP {@code Retry-After} field (RFC 9110, section 10.2.3), which a server sends with a
 * 429 or a 503 to say when to come back.
 *
 * <p><b>Model.</b> The value is either <em>delta-seconds</em> ({@code 120}: wait two minutes) or an
 * <em>HTTP-date</em> (come back at that instant). All three date forms RFC 9110 requires a recipient
 * to accept are read: IMF-fixdate ({@code Sun, 06 Nov 1994 08:49:37 GMT}), RFC 850
 * ({@code Sunday, 06-Nov-94 08:49:37 GMT}) and asctime ({@code Sun Nov  6 08:49:37 1994}). A date is
 * turned into a wait against the injected wall {@link Clock}; a date in the past is a wait of zero.
 *
 * <p><b>Guarantees.</b> The value is untrusted input, so parsing never throws:
 * <ul>
 *   <li>ignored (the result is "no hint": {@code -1} or {@code null}): null, empty or blank, longer than
 *       {@value #MAX_LENGTH} characters, a sign ({@code -5}, {@code +5}), a fraction ({@code 1.5}),
 *       spaces inside the number, and anything that is neither digits nor a well-formed date;</li>
 *   <li>capped: a wait longer than the cap (default {@link #DEFAULT_MAX}, one day) is the cap — a
 *       twenty-digit number neither overflows nor waits for ever. A retry then compares the hint with
 *       its own {@code maxRetryAfter} and gives up rather than wait that long.</li>
 * </ul>
 * Surrounding spaces and tabs (HTTP's optional whitespace) are allowed.
 *
 * <p><b>Cost.</b> Delta-seconds: one pass over the characters, no allocation. A date: a
 * {@code DateTimeFormatter} parse (it allocates; dates are rare and only seen on the failure path).
 */
public final class RetryAfter {
    /** The field's name, {@code Retry-After}. */
    public static final String FIELD = "Retry-After";
    /** The default cap on a wait: one day. No real server asks a client to wait longer and still retry. */
    public static final Duration DEFAULT_MAX = Duration.ofDays(1);
    /** Longer values are ignored: an IMF-fixdate is 29 characters, an asctime date 24. */
    public static final int MAX_LENGTH = 64;

    private static final String POLICY = "RetryAfter";
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final long NANOS_PER_MILLI = 1_000_000L;
    private static final DateTimeFormatter IMF_FIXDATE =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter ASCTIME =
            DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss yyyy", Locale.US).withZone(ZoneOffset.UTC);

    private RetryAfter() {}

    /**
     * The wait a {@code Retry-After} value asks for, capped at {@link #DEFAULT_MAX}.
     *
     * @param value the field's value, may be null
     * @param clock the wall clock an HTTP-date is measured against
     * @return the wait, or null when the value is absent or ignored
     */
    public static @Nullable Duration parse(@Nullable CharSequence value, Clock clock) {
        return parse(value, clock, DEFAULT_MAX);
    }

    /**
     * The wait a {@code Retry-After} value asks for, capped at {@code max}.
     *
     * @param value the field's value, may be null
     * @param clock the wall clock an HTTP-date is measured against
     * @param max the longest wait returned, positive
     * @return the wait, or null when the value is absent or ignored
     * @throws dev.levee.core.InvalidConfigException if {@code clock} or {@code max} is null or
     *     {@code max} is not positive
     */
    public static @Nullable Duration parse(@Nullable CharSequence value, Clock clock, Duration max) {
        long nanos = parseNanos(value, clock, maxNanos(max));
        return nanos < 0 ? null : Duration.ofNanos(nanos);
    }

    /**
     * The wait a {@code Retry-After} value asks for, in nanoseconds, capped at {@code maxNanos}.
     * Allocation-free for delta-seconds.
     *
     * @param value the field's value, may be null
     * @param clock the wall clock an HTTP-date is measured against
     * @param maxNanos the longest wait returned, positive
     * @return the wait in nanoseconds ({@code 0 <= wait <= maxNanos}), or {@code -1} when the value is
     *     absent or ignored
     * @throws dev.levee.core.InvalidConfigException if {@code clock} is null or {@code maxNanos} is not positive
     */
    public static long parseNanos(@Nullable CharSequence value, Clock clock, long maxNanos) {
        Validate.notNull(POLICY, "clock", clock);
        Validate.positive(POLICY, "maxNanos", maxNanos);
        if (value == null || value.length() > MAX_LENGTH) {
            return -1;
        }
        int start = 0;
        int end = value.length();
        while (start < end && isWhitespace(value.charAt(start))) {
            start++;
        }
        while (end > start && isWhitespace(value.charAt(end - 1))) {
            end--;
        }
        if (start == end) {
            return -1;
        }
        if (isDigit(value.charAt(start))) {
            return deltaSeconds(value, start, end, maxNanos);
        }
        return httpDate(value.subSequence(start, end).toString(), clock, maxNanos);
    }

    private static long deltaSeconds(CharSequence value, int start, int end, long maxNanos) {
        long maxSeconds = maxNanos / NANOS_PER_SECOND;
        long seconds = 0;
        boolean capped = false;
        for (int i = start; i < end; i++) {
            char c = value.charAt(i);
            if (!isDigit(c)) {
                return -1;                                  // "1.5", "10 s", "12abc": not delta-seconds
            }
            if (!capped) {
                seconds = seconds * 10 + (c - '0');
                capped = seconds > maxSeconds;              // stop accumulating before any overflow
            }
        }
        return capped ? maxNanos : Math.min(maxNanos, seconds * NANOS_PER_SECOND);
    }

    private static long httpDate(String text, Clock clock, long maxNanos) {
        ZonedDateTime at = parseDate(text, clock);
        if (at == null) {
            return -1;
        }
        long waitMillis = at.toInstant().toEpochMilli() - clock.millis();
        if (waitMillis <= 0) {
            return 0;                                       // the instant has passed: no reason to wait
        }
        return waitMillis >= maxNanos / NANOS_PER_MILLI ? maxNanos : waitMillis * NANOS_PER_MILLI;
    }

    private static @Nullable ZonedDateTime parseDate(String text, Clock clock) {
        try {
            return ZonedDateTime.parse(text, IMF_FIXDATE);
        } catch (DateTimeParseException notImf) {
            // fall through to the obsolete forms
        }
        try {
            return ZonedDateTime.parse(text, rfc850(clock));
        } catch (DateTimeParseException notRfc850) {
            // fall through
        }
        try {
            return ZonedDateTime.parse(text, ASCTIME);
        } catch (DateTimeParseException notAsctime) {
            return null;
        }
    }

    /**
     * RFC 850 dates have a two-digit year. RFC 9110: one that appears more than 50 years in the future
     * is the most recent past year with those digits, so the century window is [now - 49, now + 50].
     */
    private static DateTimeFormatter rfc850(Clock clock) {
        int baseYear = ZonedDateTime.now(clock).getYear() - 49;
        return new DateTimeFormatterBuilder()
                .appendPattern("EEEE, dd-MMM-")
                .appendValueReduced(ChronoField.YEAR, 2, 2, baseYear)
                .appendPattern(" HH:mm:ss 'GMT'")
                .toFormatter(Locale.US)
                .withZone(ZoneOffset.UTC);
    }

    private static long maxNanos(Duration max) {
        Validate.notNull(POLICY, "max", max);
        Validate.positive(POLICY, "max", max);
        return max.compareTo(Duration.ofNanos(Long.MAX_VALUE)) >= 0 ? Long.MAX_VALUE : max.toNanos();
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isWhitespace(char c) {
        return c == ' ' || c == '\t';
    }
}

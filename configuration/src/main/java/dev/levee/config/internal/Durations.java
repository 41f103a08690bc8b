package dev.levee.config.internal;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/** Durations as configuration files write them: {@code 500ms}, {@code 5s}, {@code 1.5s}, {@code 2m}, ISO-8601. */
public final class Durations {
    private Durations() {}

    /**
     * Reads a duration: a decimal number with a unit ({@code ns}, {@code us} or {@code µs}, {@code ms},
     * {@code s}, {@code m}, {@code h}, {@code d}), or ISO-8601 ({@code PT5S}, {@code P1D}). A number
     * without a unit is refused: {@code 500} could mean milliseconds or seconds.
     *
     * @param text the value
     * @return the duration
     * @throws IllegalArgumentException if the text is not a duration or does not fit in a {@link Duration}
     */
    public static Duration parse(String text) {
        String t = text.trim();
        if (t.isEmpty()) {
            throw new IllegalArgumentException("empty");
        }
        char first = Character.toUpperCase(t.charAt(0));
        if (first == 'P' || (t.length() > 1 && (first == '-' || first == '+') && Character.toUpperCase(t.charAt(1)) == 'P')) {
            try {
                return Duration.parse(t);
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException("not ISO-8601", e);
            }
        }
        int unitStart = t.length();
        while (unitStart > 0 && Character.isLetter(t.charAt(unitStart - 1))) {
            unitStart--;
        }
        String number = t.substring(0, unitStart).trim();
        String unit = t.substring(unitStart).toLowerCase(Locale.ROOT);
        long nanosPerUnit = switch (unit) {
            case "ns" -> 1L;
            case "us", "µs" -> 1_000L;
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            case "m" -> 60_000_000_000L;
            case "h" -> 3_600_000_000_000L;
            case "d" -> 86_400_000_000_000L;
            default -> throw new IllegalArgumentException(unit.isEmpty() ? "no unit" : "unknown unit " + unit);
        };
        if (number.isEmpty()) {
            throw new IllegalArgumentException("no number");
        }
        try {
            BigDecimal nanos = new BigDecimal(number).multiply(BigDecimal.valueOf(nanosPerUnit));
            BigDecimal seconds = nanos.divideToIntegralValue(BigDecimal.valueOf(1_000_000_000L));
            long nanoPart = nanos.subtract(seconds.multiply(BigDecimal.valueOf(1_000_000_000L))).longValue();
            return Duration.ofSeconds(seconds.longValueExact(), nanoPart);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("not a number or out of range", e);
        }
    }

    /**
     * The shortest of the forms {@link #parse} reads that states {@code d} exactly, e.g. {@code 500ms}.
     *
     * @param d a duration
     * @return its text
     */
    public static String format(Duration d) {
        long nanos;
        try {
            nanos = d.toNanos();
        } catch (ArithmeticException tooLong) {
            return d.toString();
        }
        if (nanos == 0) {
            return "0s";
        }
        long[] units = {86_400_000_000_000L, 3_600_000_000_000L, 60_000_000_000L, 1_000_000_000L, 1_000_000L, 1_000L, 1L};
        String[] names = {"d", "h", "m", "s", "ms", "us", "ns"};
        for (int i = 0; i < units.length; i++) {
            if (nanos % units[i] == 0) {
                return (nanos / units[i]) + names[i];
            }
        }
        return nanos + "ns";
    }
}

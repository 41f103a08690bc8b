package dev.levee.config.internal;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/** The kinds of value a property can give a builder setter, and how each is read from text. */
public enum ValueKind {
    /** A {@link Duration}: {@code 500ms}, {@code 5s}, {@code 2m}, {@code 1h}, {@code 1d} or ISO-8601. */
    DURATION,
    /** A {@code long}. */
    LONG,
    /** An {@code int}. */
    INT,
    /** A {@code double}; ratios are fractions ({@code 0.5} = 50 %). */
    DOUBLE,
    /** A {@code boolean}: {@code true} or {@code false}. */
    BOOLEAN,
    /** An enum constant, by name, case-insensitive. */
    ENUM,
    /** A string, as written. */
    STRING,
    /** A no-argument builder method, called when the property is {@code true}. */
    SWITCH;

    /**
     * The kind of a setter's parameter type.
     *
     * @param type the parameter type
     * @return the kind, or null when no property can give it
     */
    public static @Nullable ValueKind of(Class<?> type) {
        if (type == Duration.class) {
            return DURATION;
        }
        if (type == long.class || type == Long.class) {
            return LONG;
        }
        if (type == int.class || type == Integer.class) {
            return INT;
        }
        if (type == double.class || type == Double.class) {
            return DOUBLE;
        }
        if (type == boolean.class || type == Boolean.class) {
            return BOOLEAN;
        }
        if (type.isEnum()) {
            return ENUM;
        }
        if (type == String.class) {
            return STRING;
        }
        return null;
    }

    /**
     * How the kind is described in errors and in {@code docs/configuration.md}.
     *
     * @param type the parameter type (for enums, its constants are listed)
     * @return e.g. {@code "a duration (500ms, 5s, PT5S)"}
     */
    public String describe(@Nullable Class<?> type) {
        return switch (this) {
            case DURATION -> "a duration (500ms, 5s, 2m, 1h, 1d or ISO-8601 such as PT5S)";
            case LONG -> "an integer";
            case INT -> "an integer (at most " + Integer.MAX_VALUE + ")";
            case DOUBLE -> "a number (ratios are fractions: 0.5 is 50 %)";
            case BOOLEAN -> "true or false";
            case ENUM -> "one of " + (type == null ? "its constants" : Arrays.toString(type.getEnumConstants()));
            case STRING -> "a string";
            case SWITCH -> "true (calls the builder method; false leaves it alone)";
        };
    }

    /**
     * Reads {@code text} as this kind.
     *
     * @param text the property's value, trimmed
     * @param type the parameter type (for enums)
     * @return the value, or null for a switch set to {@code false}
     * @throws IllegalArgumentException if the text is not of this kind
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public @Nullable Object parse(String text, Class<?> type) {
        switch (this) {
            case DURATION:
                return Durations.parse(text);
            case LONG:
                return Long.parseLong(text);
            case INT:
                return Integer.parseInt(text);
            case DOUBLE: {
                double d = Double.parseDouble(text);
                if (Double.isNaN(d) || Double.isInfinite(d) || text.endsWith("d") || text.endsWith("D")
                        || text.endsWith("f") || text.endsWith("F")) {
                    throw new IllegalArgumentException("not a finite number");
                }
                return d;
            }
            case BOOLEAN:
            case SWITCH: {
                String lower = text.toLowerCase(Locale.ROOT);
                if (!lower.equals("true") && !lower.equals("false")) {
                    throw new IllegalArgumentException("not a boolean");
                }
                return Boolean.valueOf(lower);
            }
            case ENUM: {
                String wanted = text.replace('-', '_');
                for (Object constant : type.getEnumConstants()) {
                    if (((Enum) constant).name().equalsIgnoreCase(wanted)) {
                        return constant;
                    }
                }
                throw new IllegalArgumentException("not a constant");
            }
            case STRING:
            default:
                return text;
        }
    }
}

package dev.levee.health.internal;

import java.util.Iterator;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A minimal JSON writer for health reports: objects, arrays, strings, numbers, booleans, null.
 *
 * <p>Strings are escaped so the output is pure ASCII: {@code "} and {@code \} get a backslash, the
 * usual control characters their short escapes, every other character below U+0020 or above U+007E
 * (and {@code <}, {@code >}, {@code &}, so a body pasted into HTML stays inert) a {@code \\uXXXX}
 * escape of its UTF-16 unit. A lone surrogate thus survives as an escape instead of becoming
 * {@code ?}. Non-finite doubles become {@code null} (JSON has no NaN). Any other value is written as
 * its {@code toString()}.
 */
public final class Json {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private Json() {}

    /**
     * Appends any supported value.
     *
     * @param out the buffer
     * @param value the value
     */
    public static void value(StringBuilder out, @Nullable Object value) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof String) {
            string(out, (String) value);
        } else if (value instanceof Boolean) {
            out.append(((Boolean) value).booleanValue());
        } else if (value instanceof Double || value instanceof Float) {
            number(out, ((Number) value).doubleValue());
        } else if (value instanceof Long || value instanceof Integer || value instanceof Short
                || value instanceof Byte) {
            out.append(((Number) value).longValue());
        } else if (value instanceof Number) {
            // BigDecimal, BigInteger, atomics: their toString is a valid JSON number unless it is not finite.
            double d = ((Number) value).doubleValue();
            if (Double.isFinite(d)) {
                out.append(value);
            } else {
                out.append("null");
            }
        } else if (value instanceof Map) {
            object(out, (Map<?, ?>) value);
        } else if (value instanceof Iterable) {
            array(out, ((Iterable<?>) value).iterator());
        } else if (value instanceof Object[]) {
            array(out, java.util.Arrays.asList((Object[]) value).iterator());
        } else {
            string(out, value.toString());
        }
    }

    /**
     * Appends a double, or {@code null} if it is not finite.
     *
     * @param out the buffer
     * @param d the number
     */
    public static void number(StringBuilder out, double d) {
        if (!Double.isFinite(d)) {
            out.append("null");
        } else if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            out.append((long) d);
        } else {
            out.append(d);
        }
    }

    private static void object(StringBuilder out, Map<?, ?> map) {
        out.append('{');
        boolean first = true;
        for (Map.Entry<?, ?> e : map.entrySet()) {
            if (!first) {
                out.append(',');
            }
            first = false;
            string(out, String.valueOf(e.getKey()));
            out.append(':');
            value(out, e.getValue());
        }
        out.append('}');
    }

    private static void array(StringBuilder out, Iterator<?> items) {
        out.append('[');
        boolean first = true;
        while (items.hasNext()) {
            if (!first) {
                out.append(',');
            }
            first = false;
            value(out, items.next());
        }
        out.append(']');
    }

    /**
     * Appends a quoted, escaped string.
     *
     * @param out the buffer
     * @param s the string
     */
    public static void string(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"':
                    out.append("\\\"");
                    break;
                case '\\':
                    out.append("\\\\");
                    break;
                case '\n':
                    out.append("\\n");
                    break;
                case '\r':
                    out.append("\\r");
                    break;
                case '\t':
                    out.append("\\t");
                    break;
                case '\b':
                    out.append("\\b");
                    break;
                case '\f':
                    out.append("\\f");
                    break;
                default:
                    if (c < 0x20 || c > 0x7e || c == '<' || c == '>' || c == '&') {
                        out.append("\\u").append(HEX[(c >> 12) & 0xf]).append(HEX[(c >> 8) & 0xf])
                                .append(HEX[(c >> 4) & 0xf]).append(HEX[c & 0xf]);
                    } else {
                        out.append(c);
                    }
            }
        }
        out.append('"');
    }
}

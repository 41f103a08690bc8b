package dev.levee.core.internal;

import dev.levee.core.InvalidConfigException;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * Bounds checks for builders' {@code build()} methods, throwing {@link InvalidConfigException} with a
 * message that names the policy, field, bound and value. {@code policy} is the description used in
 * the message, e.g. {@code Validate.describe("CircuitBreaker", name)}.
 */
public final class Validate {
    private Validate() {}

    /**
     * Describes a policy for messages.
     *
     * @param kind the policy kind, e.g. {@code CircuitBreaker}
     * @param name the policy's name
     * @return e.g. {@code CircuitBreaker 'payments'}
     */
    public static String describe(String kind, String name) {
        return kind + " '" + name + "'";
    }

    /**
     * Requires a non-null value.
     *
     * @param policy the policy description
     * @param field the field
     * @param value the value
     * @param <T> the value type
     * @return the value
     */
    public static <T> T notNull(String policy, String field, @Nullable T value) {
        if (value == null) {
            throw new InvalidConfigException(policy, field, "set (not null)", null);
        }
        return value;
    }

    /**
     * Requires a non-blank name.
     *
     * @param policy the policy kind, e.g. {@code CircuitBreaker}
     * @param name the name given
     * @return the name
     */
    public static String name(String policy, @Nullable String name) {
        if (name == null || name.isBlank()) {
            throw new InvalidConfigException(policy, "name", "a non-blank string", name == null ? null : "'" + name + "'");
        }
        return name;
    }

    /**
     * Requires {@code value > 0}.
     *
     * @param policy the policy description
     * @param field the field
     * @param value the value
     * @return the value
     */
    public static long positive(String policy, String field, long value) {
        if (value <= 0) {
            throw new InvalidConfigException(policy, field, "> 0", value);
        }
        return value;
    }

    /**
     * Requires {@code value > 0} and finite.
     *
     * @param policy the policy description
     * @param field the field
     * @param value the value
     * @return the value
     */
    public static double positive(String policy, String field, double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new InvalidConfigException(policy, field, "> 0 and finite", value);
        }
        return value;
    }

    /**
     * Requires {@code value >= 0}.
     *
     * @param policy the policy description
     * @param field the field
     * @param value the value
     * @return the value
     */
    public static long nonNegative(String policy, String field, long value) {
        if (value < 0) {
            throw new InvalidConfigException(policy, field, ">= 0", value);
        }
        return value;
    }

    /**
     * Requires {@code min <= value <= max}.
     *
     * @param policy the policy description
     * @param field the field
     * @param value the value
     * @param min the inclusive minimum
     * @param max the inclusive maximum
     * @return the value
     */
    public static long inRange(String policy, String field, long value, long min, long max) {
        if (value < min || value > max) {
            throw new InvalidConfigException(policy, field, "in [" + min + ", " + max + "]", value);
        }
        return value;
    }

    /**
     * Requires {@code min <= value <= max} (and not NaN).
     *
     * @param policy the policy description
     * @param field the field
     * @param value the value
     * @param min the inclusive minimum
     * @param max the inclusive maximum
     * @return the value
     */
    public static double inRange(String policy, String field, double value, double min, double max) {
        if (!(value >= min && value <= max)) {
            throw new InvalidConfigException(policy, field, "in [" + min + ", " + max + "]", value);
        }
        return value;
    }

    /**
     * Requires a duration {@code > 0}.
     *
     * @param policy the policy description
     * @param field the field
     * @param value the value
     * @return the value
     */
    public static Duration positive(String policy, String field, @Nullable Duration value) {
        Duration v = notNull(policy, field, value);
        if (v.isNegative() || v.isZero()) {
            throw new InvalidConfigException(policy, field, "> 0", v);
        }
        return v;
    }

    /**
     * Requires a duration {@code >= 0}.
     *
     * @param policy the policy description
     * @param field the field
     * @param value the value
     * @return the value
     */
    public static Duration nonNegative(String policy, String field, @Nullable Duration value) {
        Duration v = notNull(policy, field, value);
        if (v.isNegative()) {
            throw new InvalidConfigException(policy, field, ">= 0", v);
        }
        return v;
    }

    /**
     * Requires a condition relating fields, e.g. {@code min <= max}.
     *
     * @param condition the condition that must hold
     * @param policy the policy description
     * @param field the field reported
     * @param bound the rule, e.g. {@code "<= maxRate (100.0)"}
     * @param value the value given
     */
    public static void check(boolean condition, String policy, String field, String bound, @Nullable Object value) {
        if (!condition) {
            throw new InvalidConfigException(policy, field, bound, value);
        }
    }
}

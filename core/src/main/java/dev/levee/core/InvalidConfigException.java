package dev.levee.core;

import org.jspecify.annotations.Nullable;

/**
 * A builder's {@code build()} found a value out of bounds. The message names the policy, the field,
 * the bound and the value given, e.g.
 * {@code CircuitBreaker 'payments': failureRateThreshold must be in (0, 100] but was 150.0}.
 */
public class InvalidConfigException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String policy;
    private final String field;

    /**
     * @param policy the policy description, e.g. {@code CircuitBreaker 'payments'}
     * @param field the field name as it appears in the builder
     * @param bound the rule, e.g. {@code "> 0"} or {@code "in [1, 100]"}
     * @param value the value given
     */
    public InvalidConfigException(String policy, String field, String bound, @Nullable Object value) {
        super(policy + ": " + field + " must be " + bound + " but was " + value);
        this.policy = policy;
        this.field = field;
    }

    /**
     * The policy whose config was invalid.
     *
     * @return the policy description
     */
    public String policy() {
        return policy;
    }

    /**
     * The invalid field.
     *
     * @return the field name
     */
    public String field() {
        return field;
    }
}

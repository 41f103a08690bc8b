package dev.levee.config;

import org.jspecify.annotations.Nullable;

/**
 * One configurable field of a config class, as a property key.
 *
 * @param pattern the pattern key, e.g. {@code circuitbreaker}
 * @param field the builder method, e.g. {@code failureRateThreshold}
 * @param type what the value must be, e.g. {@code a duration (500ms, 5s, ...)}
 * @param defaultValue the builder's default as text, {@code none} for an unset optional, or null when
 *     the config has no plain accessor for it
 */
public record PropertyKey(String pattern, String field, String type, @Nullable String defaultValue) {

    /**
     * The key for a policy name.
     *
     * @param name the policy name, or {@link LeveeProperties#DEFAULT_NAME}
     * @return {@code levee.<pattern>.<name>.<field>}
     */
    public String key(String name) {
        return LeveeProperties.PREFIX + pattern + "." + name + "." + field;
    }
}

package dev.levee.config;

import dev.levee.config.internal.BuilderIntrospection;
import dev.levee.config.internal.BuilderIntrospection.Nested;
import dev.levee.config.internal.BuilderIntrospection.Setter;
import dev.levee.config.internal.ValueKind;
import dev.levee.core.InvalidConfigException;
import dev.levee.core.PolicyRegistry;
import dev.levee.core.internal.Validate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiFunction;

/**
 * Builds Levee configs, policies and registries from flat properties — a {@code .properties} file, a
 * {@link Map} from Spring's {@code Environment}, Quarkus' or Micronaut's config, environment variables —
 * without depending on any framework.
 *
 * <pre>
 *   levee.circuitbreaker.default.failureRateThreshold = 0.5
 *   levee.circuitbreaker.default.waitDurationInOpen   = 30s
 *   levee.circuitbreaker.payments.waitDurationInOpen  = 5s        # payments inherits the 0.5
 *   levee.retry.payments.maxAttempts                  = 4
 *   levee.ratelimiter.search.limit                    = 100
 *   levee.ratelimiter.search.period                   = 1s
 * </pre>
 * <pre>{@code
 * LeveeProperties levee = LeveeProperties.of(properties);
 * CircuitBreaker payments = levee.policy(CircuitBreakerConfig.class, "payments", CircuitBreaker::of);
 * PolicyRegistry<RetryConfig, Retry> retries = levee.registry(RetryConfig.class, Retry::of);
 * }</pre>
 *
 * <p><b>Model.</b> A key is {@code levee.<pattern>.<name>.<field>}: {@code <pattern>} is the config
 * class's simple name without {@code Config}, in lower case ({@code circuitbreaker},
 * {@code ratelimiter}, {@code retrybudget}, …; {@link #patterns()} lists them); {@code <name>} is the
 * policy's name; {@code <field>} is the name of the builder method the value is given to
 * ({@code failureRateThreshold}; {@code failure-rate-threshold} and {@code failure_rate_threshold} also
 * match). The config for a name starts from the builder's defaults, then takes the
 * {@code levee.<pattern>.default.*} values, then the name's own. Every scalar setter is a key (numbers,
 * booleans, durations, enums, strings) and every no-argument switch ({@code retryAll},
 * {@code unlimitedAttempts}) is a key set to {@code true}; setters taking objects (tickers, executors,
 * predicates, connections) are code-only. A setter taking another Levee config (a Redis limiter's
 * {@code rate}, a store's {@code storeBreaker}) is code-only as an object, and each scalar field of that
 * config is a key named {@code <setter><Field>} ({@code rateLimit}, {@code storeBreakerWaitDurationInOpen}),
 * starting from the outer config's default for it. {@code docs/configuration.md} lists every key with
 * its type and default.
 *
 * <p><b>Values.</b> Durations: a number and a unit ({@code 500ms}, {@code 5s}, {@code 1.5s},
 * {@code 2m}, {@code 1h}, {@code 1d}, {@code 250us}, {@code 100ns}) or ISO-8601 ({@code PT5S}); a bare
 * number is refused, since it could be milliseconds or seconds. Ratios are fractions ({@code 0.5} is
 * 50 %). Enums by constant name, case-insensitive. Surrounding spaces are trimmed.
 *
 * <p><b>Errors.</b> Every error is an {@link InvalidConfigException} whose {@code field()} is the full
 * key and whose message names the key, the bound and the value: a key whose pattern or field does not
 * exist (caught by {@link #of}, so a typo fails at startup), a value of the wrong kind, and any bound
 * the builder's {@code build()} enforces, e.g.
 * {@code CircuitBreakerConfig 'payments': levee.circuitbreaker.payments.failureRateThreshold must be in
 * (0, 1] but was 1.5}. Keys outside {@code levee.} are ignored.
 *
 * <p><b>Cost.</b> Reflection over each config's builder, once per config class; building a config
 * costs what calling its builder costs. Nothing here is on a call path. Immutable and thread-safe.
 */
public final class LeveeProperties {
    /** Every key starts with this. */
    public static final String PREFIX = "levee.";
    /** The name whose values every other name of the same pattern inherits. */
    public static final String DEFAULT_NAME = "default";

    private static final String POLICY = "LeveeProperties";

    /** pattern -> name -> normalized field -> (key, value). */
    private final Map<String, Map<String, Map<String, Entry>>> byPattern;

    private record Entry(String key, String value) {}

    private LeveeProperties(Map<String, String> source) {
        Map<String, Map<String, Map<String, Entry>>> parsed = new TreeMap<>();
        for (Map.Entry<String, String> e : new TreeMap<>(source).entrySet()) {
            String key = e.getKey().trim();
            if (!key.startsWith(PREFIX)) {
                continue;
            }
            String rest = key.substring(PREFIX.length());
            int firstDot = rest.indexOf('.');
            int lastDot = rest.lastIndexOf('.');
            if (firstDot <= 0 || lastDot == firstDot || lastDot == rest.length() - 1) {
                throw new InvalidConfigException(POLICY, key, "of the form levee.<pattern>.<name>.<field>", e.getValue());
            }
            String pattern = rest.substring(0, firstDot).toLowerCase(java.util.Locale.ROOT);
            String name = rest.substring(firstDot + 1, lastDot);
            String field = rest.substring(lastDot + 1);
            Class<?> configType = ConfigPatterns.KNOWN.get(pattern);
            if (configType == null) {
                throw new InvalidConfigException(POLICY, key, "about a known pattern, one of " + ConfigPatterns.KNOWN.keySet(),
                        pattern);
            }
            BuilderIntrospection builder = BuilderIntrospection.of(configType);
            if (builder.setter(field) == null) {
                List<String> fields = builder.setters().stream().map(Setter::field).toList();
                String hint = "";
                if (builder.codeOnly().stream().anyMatch(m -> BuilderIntrospection.normalize(m).equals(BuilderIntrospection.normalize(field)))) {
                    boolean hasFields = builder.setters().stream().anyMatch(s -> s.nested() != null
                            && BuilderIntrospection.normalize(s.nested().owner()).equals(BuilderIntrospection.normalize(field)));
                    hint = " (" + field + " takes an object: set it in code" + (hasFields ? ", or its fields as the keys "
                            + field + "<Field>" : "") + ")";
                }
                throw new InvalidConfigException(POLICY, key, "a field of " + configType.getSimpleName() + hint + ", one of "
                        + fields, field);
            }
            parsed.computeIfAbsent(pattern, p -> new TreeMap<>())
                    .computeIfAbsent(name, n -> new TreeMap<>())
                    .put(BuilderIntrospection.normalize(field), new Entry(key, e.getValue() == null ? "" : e.getValue().trim()));
        }
        this.byPattern = parsed;
    }

    /**
     * Reads the {@code levee.*} keys of {@code properties}.
     *
     * @param properties the properties (their string values; others are ignored)
     * @return the binder
     * @throws InvalidConfigException if a {@code levee.*} key names no known pattern or field
     */
    public static LeveeProperties of(Properties properties) {
        Validate.notNull(POLICY, "properties", properties);
        Map<String, String> map = new LinkedHashMap<>();
        for (String name : properties.stringPropertyNames()) {
            map.put(name, properties.getProperty(name));
        }
        return new LeveeProperties(map);
    }

    /**
     * Reads the {@code levee.*} keys of {@code properties}.
     *
     * @param properties key to value
     * @return the binder
     * @throws InvalidConfigException if a {@code levee.*} key names no known pattern or field
     */
    public static LeveeProperties of(Map<String, String> properties) {
        Validate.notNull(POLICY, "properties", properties);
        return new LeveeProperties(properties);
    }

    /**
     * The config classes properties can build, by pattern key ({@code circuitbreaker} →
     * {@code CircuitBreakerConfig.class}).
     *
     * @return pattern to config class, sorted by pattern
     */
    public static Map<String, Class<?>> patterns() {
        return ConfigPatterns.KNOWN;
    }

    /**
     * The pattern key of a config class: its simple name without {@code Config}, in lower case.
     *
     * @param configType a config class
     * @return e.g. {@code circuitbreaker}
     */
    public static String patternOf(Class<?> configType) {
        return ConfigPatterns.patternOf(configType);
    }

    /**
     * The names that have keys for a config class (not counting {@value #DEFAULT_NAME}).
     *
     * @param configType a config class
     * @return the names, sorted
     */
    public Set<String> names(Class<?> configType) {
        Map<String, Map<String, Entry>> names = byPattern.getOrDefault(patternOf(configType), Map.of());
        Set<String> out = new TreeSet<>(names.keySet());
        out.remove(DEFAULT_NAME);
        return Collections.unmodifiableSet(out);
    }

    /**
     * The config for {@code name}: the builder's defaults, then the {@value #DEFAULT_NAME} values, then
     * the name's own.
     *
     * @param configType a config class, e.g. {@code CircuitBreakerConfig.class}
     * @param name the policy name
     * @param <C> the config type
     * @return the built config
     * @throws InvalidConfigException naming the key, the bound and the value, for a value of the wrong
     *     kind or one the builder refuses
     */
    public <C> C config(Class<C> configType, String name) {
        Validate.notNull(POLICY, "configType", configType);
        Validate.notNull(POLICY, "name", name);
        String pattern = patternOf(configType);
        BuilderIntrospection builder = BuilderIntrospection.of(configType);
        Map<String, Map<String, Entry>> names = byPattern.getOrDefault(pattern, Map.of());
        Map<String, Entry> merged = new TreeMap<>(names.getOrDefault(DEFAULT_NAME, Map.of()));
        merged.putAll(names.getOrDefault(name, Map.of()));
        String policy = configType.getSimpleName() + " '" + name + "'";
        Object b = builder.newBuilder();
        Map<String, Object> nestedBuilders = new LinkedHashMap<>();     // owner -> the nested config's builder
        Map<String, Nested> nestedFields = new LinkedHashMap<>();       // owner -> any of its fields
        for (Map.Entry<String, Entry> e : merged.entrySet()) {
            Setter setter = Objects.requireNonNull(builder.setter(e.getKey()));
            Entry entry = e.getValue();
            Object value;
            try {
                value = setter.kind().parse(entry.value(), setter.method().getParameterCount() == 1
                        ? setter.method().getParameterTypes()[0] : boolean.class);
            } catch (IllegalArgumentException notOfKind) {
                InvalidConfigException error = new InvalidConfigException(policy, entry.key(),
                        setter.kind().describe(setter.method().getParameterCount() == 1 ? setter.method().getParameterTypes()[0] : null),
                        "'" + entry.value() + "'");
                error.initCause(notOfKind);
                throw error;
            }
            if (setter.kind() == ValueKind.SWITCH && Boolean.FALSE.equals(value)) {
                continue;
            }
            try {
                Nested nested = setter.nested();
                if (nested == null) {
                    builder.set(b, setter, value);
                } else {
                    nestedFields.putIfAbsent(nested.owner(), nested);
                    Object nb = nestedBuilders.computeIfAbsent(nested.owner(), o -> builder.newNestedBuilder(nested));
                    nested.inner().set(nb, nested.setter(), value);
                }
            } catch (InvalidConfigException refused) {
                throw rename(refused, policy, entry.key(), pattern, name);
            }
        }
        // A nested config (a Redis limiter's rate, a store's breaker) is built from its keys, then given whole.
        for (Map.Entry<String, Object> e : nestedBuilders.entrySet()) {
            Nested nested = Objects.requireNonNull(nestedFields.get(e.getKey()));
            Object config;
            try {
                config = nested.inner().build(e.getValue());
            } catch (InvalidConfigException refused) {
                throw rename(refused, policy, keyOf(merged, pattern, name, nested.owner() + "." + refused.field()), pattern, name);
            }
            try {
                builder.setNested(b, nested, config);
            } catch (InvalidConfigException refused) {
                throw rename(refused, policy, keyOf(merged, pattern, name, refused.field()), pattern, name);
            }
        }
        try {
            return configType.cast(builder.build(b));
        } catch (InvalidConfigException refused) {
            throw rename(refused, policy, keyOf(merged, pattern, name, refused.field()), pattern, name);
        }
    }

    /** The key that supplied a field a builder refused (the name's own or the inherited default one). */
    private static String keyOf(Map<String, Entry> merged, String pattern, String name, String refusedField) {
        Entry entry = merged.get(BuilderIntrospection.normalize(refusedField));
        if (entry != null) {
            return entry.key();
        }
        // Not set by a key (a cross-field rule, or a default): name the key the field would have.
        String[] parts = refusedField.split("\\.");
        StringBuilder field = new StringBuilder(parts[0]);
        for (int i = 1; i < parts.length; i++) {
            if (!parts[i].isEmpty()) {
                field.append(Character.toUpperCase(parts[i].charAt(0))).append(parts[i].substring(1));
            }
        }
        return PREFIX + pattern + "." + name + "." + field;
    }

    /**
     * The config for {@value #DEFAULT_NAME}: the builder's defaults and the default values.
     *
     * @param configType a config class
     * @param <C> the config type
     * @return the built config
     * @throws InvalidConfigException naming the key, the bound and the value
     */
    public <C> C defaultConfig(Class<C> configType) {
        return config(configType, DEFAULT_NAME);
    }

    /**
     * The policy {@code name}, built from its config by {@code factory} (e.g. {@code CircuitBreaker::of}).
     *
     * @param configType a config class
     * @param name the policy name
     * @param factory the pattern's {@code of(name, config)}
     * @param <C> the config type
     * @param <P> the policy type
     * @return a new policy
     * @throws InvalidConfigException naming the key, the bound and the value
     */
    public <C, P> P policy(Class<C> configType, String name, BiFunction<String, C, P> factory) {
        Validate.notNull(POLICY, "factory", factory);
        return factory.apply(name, config(configType, name));
    }

    /**
     * A registry whose default config is the {@value #DEFAULT_NAME} one, holding every named policy
     * the properties configure (created now, so a bad value fails at startup) and their configs
     * (for {@link PolicyRegistry#get(String, String)}). Other names get the default config.
     *
     * @param configType a config class
     * @param factory the pattern's {@code of(name, config)}
     * @param <C> the config type
     * @param <P> the policy type
     * @return the registry
     * @throws InvalidConfigException naming the key, the bound and the value
     */
    public <C, P> PolicyRegistry<C, P> registry(Class<C> configType, BiFunction<String, C, P> factory) {
        Validate.notNull(POLICY, "factory", factory);
        PolicyRegistry<C, P> registry = PolicyRegistry.create(defaultConfig(configType), factory);
        for (String name : names(configType)) {
            C config = config(configType, name);
            registry.addConfig(name, config);
            registry.get(name, config);
        }
        return registry;
    }

    /**
     * Builds every config the properties mention, so every bad value is found at once.
     *
     * @return the number of configs built
     * @throws InvalidConfigException for the first bad value, naming the key, the bound and the value
     */
    public int validate() {
        int built = 0;
        for (Map.Entry<String, Map<String, Map<String, Entry>>> pattern : byPattern.entrySet()) {
            Class<?> configType = ConfigPatterns.KNOWN.get(pattern.getKey());
            for (String name : pattern.getValue().keySet()) {
                config(Objects.requireNonNull(configType), name);
                built++;
            }
        }
        return built;
    }

    /**
     * Every key {@code docs/configuration.md} documents for a config class, with its type and default.
     *
     * @param configType a config class
     * @return the keys, by field name
     */
    public static List<PropertyKey> keys(Class<?> configType) {
        String pattern = patternOf(configType);
        List<PropertyKey> out = new ArrayList<>();
        for (Setter s : BuilderIntrospection.of(configType).setters()) {
            Class<?> type = s.method().getParameterCount() == 1 ? s.method().getParameterTypes()[0] : null;
            out.add(new PropertyKey(pattern, s.field(), s.kind().describe(type), s.defaultValue()));
        }
        return out;
    }

    /**
     * The builder methods of a config class no property can call (they take objects, functions or
     * several arguments); set them in code on {@code config.toBuilder()}.
     *
     * @param configType a config class
     * @return method names, sorted
     */
    public static List<String> codeOnly(Class<?> configType) {
        return BuilderIntrospection.of(configType).codeOnly();
    }

    private static InvalidConfigException rename(InvalidConfigException refused, String policy, String key, String pattern,
            String name) {
        String message = refused.getMessage() == null ? "" : refused.getMessage();
        String lead = refused.policy() + ": " + refused.field() + " must be ";
        String bound;
        String value;
        int but = message.lastIndexOf(" but was ");
        if (message.startsWith(lead) && but >= lead.length()) {
            bound = message.substring(lead.length(), but);
            value = message.substring(but + " but was ".length());
        } else {
            bound = "valid (" + message + ")";
            value = "?";
        }
        InvalidConfigException renamed = new InvalidConfigException(policy, key, bound, value);
        renamed.initCause(refused);
        return renamed;
    }

    @Override
    public String toString() {
        return "LeveeProperties" + byPattern.keySet();
    }
}

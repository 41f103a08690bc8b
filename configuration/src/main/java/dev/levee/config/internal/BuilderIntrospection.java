package dev.levee.config.internal;

import dev.levee.core.InvalidConfigException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * What a config's builder can be told from a property: its one-argument setters of a scalar type
 * (number, boolean, duration, enum, string) and its no-argument switches; everything else (tickers,
 * executors, predicates, functions) is code-only. A setter taking another Levee config (the rate of a
 * Redis limiter, the breaker around a store, the per-key bulkhead) is code-only as an object, and each
 * scalar field of that config is a key of its own, named {@code <setter><Field>} ({@code rateLimit},
 * {@code storeBreakerWaitDurationInOpen}): a <em>nested</em> setter, one level deep, starting from the
 * outer config's default for that object. Looked up once per config class and cached.
 */
public final class BuilderIntrospection {
    private static final Map<Class<?>, BuilderIntrospection> CACHE = new ConcurrentHashMap<>();

    /**
     * A settable field: the builder method (of the nested config's builder, for a nested field), the kind
     * of value it takes, its default, and for a nested field where it goes.
     */
    public record Setter(String field, Method method, ValueKind kind, @Nullable String defaultValue, @Nullable Nested nested) {}

    /**
     * Where a nested field goes: the outer builder's setter taking the nested config, the nested
     * config's introspection and the field's setter there.
     *
     * @param owner the outer setter's name, e.g. {@code rate}
     * @param outerSetter the outer builder's method taking the nested config
     * @param start the outer config's default for the nested config (its builder starts from it), or null
     * @param inner the nested config's introspection
     * @param setter the field's setter on the nested builder
     */
    public record Nested(String owner, Method outerSetter, @Nullable Object start, BuilderIntrospection inner, Setter setter) {}

    private final Class<?> configType;
    private final Method builderFactory;
    private final Method build;
    private final Map<String, Setter> setters;          // by normalized field name
    private final List<String> codeOnly;

    private BuilderIntrospection(Class<?> configType) {
        this.configType = configType;
        try {
            this.builderFactory = configType.getMethod("builder");
        } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException(configType.getName() + " has no static builder()", e);
        }
        Class<?> builderType = builderFactory.getReturnType();
        try {
            this.build = builderType.getMethod("build");
        } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException(builderType.getName() + " has no build()", e);
        }
        Object defaults = defaults(configType);
        Map<String, Setter> found = new LinkedHashMap<>();
        List<String> other = new ArrayList<>();
        List<Method> methods = new ArrayList<>(List.of(builderType.getMethods()));
        // Deterministic: by name, then the preferred value kind first (a Duration overload over a long one).
        methods.sort(Comparator.comparing(Method::getName).thenComparing(m -> rank(m)));
        for (Method m : methods) {
            if (Modifier.isStatic(m.getModifiers()) || m.getDeclaringClass() == Object.class || m.getName().equals("build")
                    || m.isSynthetic() || m.isBridge()) {
                continue;
            }
            String key = normalize(m.getName());
            if (found.containsKey(key)) {
                continue;
            }
            ValueKind kind = m.getParameterCount() == 0 ? ValueKind.SWITCH
                    : m.getParameterCount() == 1 ? ValueKind.of(m.getParameterTypes()[0]) : null;
            if (kind == null) {
                if (!other.contains(m.getName())) {
                    other.add(m.getName());
                }
                continue;
            }
            found.put(key, new Setter(m.getName(), m, kind, defaultOf(defaults, m.getName()), null));
        }
        other.removeIf(name -> found.containsKey(normalize(name)));
        for (Method m : methods) {
            if (m.getParameterCount() != 1 || !isConfig(m.getParameterTypes()[0]) || m.getParameterTypes()[0] == configType
                    || !other.contains(m.getName()) || Modifier.isStatic(m.getModifiers())) {
                continue;
            }
            Object start = valueOf(defaults, m.getName());
            BuilderIntrospection inner = new BuilderIntrospection(m.getParameterTypes()[0]);
            for (Setter s : inner.setters()) {
                if (s.nested() != null) {
                    continue;                               // one level deep
                }
                String field = m.getName() + Character.toUpperCase(s.field().charAt(0)) + s.field().substring(1);
                String key = normalize(field);
                if (!found.containsKey(key)) {
                    found.put(key, new Setter(field, s.method(), s.kind(), start == null ? s.defaultValue() : defaultOf(start, s.field()),
                            new Nested(m.getName(), m, start, inner, s)));
                }
            }
        }
        this.setters = found;
        this.codeOnly = List.copyOf(other);
    }

    /**
     * The introspection of {@code configType}, cached.
     *
     * @param configType a Levee config class with a static {@code builder()}
     * @return its introspection
     */
    public static BuilderIntrospection of(Class<?> configType) {
        return CACHE.computeIfAbsent(configType, BuilderIntrospection::new);
    }

    /**
     * The settable fields, in name order.
     *
     * @return the setters
     */
    public List<Setter> setters() {
        List<Setter> out = new ArrayList<>(setters.values());
        out.sort(Comparator.comparing(Setter::field));
        return out;
    }

    /**
     * A new builder of a nested config, holding the outer config's default for it.
     *
     * @param nested the nested field
     * @return the nested config's builder
     */
    public Object newNestedBuilder(Nested nested) {
        Object start = nested.start();
        if (start != null) {
            try {
                return invokeForResult(start.getClass().getMethod("toBuilder"), start);
            } catch (NoSuchMethodException e) {
                // fall through: a config without toBuilder() starts from its builder's defaults
            }
        }
        return nested.inner().newBuilder();
    }

    /**
     * Gives a built nested config to the outer builder.
     *
     * @param builder the outer builder
     * @param nested any nested field of that config
     * @param config the nested config
     * @throws InvalidConfigException as the setter throws it
     */
    public void setNested(Object builder, Nested nested, Object config) {
        invoke(nested.outerSetter(), builder, new @Nullable Object[] {config});
    }

    /**
     * The builder methods no property can call (they take objects or several arguments).
     *
     * @return method names, sorted
     */
    public List<String> codeOnly() {
        return codeOnly.stream().sorted().toList();
    }

    /**
     * The setter for a field, matched ignoring case, {@code -} and {@code _}.
     *
     * @param field the field as written in a key
     * @return the setter, or null if the builder has none
     */
    public @Nullable Setter setter(String field) {
        return setters.get(normalize(field));
    }

    /**
     * A new builder.
     *
     * @return {@code configType.builder()}
     */
    public Object newBuilder() {
        return invokeForResult(builderFactory, null);
    }

    /**
     * Builds the config.
     *
     * @param builder a builder from {@link #newBuilder()}
     * @return the config
     * @throws InvalidConfigException as {@code build()} throws it
     */
    public Object build(Object builder) {
        return invokeForResult(build, builder);
    }

    /**
     * Calls a setter.
     *
     * @param builder the builder
     * @param setter the setter
     * @param value the converted value (ignored for a switch)
     * @throws InvalidConfigException as the setter throws it
     */
    public void set(Object builder, Setter setter, @Nullable Object value) {
        if (setter.kind() == ValueKind.SWITCH) {
            invoke(setter.method(), builder);
        } else {
            invoke(setter.method(), builder, new @Nullable Object[] {value});
        }
    }

    /**
     * The config class.
     *
     * @return the class
     */
    public Class<?> configType() {
        return configType;
    }

    /**
     * A field name as keys are matched: lower case, without {@code -} and {@code _}, so
     * {@code failureRateThreshold}, {@code failure-rate-threshold} and {@code failure_rate_threshold}
     * are the same key.
     *
     * @param field a field as written
     * @return the normalized name
     */
    public static String normalize(String field) {
        // A dot never reaches here from a key (the field is after the key's last dot); it comes from a
        // builder's own message about a nested field ("rate.algorithm"), which is the key rateAlgorithm.
        return field.replace("-", "").replace("_", "").replace(".", "").toLowerCase(Locale.ROOT);
    }

    /** A Levee config: its simple name ends in Config, it has a static builder() and a toBuilder(). */
    private static boolean isConfig(Class<?> type) {
        if (!type.getSimpleName().endsWith("Config")) {
            return false;
        }
        try {
            return Modifier.isStatic(type.getMethod("builder").getModifiers()) && type.getMethod("toBuilder") != null;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    private static @Nullable Object valueOf(@Nullable Object defaults, String accessor) {
        if (defaults == null) {
            return null;
        }
        try {
            Method m = defaults.getClass().getMethod(accessor);
            return m.getParameterCount() == 0 && !Modifier.isStatic(m.getModifiers()) ? m.invoke(defaults) : null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    private static int rank(Method m) {
        if (m.getParameterCount() != 1) {
            return m.getParameterCount() == 0 ? 50 : 100;
        }
        ValueKind kind = ValueKind.of(m.getParameterTypes()[0]);
        return kind == null ? 90 : kind.ordinal();
    }

    private static @Nullable Object defaults(Class<?> configType) {
        try {
            return configType.getMethod("defaults").invoke(null);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;                                    // a config whose defaults need code (none is documented then)
        }
    }

    private static @Nullable String defaultOf(@Nullable Object defaults, String field) {
        if (defaults == null) {
            return null;
        }
        try {
            Method accessor = defaults.getClass().getMethod(field);
            if (accessor.getParameterCount() != 0 || Modifier.isStatic(accessor.getModifiers())) {
                return null;
            }
            Object value = accessor.invoke(defaults);
            if (value == null) {
                return "none";
            }
            if (value instanceof Duration d) {
                return Durations.format(d);
            }
            if (value instanceof Enum<?> || value instanceof Number || value instanceof Boolean || value instanceof String) {
                return String.valueOf(value);
            }
            return null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    private static Object invokeForResult(Method method, @Nullable Object target) {
        Object result = invoke(method, target);
        if (result == null) {
            throw new IllegalStateException(method + " returned null");
        }
        return result;
    }

    private static @Nullable Object invoke(Method method, @Nullable Object target, @Nullable Object... args) {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(cause);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }
}

package dev.levee.checks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.checks.PublishedClasses.ClassFile;
import dev.levee.core.InvalidConfigException;
import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import dev.levee.core.RandomSource;
import dev.levee.core.Scheduler;
import dev.levee.core.Sleeper;
import dev.levee.core.Ticker;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Config fuzzing over every builder of every published module, found by reflection (so a new builder is
 * fuzzed without anyone remembering to): seeded random combinations of its setters, with values drawn
 * from each parameter type's edges (0, ±1, the extremes, NaN and infinities, percents, zero and negative
 * and huge durations, null), then {@code build()} and {@code X.of("fuzz", config)}. Any combination must
 * either build a policy or throw {@link InvalidConfigException} naming the policy and the field; never
 * another exception.
 *
 * <p>Our own small generator rather than jqwik (decision 35 in {@code docs/architecture.md}): the values
 * that matter are a short list of edges per type, reflection finds the builders, and a plain seeded
 * loop needs no new test engine. Every failure prints the seed, the builder and the calls that led to it.
 */
class ConfigFuzzTest {
    /** Combinations tried per builder. */
    private static final int ROUNDS = 400;
    private static final long SEED = 19;

    /**
     * Builder setters that throw something other than {@link InvalidConfigException} today, found by this
     * test and not yet fixed in their modules: "Config.setter: what it throws" (empty now).
     * Fix the setter, then remove its line; a listed line that no longer fails fails the test.
     */
    static final Set<String> KNOWN = new TreeSet<>();

    private static final long[] LONG_EDGES = {0, 1, -1, 2, 3, 10, 100, 1000, 1_000_000, Integer.MAX_VALUE, (long) Integer.MAX_VALUE + 1,
        Long.MAX_VALUE, Long.MIN_VALUE, Integer.MIN_VALUE};
    private static final double[] DOUBLE_EDGES = {0, 1, -1, 0.5, 0.001, 0.999, 1.0000001, 2, 50, 100, 101, 1e9, -0.0,
        Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MIN_VALUE, Double.MAX_VALUE};
    private static final Duration[] DURATION_EDGES = {Duration.ZERO, Duration.ofNanos(1), Duration.ofNanos(-1), Duration.ofMillis(1),
        Duration.ofMillis(10), Duration.ofSeconds(1), Duration.ofSeconds(30), Duration.ofMinutes(10), Duration.ofDays(1),
        Duration.ofDays(365_000), Duration.ofSeconds(Long.MAX_VALUE, 999_999_999), Duration.ofSeconds(Long.MIN_VALUE), null};

    /** Every public {@code XConfig} with a static no-argument {@code builder()}. */
    static List<Class<?>> configTypes() {
        List<Class<?>> out = new ArrayList<>();
        for (ClassFile c : PublishedClasses.all()) {
            if (c.isInternal() || c.name().contains("$") || !c.name().endsWith("Config")) {
                continue;
            }
            Class<?> type = PublishedClasses.load(c.name());
            if (!Modifier.isPublic(type.getModifiers())) {
                continue;
            }
            try {
                Method builder = type.getMethod("builder");
                if (Modifier.isStatic(builder.getModifiers())) {
                    out.add(type);
                }
            } catch (NoSuchMethodException e) {
                // configs without a no-argument builder (a keyed config built from a base) are out of scope
            }
        }
        out.sort(Comparator.comparing(Class::getName));
        return out;
    }

    @Test
    void everyBuilderIsFound() {
        List<String> names = configTypes().stream().map(Class::getSimpleName).toList();
        assertThat(names).contains("RateLimiterConfig", "CircuitBreakerConfig", "BulkheadConfig", "RetryConfig",
                "TimeoutConfig", "ConcurrencyLimiterConfig", "ChaosConfig", "RetryBudgetConfig");
        assertThat(names).hasSizeGreaterThan(20);
    }

    @Test
    void anyCombinationBuildsOrThrowsInvalidConfigExceptionNamingPolicyAndField() {
        Map<String, String> violations = new TreeMap<>();
        int builders = 0;
        long built = 0;
        long refused = 0;
        for (Class<?> config : configTypes()) {
            builders++;
            RandomSource random = RandomSource.seeded(SEED * 31 + config.getName().hashCode());
            for (int round = 0; round < ROUNDS; round++) {
                Outcome o = tryOne(config, random, round);
                if (o.violation != null) {
                    violations.putIfAbsent(o.key, o.violation);
                } else if (o.built) {
                    built++;
                } else {
                    refused++;
                }
            }
        }
        Set<String> found = new TreeSet<>(violations.keySet());
        Set<String> unexpected = new TreeSet<>(found);
        unexpected.removeAll(KNOWN);
        Set<String> fixed = new TreeSet<>(KNOWN);
        fixed.removeAll(found);
        StringBuilder report = new StringBuilder();
        for (String key : unexpected) {
            report.append("\n  ").append(key).append("\n      ").append(violations.get(key));
        }
        System.out.printf("config fuzz: %d builders, %d combinations built, %d refused with InvalidConfigException, %d kinds of violation%n",
                builders, built, refused, found.size());
        assertThat(unexpected).as("builders throwing something other than InvalidConfigException (seed " + SEED + "):" + report)
                .isEmpty();
        assertThat(fixed).as("KNOWN lines that no longer fail: remove them").isEmpty();
        assertThat(built).as("some combinations must build, or the generator only makes garbage").isGreaterThan(builders);
        assertThat(refused).isGreaterThan(builders);
    }

    /** The result of one combination. */
    private record Outcome(boolean built, String key, String violation) {}

    private static Outcome tryOne(Class<?> config, RandomSource random, int round) {
        List<String> calls = new ArrayList<>();
        Object builder;
        try {
            builder = config.getMethod("builder").invoke(null);
        } catch (ReflectiveOperationException e) {
            return new Outcome(false, config.getSimpleName() + ".builder()", e.toString());
        }
        List<Method> setters = setters(builder.getClass());
        for (Method m : setters) {
            if (random.nextDouble() < 0.5) {
                continue;
            }
            Object[] args = new Object[m.getParameterCount()];
            boolean supported = true;
            for (int i = 0; i < args.length; i++) {
                Object[] value = value(m.getParameterTypes()[i], random);
                if (value == null) {
                    supported = false;
                    break;
                }
                args[i] = value[0];
            }
            if (!supported) {
                continue;
            }
            String call = m.getName() + Arrays.deepToString(args);
            calls.add(call);
            Throwable t = invoke(m, builder, args);
            if (t != null) {
                return judge(config, m.getName(), t, calls, round);
            }
        }
        Object built;
        try {
            built = builder.getClass().getMethod("build").invoke(builder);
        } catch (InvocationTargetException e) {
            return judge(config, "build", e.getCause(), calls, round);
        } catch (ReflectiveOperationException e) {
            return new Outcome(false, config.getSimpleName() + ".build()", e.toString());
        }
        // The policy itself must accept every config its builder accepted.
        Class<?> policy = sibling(config);
        if (policy != null) {
            try {
                Method of = policy.getMethod("of", String.class, config);
                if (Modifier.isStatic(of.getModifiers())) {
                    of.invoke(null, "fuzz", built);
                }
            } catch (NoSuchMethodException e) {
                // no of(String, XConfig): a config used by a builder of something else
            } catch (InvocationTargetException e) {
                return judge(config, policy.getSimpleName() + ".of", e.getCause(), calls, round);
            } catch (ReflectiveOperationException e) {
                return new Outcome(false, config.getSimpleName() + ".of", e.toString());
            }
        }
        return new Outcome(true, null, null);
    }

    private static Class<?> sibling(Class<?> config) {
        String name = config.getName();
        try {
            return Class.forName(name.substring(0, name.length() - "Config".length()), false, config.getClassLoader());
        } catch (ClassNotFoundException e) {
            return null;
        }
    }

    private static Throwable invoke(Method m, Object target, Object[] args) {
        try {
            m.invoke(target, args);
            return null;
        } catch (InvocationTargetException e) {
            return e.getCause();
        } catch (IllegalAccessException e) {
            return e;
        }
    }

    private static Outcome judge(Class<?> config, String where, Throwable t, List<String> calls, int round) {
        if (t instanceof InvalidConfigException ice) {
            boolean named = ice.policy() != null && !ice.policy().isBlank() && ice.field() != null && !ice.field().isBlank()
                    && ice.getMessage() != null && ice.getMessage().contains(ice.field());
            if (named) {
                return new Outcome(false, null, null);
            }
            return new Outcome(false, config.getSimpleName() + "." + where + ": InvalidConfigException without policy/field",
                    "round " + round + ", calls " + calls + " -> " + t);
        }
        return new Outcome(false, config.getSimpleName() + "." + where + ": " + t.getClass().getSimpleName(),
                "round " + round + ", calls " + calls + " -> " + t);
    }

    /** The builder's public fluent setters (they return the builder), {@code build} excluded. */
    private static List<Method> setters(Class<?> builderType) {
        List<Method> out = new ArrayList<>();
        for (Method m : builderType.getMethods()) {
            if (Modifier.isStatic(m.getModifiers()) || m.getDeclaringClass() == Object.class || m.getName().equals("build")
                    || !builderType.isAssignableFrom(m.getReturnType()) || m.getParameterCount() == 0) {
                continue;
            }
            out.add(m);
        }
        out.sort(Comparator.comparing(Method::getName).thenComparing(Method::toString));
        return out;
    }

    /**
     * A value for a parameter type, wrapped (so null is a value), or null when the type is not fuzzed
     * (callbacks and collaborators: the builder keeps its default for those, except that null is tried).
     */
    private static Object[] value(Class<?> type, RandomSource random) {
        boolean tryNull = random.nextDouble() < 0.05;
        if (type == int.class) {
            return new Object[] {(int) pick(LONG_EDGES, random)};
        }
        if (type == long.class) {
            return new Object[] {pick(LONG_EDGES, random)};
        }
        if (type == double.class) {
            return new Object[] {DOUBLE_EDGES[(int) random.nextLong(DOUBLE_EDGES.length)]};
        }
        if (type == boolean.class) {
            return new Object[] {random.nextDouble() < 0.5};
        }
        if (tryNull) {
            return new Object[] {null};
        }
        if (type == Duration.class) {
            return new Object[] {DURATION_EDGES[(int) random.nextLong(DURATION_EDGES.length)]};
        }
        if (type.isEnum()) {
            Object[] constants = type.getEnumConstants();
            return new Object[] {constants[(int) random.nextLong(constants.length)]};
        }
        if (type == Ticker.class || type == Sleeper.class) {
            return new Object[] {new ManualTicker()};
        }
        if (type == Scheduler.class) {
            return new Object[] {new ManualScheduler(new ManualTicker())};
        }
        if (type == RandomSource.class) {
            return new Object[] {RandomSource.seeded(random.nextLong(Long.MAX_VALUE))};
        }
        if (type == String.class) {
            String[] strings = {"", " ", "x", "name"};
            return new Object[] {strings[(int) random.nextLong(strings.length)]};
        }
        return null;
    }

    private static long pick(long[] edges, RandomSource random) {
        if (random.nextDouble() < 0.2) {
            return random.nextLong(10_000) - 100;
        }
        return edges[(int) random.nextLong(edges.length)];
    }
}

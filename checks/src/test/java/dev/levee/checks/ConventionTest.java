package dev.levee.checks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.checks.PublishedClasses.ClassFile;
import dev.levee.core.internal.MetricNames;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The house convention ({@code CONTRIBUTING.md}), checked over the compiled classes of every published
 * module, so a new pattern cannot drift from it:
 * <ul>
 *   <li>every policy {@code X} with a config {@code XConfig} in its package has
 *       {@code public static X of(String, XConfig)} and {@code public static X ofDefaults(String)};</li>
 *   <li>every {@code XConfig} has {@code public static Builder builder()} (nameless),
 *       {@code public static XConfig defaults()} and {@code public Builder toBuilder()};</li>
 *   <li>every {@code XMetrics} is a record (a snapshot); every {@code XMetricsBinder} is a Micrometer
 *       {@code MeterBinder} with constructors {@code (X...)} and {@code (Collection<X>)};</li>
 *   <li>every {@code XEvent} is a sealed interface whose events are records named in the past tense;</li>
 *   <li>every binder of a policy that can be built by {@code ofDefaults} registers meters named
 *       {@code levee.<pattern>.<what>} with tag keys from {@link MetricNames}, and, where the policy
 *       refuses calls, one {@code levee.<pattern>.rejected} counter tagged {@code name} and
 *       {@code kind}.</li>
 * </ul>
 *
 * <p>The types below are skipped while their modules are being converted in the same session (issue
 * 11); each line names the rule it does not meet yet. The goal is an empty map.
 */
class ConventionTest {

    /**
     * Not yet converted: type -> why it is skipped. Shrink this as modules convert; a type listed here
     * that already passes fails {@link #theSkipListHoldsOnlyTypesThatStillFail()}.
     */
    static final Map<String, String> NOT_YET_CONVERTED = new TreeMap<>(Map.ofEntries(
            // Deliberate exceptions, decided: each needs a collaborator that has no sensible default
            // (a load signal, fallback tiers, a checker), or is an SPI users implement.
            Map.entry("dev.levee.degrade.DegradationLevel", "of(name, config, LoadSignal): needs a signal, no default"),
            Map.entry("dev.levee.degrade.Fallback", "of(name, config, tiers): needs tiers, no default"),
            Map.entry("dev.levee.health.HealthCheck", "an interface users implement; HealthCheckConfig configures caching"),
            Map.entry("dev.levee.health.HealthEndpoint", "built from a checker; no of(String, HealthEndpointConfig)"),
            Map.entry("dev.levee.loadshed.PriorityShedder", "needs a LoadSignal: no ofDefaults(String)"),
            Map.entry("dev.levee.loadshed.PriorityShedderConfig", "needs a LoadSignal: no defaults()"),
            Map.entry("dev.levee.retry.ReplicaSet", "of(name, config, replicas): needs its replicas, no default")
    ));

    /** Gates that measure and never refuse a call, so their binders have no rejection counter. */
    private static final Set<String> NEVER_REFUSES = Set.of("dev.levee.loadshed.Goodput");

    /** Past-tense (or past-participle) words that do not end in -ed. */
    private static final Set<String> IRREGULAR_PAST = Set.of(
            "Gave", "Shed", "Reset", "Began", "Begun", "Sent", "Left", "Hit", "Held", "Lost", "Set", "Cut", "Ran",
            "Run", "Won", "Sold", "Built", "Made", "Took", "Taken", "Went", "Gone", "Came", "Found", "Kept",
            "Read", "Put", "Fell", "Fallen", "Broke", "Broken", "Rose", "Risen", "Drew", "Drawn", "Shut",
            "Spent", "Became", "Become", "Got", "Done", "Did", "Stuck", "Stood", "Brought", "Caught", "Thrown",
            "Threw", "Woke", "Woken", "Bound", "Slept", "Lent");

    /** Whether an event name has a past-tense word: {@code Opened}, {@code GaveUp}, {@code ActionTaken}. */
    private static boolean pastTense(String name) {
        for (String word : name.split("(?=[A-Z])")) {
            if (word.endsWith("ed") || IRREGULAR_PAST.contains(word)) {
                return true;
            }
        }
        return false;
    }

    private static boolean skipped(String type) {
        return NOT_YET_CONVERTED.containsKey(type);
    }

    private static List<Class<?>> apiTypes() {
        List<Class<?>> types = new ArrayList<>();
        for (ClassFile c : PublishedClasses.all()) {
            if (c.isInternal() || c.name().contains("$") || c.name().endsWith("package-info")) {
                continue;
            }
            Class<?> type = PublishedClasses.load(c.name());
            if (Modifier.isPublic(type.getModifiers())) {
                types.add(type);
            }
        }
        return types;
    }

    private static Class<?> sibling(Class<?> type, String simpleName) {
        try {
            return Class.forName(type.getPackageName() + "." + simpleName, false, type.getClassLoader());
        } catch (ClassNotFoundException e) {
            return null;
        }
    }

    /** Policies: public concrete (or interface with static factories) types with a sibling XConfig. */
    static List<String> factoryViolations() {
        List<String> violations = new ArrayList<>();
        for (Class<?> config : apiTypes()) {
            String name = config.getSimpleName();
            if (!name.endsWith("Config") || name.equals("Config")) {
                continue;
            }
            Class<?> policy = sibling(config, name.substring(0, name.length() - "Config".length()));
            if (policy == null || skipped(policy.getName())) {
                continue;
            }
            Method of = staticMethod(policy, "of", String.class, config);
            if (of == null || !policy.isAssignableFrom(of.getReturnType())) {
                violations.add(policy.getName() + ": no public static " + policy.getSimpleName()
                        + " of(String, " + name + ")");
            }
            Method ofDefaults = staticMethod(policy, "ofDefaults", String.class);
            if (ofDefaults == null || !policy.isAssignableFrom(ofDefaults.getReturnType())) {
                violations.add(policy.getName() + ": no public static " + policy.getSimpleName() + " ofDefaults(String)");
            }
        }
        return violations;
    }

    static List<String> configViolations() {
        List<String> violations = new ArrayList<>();
        for (Class<?> config : apiTypes()) {
            String name = config.getSimpleName();
            if (!name.endsWith("Config") || config.isInterface() || skipped(config.getName())) {
                continue;
            }
            Method builder = staticMethod(config, "builder");
            if (builder == null) {
                violations.add(config.getName() + ": no public static Builder builder() (configs are nameless)");
            }
            Method defaults = staticMethod(config, "defaults");
            if (defaults == null || defaults.getReturnType() != config) {
                violations.add(config.getName() + ": no public static " + name + " defaults()");
            }
            Method toBuilder = instanceMethod(config, "toBuilder");
            if (toBuilder == null || (builder != null && toBuilder.getReturnType() != builder.getReturnType())) {
                violations.add(config.getName() + ": no public Builder toBuilder()");
            }
        }
        return violations;
    }

    static List<String> metricsAndEventViolations() {
        List<String> violations = new ArrayList<>();
        for (Class<?> type : apiTypes()) {
            String name = type.getSimpleName();
            if (skipped(type.getName())) {
                continue;
            }
            if (name.endsWith("Metrics") && !type.isRecord()) {
                violations.add(type.getName() + ": a metrics snapshot must be a record");
            }
            if (name.endsWith("MetricsBinder")) {
                if (!MeterBinder.class.isAssignableFrom(type)) {
                    violations.add(type.getName() + ": not a MeterBinder");
                }
                Class<?> policy = sibling(type, name.substring(0, name.length() - "MetricsBinder".length()));
                if (policy != null) {
                    if (varargsConstructor(type, policy) == null) {
                        violations.add(type.getName() + ": no public constructor (" + policy.getSimpleName() + "...)");
                    }
                    if (constructor(type, Collection.class) == null) {
                        violations.add(type.getName() + ": no public constructor (Collection<" + policy.getSimpleName() + ">)");
                    }
                }
            }
            if (name.endsWith("Event") && !name.equals("PolicyEvent")) {
                if (!type.isInterface() || !type.isSealed()) {
                    violations.add(type.getName() + ": an event type must be a sealed interface");
                    continue;
                }
                for (Class<?> event : type.getPermittedSubclasses()) {
                    if (!event.isRecord()) {
                        violations.add(event.getName() + ": an event must be a record");
                    }
                    String simple = event.getSimpleName();
                    if (!pastTense(simple)) {
                        violations.add(event.getName() + ": an event is named in the past tense");
                    }
                }
            }
        }
        return violations;
    }

    private static final Set<String> TAG_KEYS = Set.of(MetricNames.TAG_NAME, MetricNames.TAG_OUTCOME,
            MetricNames.TAG_STATE, MetricNames.TAG_KIND, MetricNames.TAG_REASON, MetricNames.TAG_REPLICA);

    /** Binds each binder to a policy built by ofDefaults and reads the meters it registers. */
    static List<String> meterViolations() {
        List<String> violations = new ArrayList<>();
        for (Class<?> binderType : apiTypes()) {
            String name = binderType.getSimpleName();
            if (!name.endsWith("MetricsBinder") || skipped(binderType.getName())) {
                continue;
            }
            Class<?> policy = sibling(binderType, name.substring(0, name.length() - "MetricsBinder".length()));
            if (policy == null || skipped(policy.getName())) {
                continue;
            }
            Method ofDefaults = staticMethod(policy, "ofDefaults", String.class);
            Constructor<?> varargs = varargsConstructor(binderType, policy);
            if (ofDefaults == null || varargs == null) {
                continue; // reported by the factory and binder rules
            }
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            try {
                Object instance = ofDefaults.invoke(null, "convention");
                Object policies = Array.newInstance(varargs.getParameterTypes()[0].getComponentType(), 1);
                Array.set(policies, 0, instance);
                ((MeterBinder) varargs.newInstance(policies)).bindTo(registry);
            } catch (ReflectiveOperationException e) {
                violations.add(binderType.getName() + ": could not bind to " + policy.getSimpleName()
                        + ".ofDefaults(\"convention\"): " + e.getCause());
                continue;
            }
            TreeSet<String> prefixes = new TreeSet<>();
            for (Meter meter : registry.getMeters()) {
                String meterName = meter.getId().getName();
                String[] parts = meterName.split("\\.");
                if (parts.length < 3 || !parts[0].equals(MetricNames.PREFIX)) {
                    violations.add(binderType.getName() + ": meter " + meterName + " is not levee.<pattern>.<what>");
                    continue;
                }
                prefixes.add(parts[0] + "." + parts[1]);
                Set<String> keys = meter.getId().getTags().stream().map(Tag::getKey).collect(Collectors.toSet());
                if (!TAG_KEYS.containsAll(keys)) {
                    violations.add(binderType.getName() + ": meter " + meterName + " has tag keys " + keys
                            + " outside " + TAG_KEYS);
                }
                if (!keys.contains(MetricNames.TAG_NAME)) {
                    violations.add(binderType.getName() + ": meter " + meterName + " has no name tag");
                }
            }
            if (prefixes.size() > 1) {
                violations.add(binderType.getName() + ": meters under several patterns " + prefixes);
            }
            if (dev.levee.core.Gate.class.isAssignableFrom(policy) && !NEVER_REFUSES.contains(policy.getName())
                    && prefixes.size() == 1) {
                String rejected = prefixes.first() + "." + MetricNames.REJECTED;
                List<Meter> meters = registry.getMeters().stream()
                        .filter(m -> m.getId().getName().equals(rejected)).collect(Collectors.toList());
                if (meters.isEmpty()) {
                    violations.add(binderType.getName() + ": no " + rejected + " counter");
                }
                for (Meter m : meters) {
                    Set<String> keys = m.getId().getTags().stream().map(Tag::getKey).collect(Collectors.toSet());
                    if (!keys.contains(MetricNames.TAG_KIND)) {
                        violations.add(binderType.getName() + ": " + rejected + " has no kind tag");
                    }
                }
            }
        }
        return violations;
    }

    @Test
    void everyPolicyHasTheFactories() {
        assertThat(factoryViolations()).isEmpty();
    }

    @Test
    void everyConfigIsNamelessWithBuilderDefaultsAndToBuilder() {
        assertThat(configViolations()).isEmpty();
    }

    @Test
    void metricsAreSnapshotsBindersAreBuiltAlikeAndEventsAreSealedPastTenseRecords() {
        assertThat(metricsAndEventViolations()).isEmpty();
    }

    @Test
    void bindersUseOneMeterVocabularyAndOneRejectionMeter() {
        assertThat(meterViolations()).isEmpty();
    }

    @Test
    void theSkipListHoldsOnlyTypesThatStillFail() {
        Map<String, String> saved = new TreeMap<>(NOT_YET_CONVERTED);
        List<String> passing = new ArrayList<>();
        try {
            for (String type : saved.keySet()) {
                NOT_YET_CONVERTED.clear();
                NOT_YET_CONVERTED.putAll(saved);
                NOT_YET_CONVERTED.remove(type);
                List<String> all = new ArrayList<>();
                all.addAll(factoryViolations());
                all.addAll(configViolations());
                all.addAll(metricsAndEventViolations());
                all.addAll(meterViolations());
                boolean stillFails = all.stream().anyMatch(v -> v.startsWith(type + ":") || v.startsWith(type + "$"));
                if (!stillFails) {
                    passing.add(type);
                }
            }
        } finally {
            NOT_YET_CONVERTED.clear();
            NOT_YET_CONVERTED.putAll(saved);
        }
        assertThat(passing).as("converted types still on the skip list (remove them)").isEmpty();
    }

    @Test
    void theConventionSeesThePatterns() {
        List<String> configs = apiTypes().stream().map(Class::getSimpleName).filter(n -> n.endsWith("Config"))
                .collect(Collectors.toList());
        assertThat(configs).contains("CircuitBreakerConfig", "RetryConfig", "TimeoutConfig", "BulkheadConfig",
                "RateLimiterConfig");
    }

    private static Method staticMethod(Class<?> type, String name, Class<?>... parameters) {
        try {
            Method m = type.getMethod(name, parameters);
            return Modifier.isStatic(m.getModifiers()) ? m : null;
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    private static Method instanceMethod(Class<?> type, String name, Class<?>... parameters) {
        try {
            Method m = type.getMethod(name, parameters);
            return Modifier.isStatic(m.getModifiers()) ? null : m;
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    /**
     * The binder's public {@code (P...)} constructor where {@code P} is the policy type or a supertype of
     * it (one binder may serve a family, e.g. every {@code GracefulDegrader}); null if there is none.
     */
    private static Constructor<?> varargsConstructor(Class<?> binder, Class<?> policy) {
        for (Constructor<?> c : binder.getConstructors()) {
            Class<?>[] parameters = c.getParameterTypes();
            if (parameters.length == 1 && parameters[0].isArray()
                    && parameters[0].getComponentType().isAssignableFrom(policy)) {
                return c;
            }
        }
        return null;
    }

    private static Constructor<?> constructor(Class<?> type, Class<?>... parameters) {
        try {
            return type.getConstructor(parameters);
        } catch (NoSuchMethodException e) {
            return null;
        }
    }
}

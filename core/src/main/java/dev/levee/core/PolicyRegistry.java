package dev.levee.core;

import dev.levee.core.internal.EventListeners;
import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.Consumer;

/**
 * Named policies, created on first use: one circuit breaker per dependency, one limiter per API.
 *
 * <p>{@link #get(String)} returns the policy registered under a name, creating it from the default
 * config if there is none; {@link #get(String, String)} creates it from a named config added with
 * {@link #addConfig}. Creation is atomic: many threads asking for the same new name at once get one
 * instance, and the factory runs once. A policy created earlier is returned as it is, whatever config
 * a later call names.
 *
 * <p>Thread-safe. Each pattern offers a typed registry built on this class, e.g.
 * {@code CircuitBreaker.registry(defaultConfig)}.
 *
 * @param <C> the config type
 * @param <P> the policy type
 */
public final class PolicyRegistry<C, P> {
    private final ConcurrentHashMap<String, P> policies = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, C> configs = new ConcurrentHashMap<>();
    private final C defaultConfig;
    private final BiFunction<String, C, P> factory;
    private final EventListeners<P> created = new EventListeners<>();

    private PolicyRegistry(C defaultConfig, BiFunction<String, C, P> factory) {
        this.defaultConfig = defaultConfig;
        this.factory = factory;
    }

    /**
     * Creates a registry.
     *
     * @param defaultConfig the config of policies created without a named config
     * @param factory creates a policy from its name and config
     * @param <C> the config type
     * @param <P> the policy type
     * @return the registry
     */
    public static <C, P> PolicyRegistry<C, P> create(C defaultConfig, BiFunction<String, C, P> factory) {
        return new PolicyRegistry<>(
                Objects.requireNonNull(defaultConfig, "defaultConfig"), Objects.requireNonNull(factory, "factory"));
    }

    /**
     * Adds or replaces a named config; policies already created keep theirs.
     *
     * @param configName the config's name
     * @param config the config
     * @return this registry
     */
    public PolicyRegistry<C, P> addConfig(String configName, C config) {
        configs.put(Objects.requireNonNull(configName, "configName"), Objects.requireNonNull(config, "config"));
        return this;
    }

    /**
     * The named config.
     *
     * @param configName the config's name
     * @return the config, if added
     */
    public Optional<C> config(String configName) {
        return Optional.ofNullable(configs.get(configName));
    }

    /**
     * The default config.
     *
     * @return the config used by {@link #get(String)}
     */
    public C defaultConfig() {
        return defaultConfig;
    }

    /**
     * The policy named {@code name}, created from the default config if absent.
     *
     * @param name the policy name
     * @return the one policy of that name
     */
    public P get(String name) {
        return get(name, defaultConfig);
    }

    /**
     * The policy named {@code name}, created from the config named {@code configName} if absent.
     *
     * @param name the policy name
     * @param configName a config added with {@link #addConfig}
     * @return the one policy of that name
     * @throws IllegalArgumentException if no config has that name
     */
    public P get(String name, String configName) {
        P existing = policies.get(Objects.requireNonNull(name, "name"));
        if (existing != null) {
            return existing;
        }
        C config = configs.get(Objects.requireNonNull(configName, "configName"));
        if (config == null) {
            throw new IllegalArgumentException("PolicyRegistry: no config named '" + configName
                    + "' for policy '" + name + "'; known configs: " + configs.keySet());
        }
        return get(name, config);
    }

    /**
     * The policy named {@code name}, created from {@code config} if absent.
     *
     * @param name the policy name
     * @param config the config to create it from
     * @return the one policy of that name
     */
    public P get(String name, C config) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(config, "config");
        P existing = policies.get(name);
        if (existing != null) {
            return existing;
        }
        Object[] createdHere = new Object[1];
        P policy = policies.computeIfAbsent(name, n -> {
            P p = Objects.requireNonNull(
                    factory.apply(n, config), "PolicyRegistry: factory returned null for '" + n + "'");
            createdHere[0] = p;
            return p;
        });
        if (createdHere[0] != null && !created.isEmpty()) {
            created.publish(policy);
        }
        return policy;
    }

    /**
     * Calls {@code listener} with every policy this registry creates from now on, after it is
     * registered, on the creating thread; e.g. to bind metrics to breakers created on demand.
     * Policies created earlier are in {@link #all()}.
     *
     * @param listener the listener
     * @return closing it unregisters the listener
     */
    public Subscription onCreated(Consumer<? super P> listener) {
        return created.subscribe(listener);
    }

    /**
     * The policy named {@code name}, without creating it.
     *
     * @param name the policy name
     * @return the policy, if created
     */
    public Optional<P> find(String name) {
        return Optional.ofNullable(policies.get(name));
    }

    /**
     * Removes the policy named {@code name}; a later {@link #get} creates a new one.
     *
     * @param name the policy name
     * @return the removed policy, if there was one
     */
    public Optional<P> remove(String name) {
        return Optional.ofNullable(policies.remove(name));
    }

    /**
     * The names of the policies created so far.
     *
     * @return an unmodifiable live view
     */
    public Set<String> names() {
        return Collections.unmodifiableSet(policies.keySet());
    }

    /**
     * The policies created so far.
     *
     * @return an unmodifiable live view
     */
    public Collection<P> all() {
        return Collections.unmodifiableCollection(policies.values());
    }

    /**
     * The policies by name.
     *
     * @return an unmodifiable live view
     */
    public Map<String, P> asMap() {
        return Collections.unmodifiableMap(policies);
    }
}

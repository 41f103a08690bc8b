package dev.levee.redis.ratelimiter;

import dev.levee.circuitbreaker.CircuitBreaker;
import dev.levee.core.KeyedRegistry;
import dev.levee.core.Subscription;
import dev.levee.core.internal.EventListeners;
import dev.levee.core.internal.Validate;
import dev.levee.ratelimiter.RateLimitDecision;
import dev.levee.ratelimiter.RateLimiterEvent;
import dev.levee.redis.internal.ScriptRunner;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import java.util.function.Consumer;

/**
 * One shared limit per key (tenant, API key, client IP) on Redis: a {@link RedisRateLimiter} per key,
 * named {@code name + ":" + key}, so every key has its own Redis key, with its own hash tag (keys
 * spread over a Redis Cluster's masters).
 *
 * <p><b>Shared by all keys:</b> the connection, the circuit breaker around Redis, the outage switch
 * (one WARN and one {@link RedisRateLimiterEvent} per switch for the whole keyed limiter, not per key)
 * and the event listeners. <b>Per key:</b> the algorithm's state in Redis, the local fallback limiter
 * and the lease stock. The limiters of idle keys are dropped from memory by core's
 * {@link KeyedRegistry} (bounded by {@code maxEntries}); their state stays in Redis until its TTL, so a
 * key that comes back continues where it was.
 *
 * <p><b>Metrics.</b> {@link #redisMetrics()} and {@link RedisRateLimiterMetricsBinder} measure the keyed
 * limiter as a whole (one set of meters, not one per key: keys are unbounded), counting the decisions of
 * every key, evicted ones included.
 *
 * <p>Thread-safe. Cost per decision: that of {@link RedisRateLimiter} plus one map lookup and one more
 * counter add.
 *
 * @param <K> the key type; {@code toString()} names the key in Redis
 */
public final class KeyedRedisRateLimiter<K> {
    /** The default bound on keys held in memory. */
    public static final int DEFAULT_MAX_ENTRIES = 10_000;

    private final String name;
    private final RedisStore store;
    private final EventListeners<RateLimiterEvent> events = new EventListeners<>();
    private final KeyedRegistry<K, RedisRateLimiter> limiters;
    private final RedisRateLimiterConfig config;
    private final LimiterTally tally = new LimiterTally();

    private KeyedRedisRateLimiter(String name, RedisRateLimiterConfig config, RedisScriptingAsyncCommands<String, String> commands,
            int maxEntries) {
        this.name = name;
        this.config = config;
        this.store = new RedisStore(name, config, new ScriptRunner<>(commands, config.callTimeoutNanos()));
        this.limiters = KeyedRegistry.builder(name)
                .maxEntries(maxEntries)
                .ticker(config.rate().ticker())
                .build(key -> new RedisRateLimiter(name + ":" + key, config, store, events, tally));
    }

    /**
     * Creates a keyed limiter on a Redis connection (the caller's; never closed by the limiter).
     *
     * @param name the limiter's name, the prefix of every key's name; not blank
     * @param config the config of every key
     * @param connection a connection with {@code String} keys and values
     * @param <K> the key type
     * @return a new keyed limiter holding at most {@link #DEFAULT_MAX_ENTRIES} keys in memory
     */
    public static <K> KeyedRedisRateLimiter<K> of(String name, RedisRateLimiterConfig config,
            StatefulRedisConnection<String, String> connection) {
        Validate.notNull(RedisRateLimiterConfig.POLICY, "connection", connection);
        return of(name, config, connection.async(), DEFAULT_MAX_ENTRIES);
    }

    /**
     * Creates a keyed limiter on a Redis Cluster connection.
     *
     * @param name the limiter's name; not blank
     * @param config the config of every key
     * @param connection a cluster connection with {@code String} keys and values
     * @param <K> the key type
     * @return a new keyed limiter holding at most {@link #DEFAULT_MAX_ENTRIES} keys in memory
     */
    public static <K> KeyedRedisRateLimiter<K> of(String name, RedisRateLimiterConfig config,
            StatefulRedisClusterConnection<String, String> connection) {
        Validate.notNull(RedisRateLimiterConfig.POLICY, "connection", connection);
        return of(name, config, connection.async(), DEFAULT_MAX_ENTRIES);
    }

    /**
     * Creates a keyed limiter on any Lettuce command interface that runs scripts.
     *
     * @param name the limiter's name; not blank
     * @param config the config of every key
     * @param commands the scripting commands of the caller's connection
     * @param maxEntries the most keys held in memory, at least 1
     * @param <K> the key type
     * @return a new keyed limiter
     * @throws dev.levee.core.InvalidConfigException if an argument is null, blank or out of bounds
     */
    public static <K> KeyedRedisRateLimiter<K> of(String name, RedisRateLimiterConfig config,
            RedisScriptingAsyncCommands<String, String> commands, int maxEntries) {
        String checked = Validate.name(RedisRateLimiterConfig.POLICY, name);
        Validate.notNull(RedisRateLimiterConfig.POLICY, "config", config);
        Validate.notNull(RedisRateLimiterConfig.POLICY, "commands", commands);
        Validate.inRange(RedisRateLimiterConfig.POLICY, "maxEntries", maxEntries, 1, Integer.MAX_VALUE);
        return new KeyedRedisRateLimiter<>(checked, config, commands, maxEntries);
    }

    /**
     * The limiter of {@code key}, created if absent.
     *
     * @param key the key; not null
     * @return the key's limiter
     */
    public RedisRateLimiter forKey(K key) {
        return limiters.get(key);
    }

    /**
     * Takes one permit of {@code key}'s limit if available now.
     *
     * @param key the key
     * @return true if granted
     */
    public boolean tryAcquire(K key) {
        return forKey(key).tryAcquire();
    }

    /**
     * Takes {@code permits} of {@code key}'s limit if available now and reports the decision.
     *
     * @param key the key
     * @param permits how many, at least 1
     * @param into overwritten with the decision
     * @return {@code into.allowed()}
     */
    public boolean tryAcquire(K key, int permits, RateLimitDecision into) {
        RedisRateLimiter limiter = forKey(key);
        return limiter.tryAcquire(permits, limiter.ticker().read(), into);
    }

    /**
     * Registers a listener for the rejections and rate changes of every key.
     *
     * @param listener the listener; runs on the deciding thread and must be fast
     * @return closing it unregisters the listener
     */
    public Subscription onEvent(Consumer<? super RateLimiterEvent> listener) {
        return events.subscribe(listener);
    }

    /**
     * Registers a listener for the switches between Redis and the outage policy (one per switch for all keys).
     *
     * @param listener the listener
     * @return closing it unregisters the listener
     */
    public Subscription onStoreEvent(Consumer<? super RedisRateLimiterEvent> listener) {
        return store.events().subscribe(listener);
    }

    /**
     * Whether Redis decides now.
     *
     * @return false while the outage policy decides
     */
    public boolean storeAvailable() {
        return store.available();
    }

    /**
     * The circuit breaker around Redis, shared by all keys.
     *
     * @return the breaker
     */
    public CircuitBreaker storeBreaker() {
        return store.breaker();
    }

    /**
     * The keyed limiter's name.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * Keys held in memory now.
     *
     * @return the count
     */
    public int size() {
        return limiters.size();
    }

    /**
     * A snapshot of the whole keyed limiter: the shared store's path and counters, and the decisions of
     * all keys (evicted ones included). The rate is the config's (a key's {@code setRate} is not
     * reflected); {@code leaseStock} and {@code leaseRefills} are 0, since leases are per key (read
     * {@code forKey(key).redisMetrics()}). Allocates; for monitoring.
     *
     * @return the snapshot
     */
    public RedisRateLimiterMetrics redisMetrics() {
        return new RedisRateLimiterMetrics(config.rate().limit(), config.rate().periodNanos(), store.available(),
                config.outagePolicy(), store.breaker().state(), store.calls(), store.failures(),
                tally.outageDecisions.sum(), store.reloads(), tally.granted.sum(), tally.rejected.sum(), 0L, 0L);
    }

    /**
     * The most keys held in memory.
     *
     * @return the bound
     */
    public int maxEntries() {
        return limiters.maxEntries();
    }
}

package dev.levee.loadshed;

import dev.levee.core.CheckedSupplier;
import dev.levee.core.KeyedRegistry;
import dev.levee.core.Ticker;
import dev.levee.core.internal.Validate;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One adaptive {@link ConcurrencyLimiter} per key — per tenant, per API key, per client — so one
 * tenant's overload sheds that tenant, not everyone. Built on core's bounded {@link KeyedRegistry}.
 *
 * <pre>{@code
 * KeyedConcurrencyLimiter<String> perTenant = KeyedConcurrencyLimiter.of("tenants", config, 10_000);
 * perTenant.execute(tenantId, () -> handle(request));
 * }</pre>
 *
 * <p><b>Guarantees.</b> At most {@code maxEntries} limiters exist at once, under any concurrency
 * (least-recently-used keys, or keys idle longer than {@code idleTimeout}, are evicted first). Each
 * key's limiter has every guarantee of {@link ConcurrencyLimiter}. An evicted key that returns gets a
 * fresh limiter at the algorithm's initial limit, and requests still in flight on the evicted one
 * complete on it: for a moment that key may have two limiters' worth in flight. Size
 * {@code maxEntries} above the number of keys active at once.
 *
 * <p><b>Cost.</b> A key that is present: a map lookup, no lock, no allocation; then the limiter's own
 * cost. {@link #execute} reads the clock once on the way in (the registry's idle bookkeeping and the
 * limiter's start share the reading) and once on the way out (the latency sample). Limiters are named
 * {@code name[key]} in rejections and events.
 *
 * @param <K> the key type; needs {@code equals} and {@code hashCode}
 */
public final class KeyedConcurrencyLimiter<K> {
    /** Default bound on keys. */
    public static final int DEFAULT_MAX_ENTRIES = 10_000;
    /** Default idle time after which a key's limiter may be evicted. */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofMinutes(10);

    private static final Logger LOG = LoggerFactory.getLogger(KeyedConcurrencyLimiter.class);

    private final String name;
    private final ConcurrencyLimiterConfig perKey;
    private final Ticker ticker;
    private final KeyedRegistry<K, ConcurrencyLimiter> registry;

    private KeyedConcurrencyLimiter(String name, ConcurrencyLimiterConfig perKey, int maxEntries, Duration idleTimeout) {
        this.name = name;
        this.perKey = perKey;
        this.ticker = perKey.ticker();
        this.registry = KeyedRegistry.builder(name).maxEntries(maxEntries).idleTimeout(idleTimeout)
                .ticker(perKey.ticker())
                .build(key -> ConcurrencyLimiter.of(name + "[" + key + "]", perKey));
    }

    /**
     * A keyed limiter with the default idle timeout.
     *
     * @param name the name
     * @param perKey the configuration of every key's limiter
     * @param maxEntries the bound on keys, at least 1
     * @param <K> the key type
     * @return the keyed limiter
     * @throws dev.levee.core.InvalidConfigException if a setting is out of bounds
     */
    public static <K> KeyedConcurrencyLimiter<K> of(String name, ConcurrencyLimiterConfig perKey, int maxEntries) {
        return of(name, perKey, maxEntries, DEFAULT_IDLE_TIMEOUT);
    }

    /**
     * A keyed limiter.
     *
     * @param name the name
     * @param perKey the configuration of every key's limiter
     * @param maxEntries the bound on keys, at least 1
     * @param idleTimeout how long an unused key's limiter is kept before it may be evicted, positive
     * @param <K> the key type
     * @return the keyed limiter
     * @throws dev.levee.core.InvalidConfigException if a setting is out of bounds
     */
    public static <K> KeyedConcurrencyLimiter<K> of(String name, ConcurrencyLimiterConfig perKey, int maxEntries,
            Duration idleTimeout) {
        Validate.name("KeyedConcurrencyLimiter", name);
        String p = Validate.describe("KeyedConcurrencyLimiter", name);
        Validate.notNull(p, "perKey", perKey);
        Validate.positive(p, "maxEntries", maxEntries);
        Validate.notNull(p, "idleTimeout", idleTimeout);
        Validate.positive(p, "idleTimeout", idleTimeout);
        return new KeyedConcurrencyLimiter<>(name, perKey, maxEntries, idleTimeout);
    }

    /**
     * The limiter of {@code key}, created if absent.
     *
     * @param key the key
     * @return its limiter
     */
    public ConcurrencyLimiter forKey(K key) {
        return registry.get(key);
    }

    /**
     * Runs {@code call} under the limiter of {@code key}.
     *
     * @param key the key
     * @param call the call
     * @param <T> the result type
     * @param <E> the exception the call may throw
     * @return the call's result
     * @throws E what the call threw, unchanged
     * @throws dev.levee.core.ShedException if the key's limit is reached
     */
    public <T, E extends Throwable> T execute(K key, CheckedSupplier<T, E> call) throws E {
        // The gate protocol around the call (as Gate.execute runs it), with one reading on the way in
        // for both the registry's idle bookkeeping and the limiter's start.
        long start = ticker.read();
        ConcurrencyLimiter limiter = registry.get(key, start);
        limiter.acquire(start);
        T result;
        try {
            result = call.get();
        } catch (Throwable t) {
            long end = ticker.read();
            try {
                limiter.onFailureAt(end, end - start, t);
            } catch (RuntimeException completion) {
                t.addSuppressed(completion); // the call's own failure comes out unchanged
            }
            throw t;
        }
        long end = ticker.read();
        try {
            limiter.onResultAt(end, end - start, result);
        } catch (RuntimeException completion) {
            LOG.warn("KeyedConcurrencyLimiter '{}': the completion of key {} threw after the call returned; "
                    + "the result is kept", name, key, completion);
        }
        return result;
    }

    /** @return the name */
    public String name() {
        return name;
    }

    /** @return the configuration of each key's limiter */
    public ConcurrencyLimiterConfig perKey() {
        return perKey;
    }

    /** @return keys with a limiter now */
    public int size() {
        return registry.size();
    }

    /** @return the bound on keys */
    public int maxEntries() {
        return registry.maxEntries();
    }

    /** @return keys evicted since creation */
    public long evictionCount() {
        return registry.evictionCount();
    }

    @Override
    public String toString() {
        return "KeyedConcurrencyLimiter[" + name + ", keys=" + registry.size() + "/" + registry.maxEntries() + "]";
    }
}

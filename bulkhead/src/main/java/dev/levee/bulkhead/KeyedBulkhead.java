package dev.levee.bulkhead;

import dev.levee.core.CheckedSupplier;
import dev.levee.core.KeyedRegistry;
import dev.levee.core.internal.Validate;
import java.util.Iterator;
import java.util.Map;
import dev.levee.core.internal.Exceptions;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * One semaphore {@link Bulkhead} per key — tenant, API key, endpoint class — so one tenant's slow or
 * abusive traffic fills only its own slots.
 *
 * <p><b>Bounded.</b> Built on the core {@link KeyedRegistry}: at most
 * {@link KeyedBulkheadConfig#maxEntries()} bulkheads exist, idle ones are evicted after
 * {@link KeyedBulkheadConfig#idleTimeout()}, and the least recently used one goes first under space
 * pressure, so a caller minting keys cannot exhaust memory. A key's bulkhead is found without a lock
 * or an allocation once it exists.
 *
 * <p><b>Eviction never resets a busy key.</b> A fresh bulkhead for a key whose evicted one still has
 * calls inside would admit a full quota next to them. So an evicted bulkhead with calls inside or
 * waiting is set aside, and when its key returns it is reinstated instead of replaced; set-aside
 * bulkheads that have drained are dropped as new keys arrive. An evicted bulkhead that is empty is
 * <em>retired</em> in one compare-and-set from "nothing inside": a caller that looked the key up just
 * before the eviction can no longer enter it beside the key's fresh bulkhead; {@link #execute} and
 * {@link #executeAsync} then look the key up again by themselves. A bulkhead kept from
 * {@link #forKey} past an eviction refuses with a {@link dev.levee.core.BulkheadFullException} saying
 * so: look keys up per call. One gap remains: the registry removes an
 * entry just before it reports the eviction, so a call for that key arriving in those few instructions
 * gets a fresh bulkhead. Size {@code maxEntries} above the number of keys active within a call's latency
 * and this does not happen in practice.
 *
 * <p>Thread-safe.
 *
 * @param <K> the key type; needs {@code equals} and {@code hashCode}
 */
public final class KeyedBulkhead<K> {
    private final String name;
    private final KeyedBulkheadConfig config;
    private final KeyedRegistry<K, Bulkhead> registry;
    /** Evicted bulkheads that still had calls inside, by key. Bounded by the number of calls in flight. */
    private final Map<K, Bulkhead> draining = new ConcurrentHashMap<>();
    /** Rejections of bulkheads no longer present, so {@link #retiredRejectedCount()} never goes backwards. */
    private final LongAdder retiredRejections = new LongAdder();
    private final LongAdder reinstated = new LongAdder();

    private KeyedBulkhead(String name, KeyedBulkheadConfig config) {
        this.name = Validate.name("KeyedBulkhead", name);
        this.config = Validate.notNull(Validate.describe("KeyedBulkhead", name), "config", config);
        this.registry = KeyedRegistry.builder(name)
                .maxEntries(config.maxEntries())
                .idleTimeout(config.idleTimeout())
                .ticker(config.perKey().ticker())
                .onEviction(this::onEvicted)
                .build(this::create);
    }

    /**
     * A keyed bulkhead; each key's bulkhead is named {@code name[key]}.
     *
     * @param name the name, not blank
     * @param config the configuration
     * @param <K> the key type
     * @return the keyed bulkhead
     * @throws dev.levee.core.InvalidConfigException if the name is blank or the config null
     */
    public static <K> KeyedBulkhead<K> of(String name, KeyedBulkheadConfig config) {
        return new KeyedBulkhead<>(name, config);
    }

    /**
     * A keyed bulkhead with the default configuration ({@link KeyedBulkheadConfig#defaults()}).
     *
     * @param name the name, not blank
     * @param <K> the key type
     * @return the keyed bulkhead
     */
    public static <K> KeyedBulkhead<K> ofDefaults(String name) {
        return new KeyedBulkhead<>(name, KeyedBulkheadConfig.defaults());
    }

    private Bulkhead create(K key) {
        Bulkhead previous = draining.remove(key);
        if (previous != null) {
            reinstated.increment();
            return previous;
        }
        dropDrained();
        return Bulkhead.of(name + "[" + key + "]", config.perKey());
    }

    @SuppressWarnings("unchecked")
    private void onEvicted(Object key, Object value) {
        Bulkhead evicted = (Bulkhead) value;
        // Retire it in one CAS from "empty": a caller still holding it can then never enter it beside
        // the fresh bulkhead the key's next lookup creates. A busy one is set aside until it drains.
        if (evicted.retire()) {
            retiredRejections.add(evicted.rejectedCount());
        } else {
            draining.put((K) key, evicted);
        }
    }

    private void dropDrained() {
        for (Iterator<Map.Entry<K, Bulkhead>> it = draining.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<K, Bulkhead> e = it.next();
            Bulkhead b = e.getValue();
            // Remove first, then retire: a key returning in between reinstates it (create() removes it
            // from the map first), and a retired one cannot be reinstated, since it is no longer there.
            if (b.waitingCount() == 0 && b.activeCount() == 0 && draining.remove(e.getKey(), b)) {
                if (b.retire()) {
                    retiredRejections.add(b.rejectedCount());
                } else {
                    draining.putIfAbsent(e.getKey(), b);
                }
            }
        }
    }

    /**
     * The bulkhead of {@code key}, created if absent. Use it as a gate (permit protocol) or to execute.
     *
     * @param key the key; not null
     * @return the key's bulkhead
     */
    public Bulkhead forKey(K key) {
        return registry.get(key);
    }

    /**
     * Runs {@code call} in {@code key}'s bulkhead.
     *
     * @param key the key
     * @param call the call
     * @param <T> the result type
     * @param <E> the call's checked exception
     * @return what the call returned
     * @throws E what the call threw, unchanged
     * @throws dev.levee.core.BulkheadFullException if the key's bulkhead is full
     */
    public <T, E extends Throwable> T execute(K key, CheckedSupplier<T, E> call) throws E {
        while (true) {
            Bulkhead bulkhead = registry.get(key);
            try {
                return bulkhead.execute(call);
            } catch (Bulkhead.RetiredException retired) {
                if (retired.bulkhead != bulkhead) {
                    throw retired; // from a nested keyed bulkhead inside the call: not ours to retry
                }
                // Evicted and retired between the lookup and the entry: look the key up again.
            }
        }
    }

    /**
     * Runs the asynchronous {@code call} in {@code key}'s bulkhead; the slot is held until the stage
     * completes. Never throws.
     *
     * @param key the key
     * @param call creates the stage
     * @param <T> the result type
     * @return the stage, failed with {@link dev.levee.core.BulkheadFullException} if full
     */
    public <T> CompletionStage<T> executeAsync(K key, Supplier<? extends CompletionStage<T>> call) {
        Bulkhead bulkhead = registry.get(key);
        CompletionStage<T> stage = bulkhead.executeAsync(call);
        CompletableFuture<T> out = new CompletableFuture<>();
        stage.whenComplete((value, failure) -> {
            Throwable cause = failure == null ? null : Exceptions.unwrap(failure);
            if (cause instanceof Bulkhead.RetiredException && ((Bulkhead.RetiredException) cause).bulkhead == bulkhead) {
                // Evicted and retired before the call entered: look the key up again.
                executeAsync(key, call).whenComplete((v, f) -> {
                    if (f != null) {
                        out.completeExceptionally(Exceptions.unwrap(f));
                    } else {
                        out.complete(v);
                    }
                });
            } else if (cause != null) {
                out.completeExceptionally(cause);
            } else {
                out.complete(value);
            }
        });
        return out;
    }

    /** @return the configuration */
    public KeyedBulkheadConfig config() {
        return config;
    }

    /** @return the keyed bulkhead's name */
    public String name() {
        return name;
    }

    /** @return keys with a bulkhead right now, at most {@link KeyedBulkheadConfig#maxEntries()} */
    public int size() {
        return registry.size();
    }

    /** @return evicted bulkheads still finishing calls */
    public int drainingCount() {
        return draining.size();
    }

    /** @return evictions since creation */
    public long evictionCount() {
        return registry.evictionCount();
    }

    /** @return evicted-but-busy bulkheads given back to their returning key since creation */
    public long reinstatedCount() {
        return reinstated.sum();
    }

    /**
     * Rejections counted by bulkheads that have since been evicted (live keys report theirs through
     * {@link Bulkhead#rejectedCount()}), so a total over time never goes backwards.
     *
     * @return rejections of bulkheads no longer present
     */
    public long retiredRejectedCount() {
        return retiredRejections.sum();
    }

    /** Evicts every key idle longer than the idle timeout now, instead of a few at a time. */
    public void cleanUp() {
        registry.cleanUp();
        dropDrained();
    }

    @Override
    public String toString() {
        return "KeyedBulkhead[" + name + ", keys=" + size() + "/" + config.maxEntries() + "]";
    }
}

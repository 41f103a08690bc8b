package dev.levee.degrade;

import dev.levee.core.CheckedSupplier;
import dev.levee.core.internal.EventListeners;
import dev.levee.core.InvalidConfigException;
import dev.levee.core.KeyedRegistry;
import dev.levee.core.Subscription;
import dev.levee.core.Ticker;
import dev.levee.core.internal.Validate;
import dev.levee.core.internal.Exceptions;
import dev.levee.degrade.internal.Activations;
import dev.levee.degrade.internal.Trigger;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Remembers each key's last successful value and serves it, with its age, when the primary call for
 * that key fails — but never a value older than {@code maxStaleness} (T): seed 000's "bounded
 * staleness" (scenario 2: a local cache may serve data for up to T when the sources are down).
 *
 * <pre>{@code
 * LastKnownGood<String, Price> prices = LastKnownGood.of("prices",
 *         LastKnownGoodConfig.builder().maxStaleness(Duration.ofMinutes(2)).build());
 * Degraded<Price> price = prices.executeDegraded(sku, () -> pricing.quote(sku));
 * if (price.degraded()) response.header("X-Price-Age", price.age().toSeconds());
 * }</pre>
 *
 * <p><b>Model.</b> Each call runs the primary for its key. A value it returns is remembered with the
 * ticker's reading and returned. When it fails with a failure that triggers a fallback (the
 * {@link FallbackConfig}'s classifier and reasons, exactly as in {@link Fallback}), the remembered
 * value is served if its age is at most T, and the answer says {@code degraded}, the reason, the tier
 * {@value #TIER} and the age. Otherwise — nothing remembered, or older than T — the caller gets the
 * primary's failure back, unchanged, with a {@link StaleValueException} added as suppressed (where the
 * failure allows suppression).
 *
 * <p><b>Guarantees.</b>
 * <ul>
 *   <li>Never serves past T: a value stored at {@code s} is served at {@code now} only if
 *       {@code now - s <= T}, on the configured ticker.</li>
 *   <li>At most {@code maxEntries} keys are remembered, under any concurrency (core's
 *       {@link KeyedRegistry}; keys not refreshed within T go first).</li>
 *   <li>Never silent: each served value counts in {@code levee.degrade.fallbacks{name,reason,tier}},
 *       logs a rate-limited WARN and publishes a {@link FallbackEvent.FellBack}; see
 *       {@link GracefulDegrader}.</li>
 * </ul>
 *
 * <p><b>Composing.</b> Nest it inside a {@link Fallback} to go on to further tiers when no fresh
 * enough value exists: {@code fallback.get(() -> lastKnownGood.execute(key, primary))}. Put the gates
 * (breaker, limiter, bulkhead, timeout) inside the primary:
 * {@code lastKnownGood.execute(key, () -> pipeline.execute(call))}.
 *
 * <p><b>Cost.</b> A success remembers its value: a registry lookup (no lock on a hit; it reads the ticker too), one ticker read
 * and one 24-byte record. A failure reads the ticker and allocates the {@link Degraded} answer.
 *
 * @param <K> the key type; needs {@code equals} and {@code hashCode}
 * @param <V> the value type
 */
public final class LastKnownGood<K, V> implements GracefulDegrader {
    private static final Logger LOG = LoggerFactory.getLogger(LastKnownGood.class);
    /** The tier name reported for a remembered value. */
    public static final String TIER = "last-known-good";

    private final String name;
    private final LastKnownGoodConfig config;
    private final long maxStalenessNanos;
    private final Ticker ticker;
    private final Trigger trigger;
    private final KeyedRegistry<K, Slot<V>> slots;
    private final EventListeners<FallbackEvent> listeners = new EventListeners<>();
    private final Activations activations;

    private LastKnownGood(String name, LastKnownGoodConfig config) {
        this.name = name;
        this.config = config;
        this.maxStalenessNanos = config.maxStalenessNanos();
        this.ticker = config.fallback().ticker();
        this.trigger = new Trigger(Validate.describe("LastKnownGood", name), config.fallback(), LOG);
        this.slots = KeyedRegistry.builder(name)
                .maxEntries(config.maxEntries())
                .idleTimeout(config.maxStaleness())
                .ticker(ticker)
                .build(key -> new Slot<>());
        this.activations = new Activations("LastKnownGood", name, List.of(TIER), ticker,
                config.fallback().warnIntervalNanos(), LOG, listeners);
    }

    /**
     * Creates a last-known-good cache.
     *
     * @param name the name, for logs, events and metric tags
     * @param config the config
     * @param <K> the key type
     * @param <V> the value type
     * @return the cache
     * @throws InvalidConfigException if the name is blank or the config null
     */
    public static <K, V> LastKnownGood<K, V> of(String name, LastKnownGoodConfig config) {
        Validate.name("LastKnownGood", name);
        Validate.notNull(Validate.describe("LastKnownGood", name), "config", config);
        return new LastKnownGood<>(name, config);
    }

    /**
     * Creates a last-known-good cache with the defaults (T = 5 minutes, 10,000 keys).
     *
     * @param name the name
     * @param <K> the key type
     * @param <V> the value type
     * @return the cache
     */
    public static <K, V> LastKnownGood<K, V> ofDefaults(String name) {
        return of(name, LastKnownGoodConfig.defaults());
    }

    /**
     * Runs the primary call for {@code key}; on a failure, the remembered value if it is at most T old.
     *
     * @param key the key
     * @param call the primary call
     * @param <E> the checked exception type of the call
     * @return the call's value, or the remembered one
     * @throws E the call's failure, unchanged, when no value young enough is remembered
     */
    public <E extends Throwable> @Nullable V execute(K key, CheckedSupplier<? extends V, E> call) throws E {
        return executeDegraded(key, call).value();
    }

    /**
     * Runs the primary call for {@code key} and says how the answer was obtained, with the age of a
     * remembered value.
     *
     * @param key the key
     * @param call the primary call
     * @param <E> the checked exception type of the call
     * @return the answer
     * @throws E the call's failure, unchanged, when no value young enough is remembered
     */
    public <E extends Throwable> Degraded<V> executeDegraded(K key, CheckedSupplier<? extends V, E> call) throws E {
        Objects.requireNonNull(key, "key");
        V value;
        try {
            value = call.get();
        } catch (Throwable failure) {
            FallbackReason reason = trigger.reasonFor(failure);
            if (reason == null) {
                throw failure;
            }
            return recall(key, reason, failure);
        }
        if (trigger.classifiesResults() && trigger.isBad(value)) {
            try {
                return recall(key, FallbackReason.RESULT, new BadResultException(name, value));
            } catch (BadResultException exhausted) {
                return Degraded.fresh(value);
            }
        }
        remember(key, value);
        return Degraded.fresh(value);
    }

    /**
     * The asynchronous form of {@link #executeDegraded}: a value the stage completes with is
     * remembered; a failure that triggers a fallback is answered with the remembered value if it is at
     * most T old. Never throws.
     *
     * @param key the key
     * @param call creates the primary stage
     * @return a stage with the answer, or the primary's failure (the same instance) when no value
     *     young enough is remembered
     */
    public CompletionStage<Degraded<V>> executeDegradedAsync(K key,
            Supplier<? extends CompletionStage<? extends V>> call) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(call, "call");
        CompletableFuture<Degraded<V>> out = new CompletableFuture<>();
        CompletionStage<? extends V> primary;
        try {
            primary = call.get();
            if (primary == null) {
                primary = CompletableFuture.failedFuture(new NullPointerException("the call returned a null CompletionStage"));
            }
        } catch (RuntimeException e) {
            primary = CompletableFuture.failedFuture(e);
        }
        primary.whenComplete((value, error) -> {
            try {
                out.complete(error == null
                        ? executeDegraded(key, () -> value)
                        : executeDegraded(key, () -> {
                            throw Exceptions.unwrap(error);
                        }));
            } catch (Throwable failure) {
                out.completeExceptionally(failure);
            }
        });
        return out;
    }

    /**
     * Remembers {@code value} for {@code key} as of now, e.g. from a write path or a cache warm-up.
     *
     * @param key the key
     * @param value the value
     */
    public void remember(K key, @Nullable V value) {
        Objects.requireNonNull(key, "key");
        slots.get(key).stamped = new Stamped<>(value, ticker.read());
    }

    /**
     * The remembered value for {@code key} if it is at most T old; counts nothing and logs nothing
     * (a lookup, not a fallback).
     *
     * @param key the key
     * @return the value, or empty when none is remembered or it is older than T (or null)
     */
    public Optional<V> peek(K key) {
        Stamped<V> stamped = stampedOf(key);
        if (stamped == null || ticker.read() - stamped.storedAtNanos > maxStalenessNanos) {
            return Optional.empty();
        }
        return Optional.ofNullable(stamped.value);
    }

    /**
     * Forgets {@code key}.
     *
     * @param key the key
     * @return true if something was remembered
     */
    public boolean forget(K key) {
        return slots.remove(key);
    }

    /** @return the number of keys remembered (some may be older than T until evicted) */
    public int size() {
        return slots.size();
    }

    @Override
    public String name() {
        return name;
    }

    /** @return the config */
    public LastKnownGoodConfig config() {
        return config;
    }

    @Override
    public List<String> tierNames() {
        return List.of(TIER);
    }

    @Override
    public long fallbackCount(FallbackReason reason, int tier) {
        return activations.fallbackCount(reason, tier);
    }

    @Override
    public long exhaustedCount(FallbackReason reason) {
        return activations.exhaustedCount(reason);
    }

    @Override
    public FallbackMetrics metrics() {
        return activations.metrics();
    }

    @Override
    public Subscription onEvent(Consumer<? super FallbackEvent> listener) {
        return listeners.subscribe(listener);
    }

    private Degraded<V> recall(K key, FallbackReason reason, Throwable failure) {
        Stamped<V> stamped = stampedOf(key);
        long now = ticker.read();
        long age = stamped == null ? -1L : now - stamped.storedAtNanos;
        if (stamped != null && age <= maxStalenessNanos) {
            activations.fellBack(reason, 0, failure);
            Duration ageDuration = Duration.ofNanos(Math.max(0L, age));
            return new Degraded<>(stamped.value, true, reason, TIER,
                    reason.tag() + ": served the value remembered " + ageDuration + " ago", failure, ageDuration);
        }
        StaleValueException refused = stamped == null
                ? new StaleValueException("LastKnownGood '" + name + "': nothing remembered for the key", null)
                : new StaleValueException("LastKnownGood '" + name + "': the remembered value is "
                        + Duration.ofNanos(age) + " old, more than maxStaleness " + config.maxStaleness(),
                        Duration.ofNanos(age));
        failure.addSuppressed(refused);
        activations.tierFailed(reason, 0, refused);
        activations.exhausted(reason, failure);
        throw Exceptions.sneakyThrow(failure);
    }

    private @Nullable Stamped<V> stampedOf(K key) {
        Slot<V> slot = slots.getIfPresent(Objects.requireNonNull(key, "key")).orElse(null);
        return slot == null ? null : slot.stamped;
    }

    @Override
    public String toString() {
        return "LastKnownGood[" + name + ", maxStaleness=" + config.maxStaleness() + ", keys=" + size() + "]";
    }

    /** One key's remembered value; replaced whole so a reader never sees a value with another's stamp. */
    private static final class Slot<V> {
        volatile @Nullable Stamped<V> stamped;
    }

    private static final class Stamped<V> {
        final @Nullable V value;
        final long storedAtNanos;

        Stamped(@Nullable V value, long storedAtNanos) {
            this.value = value;
            this.storedAtNanos = storedAtNanos;
        }
    }
}

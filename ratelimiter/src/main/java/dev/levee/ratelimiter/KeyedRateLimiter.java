package dev.levee.ratelimiter;

import dev.levee.core.Deadline;
import dev.levee.core.KeyedRegistry;
import dev.levee.core.Subscription;
import dev.levee.core.internal.Validate;
import dev.levee.ratelimiter.internal.AbstractRateLimiter;
import dev.levee.ratelimiter.internal.KeyedStateTable;
import dev.levee.ratelimiter.internal.LimiterContext;
import dev.levee.ratelimiter.internal.Limiters;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * One rate limit per key — per tenant, per API key, per client address, per endpoint class — with a
 * hard bound on how many keys are tracked at once.
 *
 * <p><b>Tiers.</b> A key maps to a tier ({@code tierOf}), and a tier to a {@link RateLimiterConfig}
 * (free: 10/s, gold: 1000/s). Keys whose tier is not configured get the default config.
 *
 * <p><b>Memory.</b> At most {@code maxEntries} keys at any moment (idle keys, then those not used since
 * the CLOCK hand last passed, are evicted first). All keys share one name, ticker, listener list and
 * counter set, and the keys of one tier share their parameters. When every tier is GCRA or the leaky
 * bucket without warm-up, or the token bucket, a key's whole state is one {@code long} kept beside the
 * key in an open-addressing table ({@code KeyedStateTable}): 28 bytes a slot, at most
 * {@code nextPowerOfTwo(2·maxEntries)} slots, grown by doubling — about 63 bytes per key besides the key
 * at a million keys. Other configurations keep a 32-byte limiter object per key in the core
 * {@link KeyedRegistry}, behind a map node (about 73 bytes per key plus any window objects). Measured
 * figures: {@code docs/ratelimiter.md}. An evicted key that returns starts with a full budget, so size
 * {@code maxEntries} above the number of keys active within one period, and set {@code idleTimeout} to
 * at least the longest period (after that a key's state is back to full anyway for GCRA and the token
 * bucket).
 *
 * <p><b>{@link #forKey}</b> returns the key's own limiter object, the same one on every call while the
 * key stays; its {@code setRate} changes that key alone. In a state table this promotes the key (its
 * state moves into that object and its decisions go through it, one map lookup more); {@link #acquire}
 * (waiting) promotes too. Once the key is evicted the object is detached: what it decides no longer
 * counts for the key, which comes back fresh at its tier's rate.
 *
 * <p>Thread-safe. A hit (known key) takes no lock and allocates nothing beyond what the key's
 * {@code hashCode} does, and a decision reads the clock once: the same reading serves the eviction
 * bookkeeping and the decision. Inserting a key, evicting one and growing the table take a lock.
 *
 * @param <K> the key type; needs {@code equals} and {@code hashCode}
 */
public final class KeyedRateLimiter<K> {
    private final String name;
    private final LimiterContext ctx;
    private final RateLimiterConfig defaultConfig;
    private final Map<String, RateLimiterConfig> tiers;
    private final @Nullable Function<? super K, String> tierOf;
    /** The keys when every tier is GCRA or leaky bucket without warm-up, or token bucket: state beside the key; else null. */
    private final @Nullable KeyedStateTable<K> table;
    /** The keys of every other configuration (a limiter object per key); null when {@link #table} serves. */
    private final @Nullable KeyedRegistry<K, AbstractRateLimiter> registry;

    private KeyedRateLimiter(Builder<K> b, RateLimiterConfig defaultConfig) {
        this.name = b.name;
        this.defaultConfig = defaultConfig;
        this.tiers = Map.copyOf(b.tiers);
        this.tierOf = b.tierOf;
        this.ctx = new LimiterContext(b.name, defaultConfig.ticker(), defaultConfig.sleeper());
        this.table = tableOrNull(b);
        this.registry = table != null ? null : KeyedRegistry.builder(b.name)
                .maxEntries(b.maxEntries)
                .idleTimeout(b.idleTimeout)
                .ticker(defaultConfig.ticker())
                .buildEntries(this::create); // each key's limiter is its own registry entry
    }

    /**
     * A state table when every tier's per-key state is one {@code long} with the tier's parameters (GCRA
     * or leaky bucket without warm-up, token bucket) and the bound fits one; else null (the registry serves).
     */
    private @Nullable KeyedStateTable<K> tableOrNull(Builder<K> b) {
        if (b.maxEntries > KeyedStateTable.MAX_ENTRIES) {
            return null;
        }
        List<String> names = new ArrayList<>(tiers.keySet());
        AbstractRateLimiter[] prototypes = new AbstractRateLimiter[names.size() + 1];
        for (int t = 0; t < prototypes.length; t++) {
            RateLimiterConfig config = t == 0 ? defaultConfig : Objects.requireNonNull(tiers.get(names.get(t - 1)));
            if (!KeyedStateTable.fits(config)) {
                return null; // before creating anything: a token bucket's shared origin is read at its first key
            }
            prototypes[t] = Limiters.create(ctx, config);
        }
        Map<String, Integer> index = new HashMap<>();
        for (int t = 1; t < prototypes.length; t++) {
            index.put(names.get(t - 1), t);
        }
        Function<? super K, String> byKey = tierOf;
        return new KeyedStateTable<>(ctx, prototypes, key -> {
            String tier = byKey == null ? null : byKey.apply(key);
            return tier == null ? 0 : index.getOrDefault(tier, 0);
        }, b.maxEntries, Deadline.saturatedNanos(b.idleTimeout));
    }

    /**
     * Starts a keyed limiter.
     *
     * @param name its name (all keys' limiters share it: in rejections, events and metrics)
     * @param <K> the key type
     * @return a builder
     */
    public static <K> Builder<K> builder(String name) {
        return new Builder<>(name);
    }

    private AbstractRateLimiter create(K key) {
        RateLimiterConfig config = defaultConfig;
        if (tierOf != null) {
            String tier = tierOf.apply(key);
            if (tier != null) {
                config = tiers.getOrDefault(tier, defaultConfig);
            }
        }
        return Limiters.create(ctx, config);
    }

    /**
     * The limiter of {@code key}, created if absent (possibly evicting another key's).
     *
     * @param key the key; not null
     * @return its limiter
     */
    public RateLimiter forKey(K key) {
        KeyedStateTable<K> t = table;
        return t != null ? t.promote(key, ctx.ticker().read()) : registry().get(key);
    }

    /** Exactly one of {@link #table} and {@link #registry} is set. */
    private KeyedRegistry<K, AbstractRateLimiter> registry() {
        return Objects.requireNonNull(registry, "registry");
    }

    /**
     * Takes one permit for {@code key} if available now.
     *
     * @param key the key
     * @return true if granted
     */
    public boolean tryAcquire(K key) {
        return tryAcquire(key, 1);
    }

    /**
     * Takes {@code permits} for {@code key} if available now.
     *
     * @param key the key
     * @param permits how many, at least 1
     * @return true if granted
     */
    public boolean tryAcquire(K key, int permits) {
        long now = ctx.ticker().read(); // one reading serves the eviction bookkeeping and the decision
        KeyedStateTable<K> t = table;
        return t != null ? t.tryAcquire(key, permits, now, null) : registry().get(key, now).tryAcquire(permits, now);
    }

    /**
     * Takes {@code permits} for {@code key} if available now, reporting the decision.
     *
     * @param key the key
     * @param permits how many, at least 1
     * @param into overwritten with the decision
     * @return true if granted
     */
    public boolean tryAcquire(K key, int permits, RateLimitDecision into) {
        long now = ctx.ticker().read();
        KeyedStateTable<K> t = table;
        return t != null ? t.tryAcquire(key, permits, now, into) : registry().get(key, now).tryAcquire(permits, now, into);
    }

    /**
     * Takes {@code permits} for {@code key}, waiting up to {@code maxWait}; see
     * {@link RateLimiter#acquire(int, Duration)}.
     *
     * @param key the key
     * @param permits how many
     * @param maxWait the longest wait
     */
    public void acquire(K key, int permits, Duration maxWait) {
        forKey(key).acquire(permits, maxWait);
    }

    /**
     * Registers a listener for the events of every key.
     *
     * @param listener the listener
     * @return closing it unregisters the listener
     */
    public Subscription onEvent(Consumer<? super RateLimiterEvent> listener) {
        return ctx.events().subscribe(listener);
    }

    /** @return the name */
    public String name() {
        return name;
    }

    /** @return keys tracked now, at most {@link #maxEntries()} */
    public int size() {
        KeyedStateTable<K> t = table;
        return t != null ? t.size() : registry().size();
    }

    /** @return the bound on keys */
    public int maxEntries() {
        KeyedStateTable<K> t = table;
        return t != null ? t.maxEntries() : registry().maxEntries();
    }

    /** @return keys evicted since creation */
    public long evictionCount() {
        KeyedStateTable<K> t = table;
        return t != null ? t.evictionCount() : registry().evictionCount();
    }

    /** Evicts every key idle longer than the idle timeout. */
    public void cleanUp() {
        KeyedStateTable<K> t = table;
        if (t != null) {
            t.cleanUp(ctx.ticker().read());
        } else {
            registry().cleanUp();
        }
    }

    LimiterContext context() {
        return ctx;
    }

    /**
     * Builds a {@link KeyedRateLimiter}. Not thread-safe; {@link #build()} validates.
     *
     * @param <K> the key type
     */
    public static final class Builder<K> {
        private final String name;
        private @Nullable RateLimiterConfig defaultConfig;
        private final Map<String, RateLimiterConfig> tiers = new HashMap<>();
        private @Nullable Function<? super K, String> tierOf;
        private int maxEntries = 10_000;
        private Duration idleTimeout = Duration.ofMinutes(10);

        private Builder(String name) {
            this.name = name;
        }

        /**
         * The config of keys without a configured tier (required). Its ticker and sleeper serve
         * every key.
         *
         * @param config the config
         * @return this builder
         */
        public Builder<K> defaultConfig(RateLimiterConfig config) {
            this.defaultConfig = config;
            return this;
        }

        /**
         * Adds a tier.
         *
         * @param tier the tier's name, as {@code tierOf} returns it
         * @param config its config (its ticker and sleeper are ignored: the default config's are used)
         * @return this builder
         */
        public Builder<K> tier(String tier, RateLimiterConfig config) {
            String policy = Validate.describe("KeyedRateLimiter", name);
            tiers.put(Validate.notNull(policy, "tier", tier), Validate.notNull(policy, "tier config", config));
            return this;
        }

        /**
         * Maps a key to its tier (default: every key in the default tier). Called once per key when its
         * limiter is created.
         *
         * @param tierOf the mapping; may return null for the default
         * @return this builder
         */
        public Builder<K> tierOf(Function<? super K, String> tierOf) {
            this.tierOf = tierOf;
            return this;
        }

        /**
         * The bound on keys tracked at once (default 10,000).
         *
         * @param maxEntries at least 1
         * @return this builder
         */
        public Builder<K> maxEntries(int maxEntries) {
            this.maxEntries = maxEntries;
            return this;
        }

        /**
         * How long an unused key is kept before it may be evicted without space pressure (default 10
         * minutes).
         *
         * @param idleTimeout greater than zero
         * @return this builder
         */
        public Builder<K> idleTimeout(Duration idleTimeout) {
            this.idleTimeout = idleTimeout;
            return this;
        }

        /**
         * Validates and builds.
         *
         * @return the keyed limiter
         */
        public KeyedRateLimiter<K> build() {
            Validate.name("KeyedRateLimiter", name);
            String policy = Validate.describe("KeyedRateLimiter", name);
            RateLimiterConfig config = Validate.notNull(policy, "defaultConfig", defaultConfig);
            Validate.positive(policy, "maxEntries", maxEntries);
            Validate.positive(policy, "idleTimeout", idleTimeout);
            if (!tiers.isEmpty()) {
                Validate.notNull(policy, "tierOf", tierOf);
            }
            return new KeyedRateLimiter<>(this, config);
        }
    }
}

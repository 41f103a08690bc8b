package dev.levee.core;

import dev.levee.core.internal.Validate;
import java.time.Duration;
import java.util.Iterator;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.jspecify.annotations.Nullable;

/**
 * One policy per key — per tenant, per API key, per client address — with a hard bound on how many
 * exist at once, so a caller minting fresh keys cannot exhaust memory.
 *
 * <p><b>Guarantees.</b>
 * <ul>
 *   <li>At most {@code maxEntries} policies exist at any moment, under any concurrency: a slot is
 *       reserved before a policy is created, and when none is free another entry is evicted
 *       first.</li>
 *   <li>For a key that is present, every caller gets the same policy; concurrent first calls for one
 *       key create one policy.</li>
 *   <li>A hit (the key is present) takes no lock and allocates nothing.</li>
 * </ul>
 *
 * <p><b>Eviction.</b> Entries idle longer than {@code idleTimeout} go first; otherwise the victim is
 * chosen by the CLOCK algorithm (an approximation of least-recently-used: an entry used since the
 * hand last passed gets a second chance). The hand walks the map itself, so an entry costs no queue
 * node. Idle entries are also swept a few at a time as new keys arrive, and all at once by
 * {@link #cleanUp()}. An evicted key that comes back gets a fresh policy:
 * for a limiter that means a fresh budget, so size {@code maxEntries} above the number of keys active
 * within one limit window. The eviction listener can close what an evicted policy holds.
 *
 * <p><b>Memory.</b> Per entry: the policy itself plus about 70 bytes of bookkeeping (the map's node
 * and table slot, 32 + about 6 bytes, and the entry, 32 bytes: key, policy, last access and the
 * CLOCK bit) on a 64-bit JVM with compressed oops.
 *
 * <p><b>Time.</b> {@link #get(Object)} reads the ticker once, for the idle bookkeeping;
 * {@link #get(Object, long)} takes a reading the caller already has, so a keyed decision that needs
 * the time anyway (a rate limiter's) reads the clock once in all.
 *
 * @param <K> the key type; needs {@code equals} and {@code hashCode}
 * @param <P> the policy type
 */
public final class KeyedRegistry<K, P> {
    private static final Logger LOG = LoggerFactory.getLogger(KeyedRegistry.class);
    /** A sweep of idle entries runs every this many insertions... */
    private static final int SWEEP_EVERY = 64;
    /** ...and looks at this many entries under the clock hand. */
    private static final int SWEEP_SIZE = 16;

    private final String name;
    private final int maxEntries;
    private final long idleNanos;
    private final long touchGranularityNanos;
    private final Ticker ticker;
    private final Function<? super K, ? extends P> factory;
    private final @Nullable BiConsumer<? super K, ? super P> evictionListener;

    private final ConcurrentHashMap<K, Entry<K, P>> map = new ConcurrentHashMap<>();
    /**
     * The CLOCK hand: a weakly consistent walk of the map (it sees every entry present for the whole
     * walk, and some added or removed meanwhile), restarted when it reaches the end. Guarded by
     * {@link #handLock}; used only when a slot is needed or idle entries are swept, never on a hit.
     */
    private @Nullable Iterator<Entry<K, P>> hand;
    private final ReentrantLock handLock = new ReentrantLock();
    /** Reserved slots: entries present plus creations in progress; never above maxEntries. */
    private final AtomicInteger reserved = new AtomicInteger();
    private final AtomicLong insertions = new AtomicLong();
    /**
     * Inserters parked in {@link #reserveSlot} because every present entry is still being created.
     * Publishing an entry or freeing a slot signals them only when this is non-zero.
     */
    private final AtomicInteger slotWaiters = new AtomicInteger();
    private final ReentrantLock slotLock = new ReentrantLock();
    private final Condition slotChanged = slotLock.newCondition();
    private final AtomicLong evictions = new AtomicLong();

    private KeyedRegistry(Builder b, Function<? super K, ? extends P> factory) {
        this.name = b.name;
        this.maxEntries = b.maxEntries;
        this.idleNanos = Deadline.saturatedNanos(b.idleTimeout);
        this.touchGranularityNanos = idleNanos / 16;
        this.ticker = b.ticker;
        this.factory = factory;
        this.evictionListener = b.evictionListener;
    }

    /**
     * Starts a keyed registry.
     *
     * @param name the registry's name, used in messages and logs
     * @return a builder
     */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /**
     * The policy for {@code key}, created if absent (possibly evicting another key's policy).
     *
     * @param key the key; not null
     * @return the key's policy
     */
    public P get(K key) {
        return get(key, ticker.read());
    }

    /**
     * The policy for {@code key}, created if absent, with a reading of this registry's ticker the caller
     * has already taken (so a decision that needs the time reads the clock once).
     *
     * @param key the key; not null
     * @param nowNanos a current reading of the ticker the registry was built with
     * @return the key's policy
     */
    public P get(K key, long nowNanos) {
        Objects.requireNonNull(key, "key");
        long now = nowNanos;
        Entry<K, P> entry = map.get(key);
        if (entry != null) {
            touch(entry, now);
            return entry.value;
        }
        return insert(key, now);
    }

    /**
     * The policy for {@code key} if present; does not create or touch it.
     *
     * @param key the key
     * @return the policy, if present
     */
    public Optional<P> getIfPresent(K key) {
        Entry<K, P> entry = map.get(key);
        return entry == null ? Optional.empty() : Optional.of(entry.value);
    }

    /**
     * Removes the policy for {@code key} (the eviction listener is not called).
     *
     * @param key the key
     * @return true if it was present
     */
    public boolean remove(K key) {
        Entry<K, P> entry = map.remove(key);
        if (entry == null) {
            return false;
        }
        reserved.decrementAndGet();
        slotChanged();
        return true;
    }

    /**
     * The number of policies present.
     *
     * @return at most {@link #maxEntries()}
     */
    public int size() {
        return map.size();
    }

    /**
     * The bound on entries.
     *
     * @return the configured maximum
     */
    public int maxEntries() {
        return maxEntries;
    }

    /**
     * How many entries were evicted (for space or idleness) since creation.
     *
     * @return the count
     */
    public long evictionCount() {
        return evictions.get();
    }

    /**
     * The registry's name.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /** Evicts every entry idle longer than the idle timeout. Runs in time proportional to the size. */
    public void cleanUp() {
        long now = ticker.read();
        for (Entry<K, P> entry : map.values()) {
            if (isIdle(entry, now)) {
                evict(entry);
            }
        }
    }

    private void touch(Entry<K, P> entry, long now) {
        // Write only when something changes, so hot keys do not bounce a cache line between cores.
        if (!entry.referenced) {
            entry.referenced = true;
        }
        if (now - entry.lastAccessNanos > touchGranularityNanos) {
            entry.lastAccessNanos = now;
        }
    }

    private P insert(K key, long now) {
        reserveSlot(now);
        Entry<K, P> created = new Entry<>(key, now);
        Entry<K, P> winner;
        try {
            winner = map.computeIfAbsent(key, k -> {
                created.value = Objects.requireNonNull(
                        factory.apply(k), () -> "KeyedRegistry '" + name + "': factory returned null for " + k);
                return created;
            });
        } catch (RuntimeException | Error e) {
            reserved.decrementAndGet();
            slotChanged();
            throw e;
        }
        if (winner != created) {
            reserved.decrementAndGet();
            slotChanged();
            touch(winner, now);
            return winner.value;
        }
        slotChanged();
        if (insertions.incrementAndGet() % SWEEP_EVERY == 0) {
            sweepIdle(now);
        }
        return created.value;
    }

    private void reserveSlot(long now) {
        boolean interrupted = false;
        try {
            while (true) {
                int current = reserved.get();
                if (current < maxEntries) {
                    if (reserved.compareAndSet(current, current + 1)) {
                        return;
                    }
                } else if (!evictOne(now)) {
                    // Every present entry is being created by another thread right now: park until one
                    // is published or a slot is freed, instead of burning a core while a slow factory runs.
                    interrupted |= awaitSlotChange();
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Parks until an entry is published to the map or a reserved slot is freed. The waiter counts
     * itself, then re-checks; a publisher changes the state, then reads the count: one of the two sees
     * the other, and the signal is sent under the lock, so no wake-up is lost. The park is bounded
     * (1 ms) as a safety net. Not interruptible ({@link #get} is not): an interrupt is kept and restored.
     *
     * @return whether the thread was interrupted while parked
     */
    @SuppressWarnings("WaitNotInLoop") // one bounded wait; the caller's insert loop re-checks every condition
    private boolean awaitSlotChange() {
        slotLock.lock();
        try {
            slotWaiters.incrementAndGet();
            try {
                if (reserved.get() < maxEntries || !map.isEmpty()) {
                    return false;
                }
                slotChanged.awaitNanos(1_000_000L);
                return false;
            } catch (InterruptedException e) {
                return true;
            } finally {
                slotWaiters.decrementAndGet();
            }
        } finally {
            slotLock.unlock();
        }
    }

    /** Wakes inserters parked in {@link #awaitSlotChange}; costs one volatile read when none is. */
    private void slotChanged() {
        if (slotWaiters.get() != 0) {
            slotLock.lock();
            try {
                slotChanged.signalAll();
            } finally {
                slotLock.unlock();
            }
        }
    }

    /**
     * Runs the clock hand until one entry is evicted; false if the map is empty (every reserved slot
     * belongs to an entry still being created).
     */
    private boolean evictOne(long now) {
        // Two full turns of the hand find an unreferenced entry unless other threads keep touching;
        // past that, evict regardless so the bound always wins.
        int patience = 2 * maxEntries + 16;
        handLock.lock();
        try {
            while (true) {
                Entry<K, P> candidate = advanceHand();
                if (candidate == null) {
                    return false;
                }
                if (patience-- <= 0 || !candidate.referenced || isIdle(candidate, now)) {
                    if (evict(candidate)) {
                        return true;
                    }
                    continue; // removed meanwhile: the walk may still show it
                }
                candidate.referenced = false;
            }
        } finally {
            handLock.unlock();
        }
    }

    /** The entry under the hand, moving the hand one step; null if the map is empty. Under handLock. */
    private @Nullable Entry<K, P> advanceHand() {
        Iterator<Entry<K, P>> walk = hand;
        if (walk == null || !walk.hasNext()) {
            walk = map.values().iterator();
            hand = walk;
            if (!walk.hasNext()) {
                return null;
            }
        }
        return walk.next();
    }

    /** Evicts the idle entries among the next few under the hand; skipped if another thread holds it. */
    private void sweepIdle(long now) {
        if (!handLock.tryLock()) {
            return;
        }
        try {
            for (int i = 0; i < SWEEP_SIZE; i++) {
                Entry<K, P> candidate = advanceHand();
                if (candidate == null) {
                    return;
                }
                if (isIdle(candidate, now)) {
                    evict(candidate);
                }
            }
        } finally {
            handLock.unlock();
        }
    }

    private boolean isIdle(Entry<K, P> entry, long now) {
        return now - entry.lastAccessNanos > idleNanos;
    }

    private boolean evict(Entry<K, P> entry) {
        if (!map.remove(entry.key, entry)) {
            return false;
        }
        evictions.incrementAndGet();
        try {
            if (evictionListener != null) {
                evictionListener.accept(entry.key, entry.value);
            }
        } catch (RuntimeException e) {
            LOG.warn("KeyedRegistry '{}': eviction listener failed for key {}", name, entry.key, e);
        } finally {
            // Free the slot only after the listener ran, so a replacement policy is never created
            // while the evicted one is still being closed.
            reserved.decrementAndGet();
            slotChanged();
        }
        return true;
    }

    private static final class Entry<K, P> {
        final K key;
        /** Written inside computeIfAbsent before the entry is published; read only after. */
        P value;
        volatile long lastAccessNanos;
        volatile boolean referenced;

        @SuppressWarnings("NullAway.Init") // value is set inside computeIfAbsent before publication
        Entry(K key, long now) {
            this.key = key;
            this.lastAccessNanos = now;
        }
    }

    /** Configures a {@link KeyedRegistry}. Not thread-safe; {@code build} validates. */
    public static final class Builder {
        private final String name;
        private int maxEntries = 10_000;
        private Duration idleTimeout = Duration.ofMinutes(10);
        private Ticker ticker = Ticker.system();
        private @Nullable BiConsumer<Object, Object> evictionListener;

        private Builder(String name) {
            this.name = name;
        }

        /**
         * The hard bound on entries (default 10,000).
         *
         * @param maxEntries at least 1
         * @return this builder
         */
        public Builder maxEntries(int maxEntries) {
            this.maxEntries = maxEntries;
            return this;
        }

        /**
         * How long an unused entry is kept before it may be evicted without space pressure
         * (default 10 minutes).
         *
         * @param idleTimeout greater than zero
         * @return this builder
         */
        public Builder idleTimeout(Duration idleTimeout) {
            this.idleTimeout = idleTimeout;
            return this;
        }

        /**
         * The time source for idleness (default {@link Ticker#system()}).
         *
         * @param ticker the ticker
         * @return this builder
         */
        public Builder ticker(Ticker ticker) {
            this.ticker = ticker;
            return this;
        }

        /**
         * Called with each evicted key and policy, on the thread that evicted it; use it to close
         * resources the policy holds. Not called for {@link KeyedRegistry#remove}.
         *
         * @param listener the listener
         * @return this builder
         */
        @SuppressWarnings("unchecked")
        public Builder onEviction(BiConsumer<?, ?> listener) {
            this.evictionListener = (BiConsumer<Object, Object>) listener;
            return this;
        }

        /**
         * Validates the settings and builds the registry.
         *
         * @param factory creates the policy for a new key; must not return null
         * @param <K> the key type
         * @param <P> the policy type
         * @return the registry
         * @throws InvalidConfigException if a setting is out of bounds
         */
        public <K, P> KeyedRegistry<K, P> build(Function<? super K, ? extends P> factory) {
            Validate.name("KeyedRegistry", name);
            String policy = Validate.describe("KeyedRegistry", name);
            Validate.positive(policy, "maxEntries", maxEntries);
            Validate.positive(policy, "idleTimeout", idleTimeout);
            Validate.notNull(policy, "ticker", ticker);
            Validate.notNull(policy, "factory", factory);
            return new KeyedRegistry<>(this, factory);
        }
    }
}

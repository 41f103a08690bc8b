package dev.levee.core;

import dev.levee.core.internal.Validate;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
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
 * <p><b>Memory.</b> Per entry, on a 64-bit JVM with compressed oops: the map's node and table slot
 * (32 + 4 to 8 bytes) and the policy; an ordinary policy is held by a 24-byte entry (the policy's
 * reference and one {@code long}, the last access with the CLOCK bit folded in), about 64 bytes of
 * bookkeeping in all. A policy that extends {@link Entry} is its own entry ({@link Builder#buildEntries}):
 * the bookkeeping is then the node, the slot and the 8 bytes of that {@code long} inside the policy, and a
 * hit touches one object fewer.
 *
 * <p><b>Time.</b> {@link #get(Object)} reads the ticker once, for the idle bookkeeping;
 * {@link #get(Object, long)} takes a reading the caller already has, so a keyed decision that needs
 * the time anyway (a rate limiter's) reads the clock once in all.
 *
 * <p><b>A hit</b> loads the map's table slot and node, then the entry's {@code long}; it writes that
 * {@code long} only when it changes (the CLOCK bit was cleared by the hand, or the last access is older
 * than a sixteenth of the idle timeout), with a plain store (no fence): no per-decision write to a shared
 * structure.
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
    /** Whether policies are held in a {@link Boxed} entry (false: each policy is its own {@link Entry}). */
    private final boolean boxed;

    private final ConcurrentHashMap<K, Entry> map = new ConcurrentHashMap<>();
    /**
     * The CLOCK hand: a weakly consistent walk of the map (it sees every entry present for the whole
     * walk, and some added or removed meanwhile), restarted when it reaches the end. Guarded by
     * {@link #handLock}; used only when a slot is needed or idle entries are swept, never on a hit.
     */
    private @Nullable Iterator<Map.Entry<K, Entry>> hand;
    /**
     * The size at which the map next grows its table; the hand restarts once the map reaches it. A
     * walk holds the table it began on, and after a resize that table's forwarding nodes hold the next:
     * a hand kept across the resizes of a growing map would keep every old table alive (8 bytes a key at
     * a million keys). Guarded by {@link #handLock}.
     */
    private int handRenewAt;
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

    private KeyedRegistry(Builder b, Function<? super K, ? extends P> factory, boolean boxed) {
        this.name = b.name;
        this.boxed = boxed;
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
        Entry entry = map.get(key);
        if (entry != null) {
            touch(entry, nowNanos);
            return valueOf(entry);
        }
        return insert(key, nowNanos);
    }

    /**
     * The policy for {@code key} if present; does not create or touch it.
     *
     * @param key the key
     * @return the policy, if present
     */
    public Optional<P> getIfPresent(K key) {
        Entry entry = map.get(key);
        return entry == null ? Optional.empty() : Optional.of(valueOf(entry));
    }

    /**
     * Removes the policy for {@code key} (the eviction listener is not called).
     *
     * @param key the key
     * @return true if it was present
     */
    public boolean remove(K key) {
        Entry entry = map.remove(key);
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
        for (Map.Entry<K, Entry> e : map.entrySet()) {
            if (isIdle(e.getValue(), now)) {
                evict(e.getKey(), e.getValue());
            }
        }
    }

    @SuppressWarnings("unchecked") // boxed: a Boxed<P> made by newEntry; else the factory's P itself
    private P valueOf(Entry entry) {
        return boxed ? ((Boxed<P>) entry).value : (P) entry;
    }

    /**
     * Marks {@code entry} used at {@code now}: sets the CLOCK bit and, at most every sixteenth of the
     * idle timeout, the last access. Writes only when one of them changes, and with a plain store, so a
     * hot key's line is not written per decision and bounced between cores.
     */
    private void touch(Entry entry, long now) {
        long s = (long) STAMP.getOpaque(entry);
        if ((s & REFERENCED) == 0 || now - s > touchGranularityNanos) {
            STAMP.setOpaque(entry, now | REFERENCED);
        }
    }

    private P insert(K key, long now) {
        Entry present = reserveSlot(key, now);
        if (present != null) {
            touch(present, now);
            return valueOf(present);
        }
        Entry[] created = new Entry[1];
        Entry winner;
        try {
            winner = map.computeIfAbsent(key, k -> created[0] = newEntry(k, now));
        } catch (RuntimeException | Error e) {
            reserved.decrementAndGet();
            slotChanged();
            throw e;
        }
        if (winner != created[0]) {
            reserved.decrementAndGet();
            slotChanged();
            touch(winner, now);
            return valueOf(winner);
        }
        slotChanged();
        if (insertions.incrementAndGet() % SWEEP_EVERY == 0) {
            sweepIdle(now);
        }
        return valueOf(winner);
    }

    /** The new key's entry, not yet referenced (a key seen once is the first to go), last used now. */
    private Entry newEntry(K key, long now) {
        P value = Objects.requireNonNull(
                factory.apply(key), () -> "KeyedRegistry '" + name + "': factory returned null for " + key);
        Entry entry = boxed ? new Boxed<>(value) : (Entry) value;
        STAMP.setOpaque(entry, now & ~REFERENCED); // published by the map
        return entry;
    }

    /**
     * Reserves a slot for {@code key}, evicting another entry if none is free; returns null when reserved,
     * or the key's entry if another caller published it meanwhile (then nothing is reserved, and nobody
     * is evicted for a key that needs no new slot).
     */
    private @Nullable Entry reserveSlot(K key, long now) {
        boolean interrupted = false;
        try {
            while (true) {
                int current = reserved.get();
                if (current < maxEntries) {
                    if (reserved.compareAndSet(current, current + 1)) {
                        return null;
                    }
                    continue;
                }
                Entry present = map.get(key);
                if (present != null) {
                    return present;
                }
                Eviction eviction = evictOne(key, now);
                if (eviction == Eviction.KEY_PRESENT) {
                    continue; // published since the look above: the next look finds it
                }
                if (eviction == Eviction.NOTHING_TO_EVICT) {
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

    /** What {@link #evictOne} did. */
    private enum Eviction {
        /** An entry was evicted: a slot is free. */
        EVICTED,
        /** The map is empty: every reserved slot belongs to an entry still being created. */
        NOTHING_TO_EVICT,
        /** The hand reached the entry of the key being inserted: another caller published it meanwhile. */
        KEY_PRESENT
    }

    /**
     * Runs the clock hand until one entry is evicted. It never evicts the entry of {@code inserting}:
     * that entry can appear between the inserter's look into the map and this walk (its creator
     * published it), and evicting it would hand the inserter a second policy for one key while the
     * creator holds the first.
     */
    private Eviction evictOne(K inserting, long now) {
        // Two full turns of the hand find an unreferenced entry unless other threads keep touching;
        // past that, evict regardless so the bound always wins.
        int patience = 2 * maxEntries + 16;
        handLock.lock();
        try {
            renewStaleHand();
            while (true) {
                Map.Entry<K, Entry> candidate = advanceHand();
                if (candidate == null) {
                    return Eviction.NOTHING_TO_EVICT;
                }
                if (candidate.getKey().equals(inserting)) {
                    return Eviction.KEY_PRESENT;
                }
                Entry entry = candidate.getValue();
                long s = (long) STAMP.getOpaque(entry);
                if (patience-- <= 0 || (s & REFERENCED) == 0 || isIdle(entry, now)) {
                    if (evict(candidate.getKey(), entry)) {
                        return Eviction.EVICTED;
                    }
                    continue; // removed meanwhile: the walk may still show it
                }
                // Second chance. A touch racing this keeps its bit (the exchange fails): used again.
                STAMP.compareAndSet(entry, s, s & ~REFERENCED);
            }
        } finally {
            handLock.unlock();
        }
    }

    /** The entry under the hand, moving the hand one step; null if the map is empty. Under handLock. */
    private Map.@Nullable Entry<K, Entry> advanceHand() {
        Iterator<Map.Entry<K, Entry>> walk = hand;
        if (walk == null || !walk.hasNext()) {
            walk = map.entrySet().iterator();
            hand = walk;
            handRenewAt = nextResize(map.size());
            if (!walk.hasNext()) {
                return null;
            }
        }
        return walk.next();
    }

    /** Drops the hand if the map may have grown its table since the walk began. Under handLock. */
    private void renewStaleHand() {
        if (hand != null && map.size() >= handRenewAt) {
            hand = null;
        }
    }

    /**
     * The size at which a map of {@code size} entries next grows its table, as {@link ConcurrentHashMap}
     * sizes it (tables of 16, 32, … slots, grown at three quarters full). A map that shrank has a larger
     * table than this assumes; the hand then restarts without need, once per threshold crossed.
     */
    static int nextResize(int size) {
        int n = 16;
        while (n - (n >>> 2) <= size) {
            if (n >= 1 << 30) {
                return Integer.MAX_VALUE;
            }
            n <<= 1;
        }
        return n - (n >>> 2);
    }

    /** Evicts the idle entries among the next few under the hand; skipped if another thread holds it. */
    private void sweepIdle(long now) {
        if (!handLock.tryLock()) {
            return;
        }
        try {
            renewStaleHand();
            for (int i = 0; i < SWEEP_SIZE; i++) {
                Map.Entry<K, Entry> candidate = advanceHand();
                if (candidate == null) {
                    return;
                }
                if (isIdle(candidate.getValue(), now)) {
                    evict(candidate.getKey(), candidate.getValue());
                }
            }
        } finally {
            handLock.unlock();
        }
    }

    private boolean isIdle(Entry entry, long now) {
        return now - ((long) STAMP.getOpaque(entry) & ~REFERENCED) > idleNanos;
    }

    private boolean evict(K key, Entry entry) {
        if (!map.remove(key, entry)) {
            return false;
        }
        evictions.incrementAndGet();
        try {
            if (evictionListener != null) {
                evictionListener.accept(key, valueOf(entry));
            }
        } catch (RuntimeException e) {
            LOG.warn("KeyedRegistry '{}': eviction listener failed for key {}", name, key, e);
        } finally {
            // Free the slot only after the listener ran, so a replacement policy is never created
            // while the evicted one is still being closed.
            reserved.decrementAndGet();
            slotChanged();
        }
        return true;
    }

    /** The CLOCK bit, the low bit of an entry's stamp (the rest is the last access). */
    private static final long REFERENCED = 1L;
    private static final VarHandle STAMP;

    static {
        try {
            STAMP = MethodHandles.lookup().findVarHandle(Entry.class, "stamp", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * A policy that is its own registry entry: the registry keeps its bookkeeping (one {@code long}: the
     * last access, to a nanosecond, with the CLOCK bit folded into its low bit) in this object instead of
     * wrapping the policy, so a key costs 24 bytes less and a hit touches one object fewer. Build such a
     * registry with {@link Builder#buildEntries}; its factory must return a new object on every call, and
     * an object belongs to one registry, once. Subclasses see none of the bookkeeping.
     */
    public abstract static class Entry {
        /** Last access with the CLOCK bit as its low bit; accessed through {@link #STAMP}. */
        @SuppressWarnings("unused")
        private volatile long stamp;

        /** For subclasses. */
        protected Entry() {}
    }

    /** The entry of a policy that is not an {@link Entry} itself: 24 bytes. */
    private static final class Boxed<P> extends Entry {
        final P value;

        Boxed(P value) {
            this.value = value;
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
            validate(factory);
            return new KeyedRegistry<>(this, factory, true);
        }

        /**
         * Validates the settings and builds a registry whose policies are their own entries (see
         * {@link Entry}): no wrapper per key.
         *
         * @param factory creates the policy for a new key: a new object on every call, never null
         * @param <K> the key type
         * @param <P> the policy type
         * @return the registry
         * @throws InvalidConfigException if a setting is out of bounds
         */
        public <K, P extends Entry> KeyedRegistry<K, P> buildEntries(Function<? super K, ? extends P> factory) {
            validate(factory);
            return new KeyedRegistry<>(this, factory, false);
        }

        private void validate(@Nullable Function<?, ?> factory) {
            Validate.name("KeyedRegistry", name);
            String policy = Validate.describe("KeyedRegistry", name);
            Validate.positive(policy, "maxEntries", maxEntries);
            Validate.positive(policy, "idleTimeout", idleTimeout);
            Validate.notNull(policy, "ticker", ticker);
            Validate.notNull(policy, "factory", factory);
        }
    }
}

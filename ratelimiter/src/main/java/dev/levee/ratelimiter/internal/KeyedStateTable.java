package dev.levee.ratelimiter.internal;

import dev.levee.ratelimiter.RateLimitDecision;
import dev.levee.ratelimiter.RateLimiterConfig;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.ToIntFunction;
import org.jspecify.annotations.Nullable;

/**
 * The per-key state of a keyed GCRA, leaky-bucket or token-bucket limiter, held beside the key in one
 * open-addressing table, so a decision on a present key loads the key's slot and its state together
 * (one dependent cache miss after the key's hash) and updates the state with one CAS in place.
 *
 * <p><b>Model.</b> Two parallel arrays indexed by slot {@code i}: {@code keys[i]} (the key, {@code null}
 * for a never-used slot, or a tombstone) and three {@code long}s in {@code words[3i .. 3i+2]}:
 * <pre>
 *   META   = hash &lt;&lt; 32 | tier index          (immutable once the key is published)
 *   ACCESS = last access | CLOCK bit (low bit)   (written by a hit only when it changes)
 *   STATE  = the key's state (GCRA: tat; token bucket: its state long), or DELEGATED, or DEAD
 * </pre>
 * A key's slot is found by linear probing from {@code (hash·0x9E3779B9) >>> (32 − log2 capacity)}; the
 * probe compares the reference ({@code ==}) first, then the stored hash and {@code equals}. The
 * parameters are the tier's, shared by its keys (a {@link SlotAlgorithm} prototype limiter per tier
 * whose own state is never used); the state {@code long} is the whole per-key state. A new key's state
 * is the tier's fresh state (a full burst), set without a clock reading unless a token bucket starts
 * part-full.
 *
 * <p><b>Guarantees.</b>
 * <ul>
 *   <li><b>One state per present key.</b> Insertion, eviction and table rebuilds run under one lock;
 *       lookups and decisions take none. Within one array a slot is claimed once: its key never
 *       changes to another key (an evicted key's slot becomes a tombstone, never reused; tombstones are
 *       dropped only by rebuilding into a new array). A slot's state leaves the live values only for
 *       {@link #DEAD}, which is final in that array. So a decider's CAS, which expects a live value it
 *       read after matching the key, can only succeed on that key's state: no ABA on a reused slot,
 *       because no slot of an array is reused.</li>
 *   <li><b>Eviction and rebuilds cannot lose a grant.</b> Both retire a slot by CAS-ing its state to
 *       {@code DEAD} from the value they then carry (a rebuild copies it into the new array), so a
 *       decision either lands before (and is carried) or fails its CAS and looks again.</li>
 *   <li><b>The bound.</b> At most {@code maxEntries} keys are live at any moment: an insertion evicts
 *       first when the table is full, under the lock.</li>
 *   <li><b>A hit</b> takes no lock and allocates nothing; it reads the ticker reading it is given and
 *       no other.</li>
 * </ul>
 *
 * <p><b>Eviction.</b> As the core {@code KeyedRegistry}: entries idle longer than {@code idleTimeout}
 * or not used since the CLOCK hand last passed go first (a used one gets a second chance); two full
 * turns without a victim evict the entry under the hand regardless, so the bound always wins. The hand
 * visits the slots in a scattered order (steps of about 0.618 of the capacity), so evicted slots are
 * spread over the table instead of forming runs that every probe would cross. Idle
 * entries are swept 16 at a time every 64 insertions, and all at once by {@link #cleanUp}. An evicted
 * key that returns starts fresh (a full burst).
 *
 * <p><b>Promotion.</b> A key whose caller asks for its own limiter object ({@code forKey}: to change
 * its rate alone, to wait in {@code acquire}) is promoted: a limiter of the tier's algorithm taking over the slot's
 * state is created and kept in a side map, and the slot's state becomes {@link #DELEGATED}; decisions
 * on that key then go to that limiter (a map lookup more). The promoted limiter is the key's state for
 * as long as the key stays; once the key is evicted the object is detached (what it decides no longer
 * counts for the key, which returns fresh), as a registry entry is.
 *
 * <p><b>Capacity and memory.</b> The array grows by doubling, from 16 slots up to
 * {@code maxCapacity = nextPowerOfTwo(2·maxEntries)}, so live keys fill at most half of it; a rebuild
 * (to twice the size while it may grow, else to the same size to drop tombstones) runs when live keys
 * and tombstones would pass three quarters. A slot is 4 bytes of reference and 24 bytes of words: at
 * {@code maxEntries = 1,000,000} the full table is 2<sup>21</sup> slots, 58.7 MB, about 59 bytes per key
 * besides the key. A rebuild allocates the new array while the old one is alive (at most twice that,
 * briefly). Decisions on present keys do not wait for it: a key already moved is decided in the new
 * array, reached from the old one, before the rebuild publishes it (insertions of new keys wait for
 * the lock, as always).
 *
 * @param <K> the key type; needs {@code equals} and {@code hashCode}
 */
public final class KeyedStateTable<K> {
    /** A retired slot's state (evicted, or moved to a new array): final in its array. */
    static final long DEAD = Long.MIN_VALUE;
    /** The state of a key promoted to its own limiter (held in {@link #promoted}). */
    static final long DELEGATED = Long.MIN_VALUE + 1;
    /** A new key's state: idle since forever (a full burst), never a real arrival time. */
    static final long FRESH = Long.MIN_VALUE + 2;
    /**
     * What a slot decision returns when the slot holds no live state: a code no decision makes (it would
     * be a refusal with {@code retryAfter = Long.MAX_VALUE − 1}, which {@link #refused} reports as
     * {@code Long.MAX_VALUE}, "never", instead).
     */
    static final long GONE = ~(Long.MAX_VALUE - 1);

    private static final int META = 0;
    private static final int ACCESS = 1;
    private static final int STATE = 2;
    private static final int WIDTH = 3;
    private static final long REFERENCED = 1L;
    private static final int MIN_CAPACITY = 16;
    /** Largest {@code maxEntries} a table takes: {@code 3·2·maxEntries} words must fit an array. */
    public static final int MAX_ENTRIES = 1 << 26;
    private static final int SWEEP_EVERY = 64;
    private static final int SWEEP_SIZE = 16;
    private static final Object TOMBSTONE = new Object();
    private static final VarHandle KEYS = MethodHandles.arrayElementVarHandle(Object[].class);
    private static final VarHandle WORDS = MethodHandles.arrayElementVarHandle(long[].class);

    /** One array generation: keys and words, with counts kept under the lock. */
    private static final class Slots {
        final Object[] keys;
        final long[] words;
        final int mask;
        final int shift;
        /**
         * The CLOCK hand's step: an odd number near {@code 0.618·capacity}, so the hand visits every slot
         * once per turn (odd steps generate the whole ring of a power-of-two size) but never two
         * neighbours in a row. A hand that walked slot by slot would evict whole runs of neighbours, and
         * since a tombstone is reused only by a rebuild, a probe would then cross runs of thousands of
         * tombstones (measured: 80 µs per new key under a flood of fresh keys).
         */
        final int stride;
        int live;
        int tombstones;
        /**
         * The array a rebuild is copying this one into, set before the first slot is retired: a decider
         * that finds its key's slot here retired looks for the key there instead of waiting for the
         * rebuild to end (see {@link #rebuild}).
         */
        volatile @Nullable Slots forward;

        Slots(int capacity) {
            keys = new Object[capacity];
            words = new long[WIDTH * capacity];
            mask = capacity - 1;
            shift = 32 - Integer.numberOfTrailingZeros(capacity);
            stride = ((int) (capacity * 0.6180339887498949)) | 1;
        }

        int capacity() {
            return mask + 1;
        }

        /** The home slot: Fibonacci hashing, {@code (h·0x9E3779B9) >>> (32 − log2 capacity)}. */
        int home(int h) {
            return (h * 0x9E3779B9) >>> shift;
        }
    }

    private final SlotAlgorithm[] tiers;
    private final ToIntFunction<? super K> tierOf;
    private final LimiterContext ctx;
    private final int maxEntries;
    private final int maxCapacity;
    private final long idleNanos;
    private final long touchGranularityNanos;
    private final ReentrantLock lock = new ReentrantLock();
    private final ConcurrentHashMap<Object, AbstractRateLimiter> promoted = new ConcurrentHashMap<>();
    private volatile Slots slots = new Slots(MIN_CAPACITY);
    /** Live keys, for readers; written under the lock from {@link #count}. */
    private volatile int size;
    /** Evictions, for readers; written under the lock from {@link #evicted}. */
    private volatile long evictions;
    /** Live keys. Guarded by {@link #lock}. */
    private int count;
    /** Evictions since creation. Guarded by {@link #lock}. */
    private long evicted;
    private volatile @Nullable Consumer<Object> evictionListener;
    private volatile @Nullable Consumer<Object> rebuildListener;
    /** The CLOCK hand: a slot index of the current array. Guarded by {@link #lock}. */
    private int hand;
    /** Insertions since creation. Guarded by {@link #lock}. */
    private long insertions;

    /**
     * @param ctx the context shared by every key
     * @param tiers one prototype limiter per tier (each {@link #fits}), index 0 the default
     * @param tierOf the tier index of a key, called once when the key is inserted
     * @param maxEntries the bound on keys, 1 to {@link #MAX_ENTRIES}
     * @param idleNanos how long an unused key is kept without space pressure
     */
    public KeyedStateTable(LimiterContext ctx, AbstractRateLimiter[] tiers, ToIntFunction<? super K> tierOf, int maxEntries,
            long idleNanos) {
        if (maxEntries < 1 || maxEntries > MAX_ENTRIES) {
            throw new IllegalArgumentException("maxEntries must be in [1, " + MAX_ENTRIES + "] but was " + maxEntries);
        }
        this.ctx = ctx;
        this.tiers = new SlotAlgorithm[tiers.length];
        for (int t = 0; t < tiers.length; t++) {
            if (!(tiers[t] instanceof SlotAlgorithm) || !fits(tiers[t].config())) {
                throw new IllegalArgumentException("tier " + t + " does not fit a state table: " + tiers[t]);
            }
            this.tiers[t] = (SlotAlgorithm) tiers[t];
        }
        this.tierOf = tierOf;
        this.maxEntries = maxEntries;
        this.maxCapacity = Math.max(MIN_CAPACITY, Integer.highestOneBit(2 * maxEntries - 1) << 1);
        this.idleNanos = idleNanos;
        this.touchGranularityNanos = Math.max(1L, idleNanos / 16);
    }

    /**
     * Whether a tier's configuration can be held in a table: GCRA or leaky bucket without warm-up, or
     * the token bucket (their per-key state is one {@code long} and their parameters are the tier's).
     *
     * @param config a tier's configuration
     * @return whether it fits
     */
    public static boolean fits(RateLimiterConfig config) {
        switch (config.algorithm()) {
            case GCRA:
            case LEAKY_BUCKET:
                return config.warmUpNanos() == 0; // warm-up parameters start at each key's creation
            case TOKEN_BUCKET:
                return true;
            default:
                return false;
        }
    }

    /**
     * Takes {@code permits} for {@code key} if available at {@code nowNanos}, inserting the key (fresh)
     * if absent.
     *
     * @param key the key
     * @param permits how many, at least 1
     * @param nowNanos the caller's ticker reading
     * @param into overwritten with the decision, or null
     * @return whether granted
     */
    public boolean tryAcquire(K key, int permits, long nowNanos, @Nullable RateLimitDecision into) {
        int h = key.hashCode();
        Slots s = slots;
        while (true) {
            long code = decideIn(s, key, h, permits, nowNanos, into);
            if (code != GONE) {
                return EncodedWait.isGranted(code);
            }
            Slots forward = s.forward;
            if (forward == null) {
                return insertAndDecide(key, h, permits, nowNanos, into);
            }
            s = forward; // a rebuild moved the key or is moving it: look there (it may not be copied yet)
        }
    }

    /**
     * Decides on {@code key}'s live slot in {@code s}; {@link #GONE} if the probe ends without one (the
     * key is absent, or its slot was retired: evicted, or moved by a rebuild).
     */
    private long decideIn(Slots s, K key, int h, int permits, long nowNanos, @Nullable RateLimitDecision into) {
        Object[] keys = s.keys;
        long[] words = s.words;
        int mask = s.mask;
        for (int i = s.home(h); ; i = (i + 1) & mask) {
            Object k = KEYS.getAcquire(keys, i);
            if (k == null) {
                return GONE;
            }
            if (k == key || (k != TOMBSTONE && (int) (words[WIDTH * i + META] >>> 32) == h && key.equals(k))) {
                long code = decideAt(key, words, i, true, permits, nowNanos, into);
                if (code != GONE) {
                    return code;
                }
                // Retired: a returning key was inserted further along in this array, or the key was moved.
            }
        }
    }

    /** Marks the slot used (if asked) and decides on its state; {@link #GONE} if it holds no live state. */
    private long decideAt(K key, long[] words, int i, boolean touch, int permits, long nowNanos,
            @Nullable RateLimitDecision into) {
        int base = WIDTH * i;
        if (touch) {
            touch(words, base + ACCESS, nowNanos);
        }
        int tier = (int) words[base + META];
        long code = tiers[tier].decideInSlot(words, base + STATE, permits, nowNanos, into);
        if (code == GONE && (long) WORDS.getVolatile(words, base + STATE) == DELEGATED) {
            AbstractRateLimiter own = promoted.get(key);
            if (own != null) {
                boolean granted = into == null ? own.tryAcquire(permits, nowNanos) : own.tryAcquire(permits, nowNanos, into);
                return granted ? EncodedWait.granted(0L) : EncodedWait.refused(0L); // callers read only the verdict
            }
        }
        return code;
    }

    /**
     * CLOCK bookkeeping of a hit: sets the bit and, at most every sixteenth of the idle timeout, the last
     * access; writes only when one of them changes, with a plain store, so a hot key's line is not
     * written per decision. A write racing the hand's clearing CAS may be lost: the key then waits one
     * more turn of the hand at worst.
     */
    private void touch(long[] words, int at, long now) {
        long a = (long) WORDS.getOpaque(words, at);
        if ((a & REFERENCED) == 0 || now - a > touchGranularityNanos) {
            WORDS.setOpaque(words, at, now | REFERENCED);
        }
    }

    /**
     * The slow path: under the lock, finds the key in the current array or inserts it (evicting first if
     * full), then decides. Deciding under the lock guarantees progress: no eviction or rebuild can
     * retire the slot in between.
     */
    private boolean insertAndDecide(K key, int h, int permits, long nowNanos, @Nullable RateLimitDecision into) {
        lock.lock();
        try {
            int present = find(slots, key, h);
            int i = present >= 0 ? present : findOrInsert(key, h, nowNanos);
            // A new key stays unreferenced until its second decision: a key seen once is the first to go.
            long code = decideAt(key, slots.words, i, present >= 0, permits, nowNanos, into);
            if (code == GONE) {
                throw new IllegalStateException("KeyedStateTable: live slot retired under the lock");
            }
            return EncodedWait.isGranted(code);
        } finally {
            lock.unlock();
        }
    }

    /**
     * The limiter of {@code key} as an object of its own, promoting the key if it is not yet (see the
     * class comment), inserting it if absent.
     *
     * @param key the key
     * @param nowNanos the caller's ticker reading (marks the key used)
     * @return the key's own limiter, the same object while the key stays
     */
    public AbstractRateLimiter promote(K key, long nowNanos) {
        Objects.requireNonNull(key, "key");
        lock.lock();
        try {
            int i = findOrInsert(key, key.hashCode(), nowNanos);
            long[] words = slots.words;
            int base = WIDTH * i;
            touch(words, base + ACCESS, nowNanos);
            long state = (long) WORDS.getVolatile(words, base + STATE);
            if (state == DELEGATED) {
                return Objects.requireNonNull(promoted.get(key), "promoted limiter");
            }
            SlotAlgorithm prototype = tiers[(int) words[base + META]];
            while (true) {
                // Not yet reachable by deciders: they look it up only after seeing DELEGATED.
                AbstractRateLimiter own = prototype.promoted(ctx, state);
                promoted.put(key, own);
                long witness = (long) WORDS.compareAndExchange(words, base + STATE, state, DELEGATED);
                if (witness == state) {
                    return own;
                }
                state = witness; // a decision landed meanwhile: carry it
            }
        } finally {
            lock.unlock();
        }
    }

    /** The slot of {@code key} in the current array, inserted if absent. Under the lock. */
    private int findOrInsert(K key, int h, long now) {
        int found = find(slots, key, h);
        if (found >= 0) {
            return found;
        }
        int tier = tierOf.applyAsInt(key); // the user's function: before anything changes
        if (count >= maxEntries) {
            evictOne(now);
        }
        Slots s = slots;
        if (s.live + 1 > s.capacity() / 2 && s.capacity() < maxCapacity) {
            s = rebuild(s.capacity() * 2);
        } else if (s.live + s.tombstones + 1 > s.capacity() - s.capacity() / 4) {
            s = rebuild(s.capacity());
        }
        int i = s.home(h);
        while (s.keys[i] != null) {
            i = (i + 1) & s.mask;
        }
        long fresh = tiers[tier].freshState(now); // may throw (a tier's arithmetic): before anything changes
        int base = WIDTH * i;
        s.words[base + META] = (long) h << 32 | tier;
        s.words[base + ACCESS] = now & ~REFERENCED; // not yet referenced: a key seen once goes first
        s.words[base + STATE] = fresh;
        KEYS.setRelease(s.keys, i, key); // publishes the words above with it
        s.live++;
        size = ++count;
        if (++insertions % SWEEP_EVERY == 0) {
            sweepIdle(now); // never the new key: it was used now, so it is not idle
        }
        return i;
    }

    /** The slot of a live {@code key} in {@code s}, or −1. Under the lock (tombstones hold no key). */
    private static int find(Slots s, Object key, int h) {
        for (int i = s.home(h); ; i = (i + 1) & s.mask) {
            Object k = s.keys[i];
            if (k == null) {
                return -1;
            }
            if (k == key || (k != TOMBSTONE && (int) (s.words[WIDTH * i + META] >>> 32) == h && key.equals(k))) {
                return i;
            }
        }
    }

    /**
     * Copies every live slot into a new array of {@code capacity} slots and publishes it. Each old state
     * is retired by a CAS to {@link #DEAD} from the value copied, so a concurrent decision either lands
     * first (and is copied) or fails and looks again.
     *
     * <p>Looking again does not wait for the rebuild: the new array is reachable from the old one
     * ({@link Slots#forward}) before the first slot is retired, and each copied slot's words are written
     * before its key is published with release semantics, so a decider that read {@code DEAD} and then
     * finds the key in the new array finds its carried state, and decides there by CAS as on any live
     * slot. A decider that reaches the key's probe end in the new array before the key is copied there
     * (the few instructions between the retiring CAS and the copy) takes the slow path and waits for the
     * lock, as every decider of a moved key did before. Only this rebuild writes the new array until it
     * is published, and it never writes a slot twice, so a slot a decider found stays that key's.
     */
    private Slots rebuild(int capacity) {
        Slots old = slots;
        Slots next = new Slots(capacity);
        Consumer<Object> copied = rebuildListener;
        old.forward = next;
        for (int i = 0; i <= old.mask; i++) {
            Object k = old.keys[i];
            if (k == null || k == TOMBSTONE) {
                continue;
            }
            int from = WIDTH * i;
            long state = (long) WORDS.getVolatile(old.words, from + STATE);
            while (!WORDS.compareAndSet(old.words, from + STATE, state, DEAD)) {
                state = (long) WORDS.getVolatile(old.words, from + STATE);
            }
            long meta = old.words[from + META];
            int j = next.home((int) (meta >>> 32));
            while (next.keys[j] != null) {
                j = (j + 1) & next.mask;
            }
            int to = WIDTH * j;
            next.words[to + META] = meta;
            next.words[to + ACCESS] = (long) WORDS.getOpaque(old.words, from + ACCESS);
            next.words[to + STATE] = state;
            KEYS.setRelease(next.keys, j, k); // deciders may already be reading this array
            next.live++;
            if (copied != null) {
                copied.accept(k);
            }
        }
        slots = next;
        hand = 0;
        return next;
    }

    /**
     * Runs the CLOCK hand until one live key is evicted. Under the lock, with at least one live key.
     * Two full turns find an unreferenced key unless other threads keep touching; past that, the key
     * under the hand goes regardless so the bound always wins.
     */
    private void evictOne(long now) {
        Slots s = slots;
        int patience = 2 * s.capacity() + 16;
        while (true) {
            int i = hand;
            hand = (i + s.stride) & s.mask;
            Object k = s.keys[i];
            if (k == null || k == TOMBSTONE) {
                patience--;
                continue;
            }
            int at = WIDTH * i + ACCESS;
            long a = (long) WORDS.getOpaque(s.words, at);
            if (patience-- <= 0 || (a & REFERENCED) == 0 || isIdle(a, now)) {
                evictAt(s, i, k);
                return;
            }
            // Second chance. A touch racing this keeps its bit (the exchange fails): used again.
            WORDS.compareAndSet(s.words, at, a, a & ~REFERENCED);
        }
    }

    private boolean isIdle(long access, long now) {
        return now - (access & ~REFERENCED) > idleNanos;
    }

    /** Retires slot {@code i}: its state to DEAD (by CAS, so no decision is lost), its key to a tombstone. */
    private void evictAt(Slots s, int i, Object key) {
        int at = WIDTH * i + STATE;
        long state = (long) WORDS.getVolatile(s.words, at);
        while (!WORDS.compareAndSet(s.words, at, state, DEAD)) {
            state = (long) WORDS.getVolatile(s.words, at);
        }
        KEYS.setRelease(s.keys, i, TOMBSTONE);
        if (state == DELEGATED) {
            promoted.remove(key);
        }
        s.live--;
        s.tombstones++;
        size = --count;
        evictions = ++evicted;
        Consumer<Object> listener = evictionListener;
        if (listener != null) {
            listener.accept(key);
        }
    }

    /** Evicts the idle keys among the next few under the hand. Under the lock. */
    private void sweepIdle(long now) {
        Slots s = slots;
        for (int n = 0; n < SWEEP_SIZE; n++) {
            int i = hand;
            hand = (i + s.stride) & s.mask;
            Object k = s.keys[i];
            if (k != null && k != TOMBSTONE && isIdle((long) WORDS.getOpaque(s.words, WIDTH * i + ACCESS), now)) {
                evictAt(s, i, k);
            }
        }
    }

    /**
     * Evicts every key idle longer than the idle timeout; time proportional to the capacity.
     *
     * @param nowNanos now
     */
    public void cleanUp(long nowNanos) {
        lock.lock();
        try {
            Slots s = slots;
            for (int i = 0; i <= s.mask; i++) {
                Object k = s.keys[i];
                if (k != null && k != TOMBSTONE && isIdle((long) WORDS.getOpaque(s.words, WIDTH * i + ACCESS), nowNanos)) {
                    evictAt(s, i, k);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** @return keys present, at most {@link #maxEntries()} */
    public int size() {
        return size;
    }

    /** @return the bound on keys */
    public int maxEntries() {
        return maxEntries;
    }

    /** @return keys evicted since creation */
    public long evictionCount() {
        return evictions;
    }

    /** @return slots of the current array (for tests and the docs' memory figures) */
    public int capacity() {
        return slots.capacity();
    }

    /**
     * Whether {@code key} is present (a lock-free lookup, as a decision makes; for tests).
     *
     * @param key the key
     * @return whether present
     */
    boolean contains(Object key) {
        int h = key.hashCode();
        Slots s = slots;
        for (int i = s.home(h); ; i = (i + 1) & s.mask) {
            Object k = KEYS.getAcquire(s.keys, i);
            if (k == null) {
                return false;
            }
            if ((k == key || (k != TOMBSTONE && (int) (s.words[WIDTH * i + META] >>> 32) == h && key.equals(k)))
                    && (long) WORDS.getVolatile(s.words, WIDTH * i + STATE) != DEAD) {
                return true;
            }
        }
    }

    /**
     * Called with each evicted key, under the lock (for tests).
     *
     * @param listener the listener, or null
     */
    void onEviction(@Nullable Consumer<Object> listener) {
        this.evictionListener = listener;
    }

    /**
     * Called with each key a rebuild has copied into the new array, under the lock, before the new
     * array is published (for tests).
     *
     * @param listener the listener, or null
     */
    void onRebuildCopy(@Nullable Consumer<Object> listener) {
        this.rebuildListener = listener;
    }

    /**
     * The longest run of non-empty slots (live or tombstone) in the current array: the longest probe a
     * lookup can make (for tests).
     *
     * @return the run's length
     */
    int longestRun() {
        lock.lock();
        try {
            Slots s = slots;
            int longest = 0;
            int run = 0;
            for (int n = 0; n < 2 * s.capacity(); n++) { // twice round: a run may wrap
                run = s.keys[n & s.mask] == null ? 0 : run + 1;
                longest = Math.max(longest, Math.min(run, s.capacity()));
            }
            return longest;
        } finally {
            lock.unlock();
        }
    }

    /** @return keys promoted to their own limiter and still present */
    public int promotedCount() {
        return promoted.size();
    }

    /** @return whether {@code v} is a sentinel, not a live state ({@link #DEAD} or {@link #DELEGATED}) */
    static boolean isSentinel(long v) {
        return v == DEAD || v == DELEGATED;
    }

    /**
     * A refusal's code, never {@link #GONE}: a wait of {@code Long.MAX_VALUE − 1} is reported as
     * {@code Long.MAX_VALUE} (both mean "not within 292 years").
     *
     * @param wait the wait, at least 0
     * @return the code
     */
    static long refused(long wait) {
        return EncodedWait.refused(wait == Long.MAX_VALUE - 1 ? Long.MAX_VALUE : wait);
    }
}

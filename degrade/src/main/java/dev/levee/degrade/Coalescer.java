package dev.levee.degrade;

import dev.levee.core.CheckedSupplier;
import dev.levee.core.internal.EventListeners;
import dev.levee.core.InvalidConfigException;
import dev.levee.core.RandomSource;
import dev.levee.core.Scheduler;
import dev.levee.core.Subscription;
import dev.levee.core.Ticker;
import dev.levee.core.internal.Validate;
import dev.levee.core.internal.Exceptions;
import dev.levee.degrade.internal.LogLimiter;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Single-flight request coalescing: concurrent calls for the same key share one execution of the
 * loader (seed 000, Pattern 2; Go's {@code singleflight}). A thousand concurrent misses on a hot key
 * become one call to the database.
 *
 * <pre>{@code
 * Coalescer<String, Product> products = Coalescer.of("products", CoalescerConfig.defaults());
 * Product p = products.execute(sku, () -> database.load(sku));                       // synchronous
 * CompletionStage<Product> later = products.executeAsync(sku, () -> client.loadAsync(sku));
 * }</pre>
 *
 * <p><b>Model.</b> The first call for a key (the leader) stores an in-flight future in a bounded map
 * and runs its loader; calls for the key that arrive while it runs (joiners) wait for that future
 * instead of running their own. The loader of a joiner is not called: callers of one key must pass
 * equivalent loaders.
 *
 * <p><b>Guarantees.</b>
 * <ul>
 *   <li>Exactly one loader execution per flight; every caller of the flight gets the same value, or
 *       the same exception instance (an {@link Error} too).</li>
 *   <li>The key is removed in a {@code finally} on every path — value, exception, error, a loader
 *       that returns a null stage — before the waiters are released, so nothing is left behind once
 *       the callers have their answers. With a hold window, a successful value stays for the window
 *       and is removed by the {@link Scheduler} at its end (or by the first call that finds it
 *       expired).</li>
 *   <li>A waiter that gives up never affects the others: cancelling the stage one caller got (or
 *       interrupting a synchronous waiter, which restores its interrupt flag and throws a
 *       {@link CancellationException}) leaves the load running for the rest.</li>
 *   <li>At most {@code maxEntries} keys are in flight or held; a call for a new key beyond that runs
 *       its loader on its own (counted as {@code bypassed}, published as
 *       {@link CoalescerEvent.Bypassed}, logged at WARN at most once per 10 s), so the map cannot grow
 *       without bound and no call is refused. A call that finds the last slot reserved by a first call
 *       of its own key whose entry is not in the map yet waits for that insert and joins the flight: a
 *       key in flight is never loaded twice, at the bound either.</li>
 * </ul>
 *
 * <p><b>Hold window and early refresh.</b> With {@code holdWindow > 0}, a successful value keeps
 * answering calls for its key for that long after its load completed — calls that arrive just after
 * completion are coalesced too. Failures are never held. Near the end of the window, XFetch
 * ({@link XFetch}) lets one caller reload early while every other caller is still served the held
 * value (stale-while-revalidate): a hot key never expires for everyone at once. Coalescing is not
 * caching: the hold window is meant to be short (its bound is one hour); use a cache for data that
 * should be reused for long.
 *
 * <p><b>Cost.</b> A leader: one map insert and removal, one future, one counter CAS and one atomic add; a joiner: one
 * map read and a wait. No ticker read without a hold window. The map holds one entry per key in
 * flight.
 *
 * @param <K> the key type; needs {@code equals} and {@code hashCode}
 * @param <V> the value type
 */
public final class Coalescer<K, V> {
    private static final Logger LOG = LoggerFactory.getLogger(Coalescer.class);
    /** At most one WARN about bypassed calls per this interval: 10 seconds. */
    private static final long BYPASS_WARN_INTERVAL_NANOS = 10_000_000_000L;

    private final String name;
    private final CoalescerConfig config;
    private final int maxEntries;
    private final long holdNanos;
    private final double beta;
    private final Ticker ticker;
    private final Scheduler scheduler;
    private final RandomSource random;

    private final EventListeners<CoalescerEvent> listeners = new EventListeners<>();
    private final LogLimiter bypassWarnings;

    private final ConcurrentHashMap<K, Flight<V>> flights = new ConcurrentHashMap<>();
    /**
     * Two counts in one word, so one read sees both: the low 32 bits count the entries present plus
     * the inserts in progress (never above maxEntries); the high 32 bits count the inserts in progress
     * alone (a leader between its reservation and its insert). A call that finds no room waits for the
     * inserts in progress before it bypasses, as one of them may be for its own key.
     */
    private final AtomicLong reservations = new AtomicLong();
    private static final long ONE_INSERT = 1L << 32;
    private static final int SPINS_BEFORE_YIELD = 64;

    private final LongAdder loads = new LongAdder();
    private final LongAdder joined = new LongAdder();
    private final LongAdder held = new LongAdder();
    private final LongAdder earlyRefreshes = new LongAdder();
    private final LongAdder bypassed = new LongAdder();

    private Coalescer(String name, CoalescerConfig config) {
        this.name = name;
        this.config = config;
        this.maxEntries = config.maxEntries();
        this.holdNanos = config.holdWindowNanos();
        this.beta = config.earlyRefreshBeta();
        this.ticker = config.ticker();
        this.scheduler = config.scheduler();
        this.random = config.random();
        this.bypassWarnings = new LogLimiter(BYPASS_WARN_INTERVAL_NANOS, ticker.read());
    }

    /**
     * Creates a coalescer.
     *
     * @param name the name, for logs and metric tags
     * @param config the config
     * @param <K> the key type
     * @param <V> the value type
     * @return the coalescer
     * @throws InvalidConfigException if the name is blank or the config null
     */
    public static <K, V> Coalescer<K, V> of(String name, CoalescerConfig config) {
        Validate.name("Coalescer", name);
        Validate.notNull(Validate.describe("Coalescer", name), "config", config);
        return new Coalescer<>(name, config);
    }

    /**
     * Creates a coalescer with the defaults (no hold window, 10,000 keys).
     *
     * @param name the name
     * @param <K> the key type
     * @param <V> the value type
     * @return the coalescer
     */
    public static <K, V> Coalescer<K, V> ofDefaults(String name) {
        return of(name, CoalescerConfig.defaults());
    }

    /** @return the name */
    public String name() {
        return name;
    }

    /** @return the config */
    public CoalescerConfig config() {
        return config;
    }

    /**
     * The number of keys in flight or held right now.
     *
     * @return the count, at most {@code maxEntries}
     */
    public int size() {
        return flights.size();
    }

    /**
     * Counters since creation.
     *
     * @return a snapshot
     */
    public CoalescerMetrics metrics() {
        return new CoalescerMetrics(loads.sum(), joined.sum(), held.sum(), earlyRefreshes.sum(), bypassed.sum(),
                flights.size());
    }

    /**
     * Subscribes to this coalescer's events: bypassed calls and early refreshes.
     *
     * @param listener runs on the calling or completing thread; must be fast
     * @return closing it unsubscribes
     */
    public Subscription onEvent(Consumer<? super CoalescerEvent> listener) {
        return listeners.subscribe(listener);
    }

    /**
     * Returns the value for {@code key}, sharing one execution of {@code loader} with every concurrent
     * call for the key.
     *
     * @param key the key
     * @param loader loads the value; runs only if no load for the key is in flight (or held)
     * @param <E> the checked exception type of the loader
     * @return the loaded value
     * @throws E the load's failure — the same instance for every caller of the flight
     * @throws CancellationException if this (waiting) thread was interrupted; its flag is restored
     */
    public <E extends Throwable> @Nullable V execute(K key, CheckedSupplier<? extends V, E> loader) throws E {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(loader, "loader");
        while (true) {
            Flight<V> flight = flights.get(key);
            if (flight == null) {
                if (reserve()) {
                    Flight<V> mine = new Flight<>(); // only with room: a bypassing call allocates none
                    flight = insert(key, mine);
                    if (flight == null) {
                        return lead(key, mine, loader);
                    }
                } else {
                    flight = insertedMeanwhile(key);
                    if (flight == null) {
                        bypass();
                        return loader.get();
                    }
                }
            }
            if (isJoinable(flight)) {
                joined.increment();
                return await(flight.future);
            }
            long now = ticker.read();
            if (isExpired(flight, now)) {
                discard(key, flight);
                continue;
            }
            if (shouldRefreshEarly(flight, now)) {
                return refreshNow(key, flight, loader);
            }
            held.increment();
            return flight.future.getNow(null);
        }
    }

    /**
     * Returns a stage of the value for {@code key}, sharing one execution of {@code loader} with every
     * concurrent call for the key. Never throws. Each caller gets its own stage: cancelling it does
     * not cancel the load or the other callers' stages.
     *
     * @param key the key
     * @param loader starts loading the value; called only if no load for the key is in flight (or held)
     * @return a stage completing with the value, or exceptionally with the load's failure (the same
     *     instance for every caller)
     */
    public CompletionStage<V> executeAsync(K key, Supplier<? extends CompletionStage<? extends V>> loader) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(loader, "loader");
        while (true) {
            Flight<V> flight = flights.get(key);
            if (flight == null) {
                if (reserve()) {
                    Flight<V> mine = new Flight<>(); // only with room: a bypassing call allocates none
                    flight = insert(key, mine);
                    if (flight == null) {
                        leadAsync(key, mine, loader);
                        return follow(mine.future);
                    }
                } else {
                    flight = insertedMeanwhile(key);
                    if (flight == null) {
                        bypass();
                        return follow(start(loader));
                    }
                }
            }
            if (isJoinable(flight)) {
                joined.increment();
                return follow(flight.future);
            }
            long now = ticker.read();
            if (isExpired(flight, now)) {
                discard(key, flight);
                continue;
            }
            if (shouldRefreshEarly(flight, now)) {
                // Stale-while-revalidate: this caller starts the reload and is served the held value.
                refreshedEarly(now);
                Flight<V> old = flight;
                Flight<V> fresh = new Flight<>();
                long startNanos = ticker.read();
                start(loader).whenComplete((value, error) -> finishRefresh(key, old, fresh, value, error, startNanos));
            } else {
                held.increment();
            }
            return follow(flight.future);
        }
    }

    // ---------------------------------------------------------------- leaders

    private <E extends Throwable> @Nullable V lead(K key, Flight<V> flight, CheckedSupplier<? extends V, E> loader)
            throws E {
        loads.increment();
        long start = holdNanos > 0 ? ticker.read() : 0L;
        V value = null;
        Throwable failure = null;
        try {
            value = loader.get();
        } catch (Throwable t) {
            failure = t;
        } finally {
            settle(key, flight, failure == null, start);
        }
        if (failure != null) {
            flight.future.completeExceptionally(failure);
            throw Exceptions.<E>sneakyThrow(failure);
        }
        flight.future.complete(value);
        return value;
    }

    private void leadAsync(K key, Flight<V> flight, Supplier<? extends CompletionStage<? extends V>> loader) {
        loads.increment();
        long start = holdNanos > 0 ? ticker.read() : 0L;
        start(loader).whenComplete((value, error) -> {
            try {
                settle(key, flight, error == null, start);
            } finally {
                if (error == null) {
                    flight.future.complete(value);
                } else {
                    flight.future.completeExceptionally(Exceptions.unwrap(error));
                }
            }
        });
    }

    /**
     * Ends a flight before its waiters are released: removes the key (failure or no hold window), or
     * stamps the value and schedules its removal at the end of the hold window.
     */
    private void settle(K key, Flight<V> flight, boolean success, long startNanos) {
        if (!success || holdNanos == 0) {
            discard(key, flight);
            return;
        }
        long end = ticker.read();
        flight.loadNanos = end - startNanos;
        flight.completedNanos = end;
        scheduleRemoval(key, flight);
    }

    private void scheduleRemoval(K key, Flight<V> flight) {
        try {
            scheduler.schedule(() -> discard(key, flight), holdNanos);
        } catch (RuntimeException e) {
            // Without the timer the held value is still removed by the first call that finds it expired.
            LOG.warn("Coalescer '{}': could not schedule the end of a hold window", name, e);
        }
    }

    // ---------------------------------------------------------------- held values

    /**
     * Whether a caller should wait for (or take the outcome of) this flight rather than treat it as a
     * held value: it is still running, or it has just ended and was never going to be held (no hold
     * window, or a failure) but this caller found it before its removal.
     */
    private boolean isJoinable(Flight<V> flight) {
        return !flight.future.isDone() || holdNanos == 0 || flight.future.isCompletedExceptionally();
    }

    private boolean isExpired(Flight<V> flight, long now) {
        return now - flight.completedNanos >= holdNanos;
    }

    private boolean shouldRefreshEarly(Flight<V> flight, long now) {
        return beta > 0
                && flight.refreshing == 0
                && XFetch.shouldRefresh(now, flight.completedNanos + holdNanos, flight.loadNanos, beta, random.nextDouble())
                && Flight.REFRESHING.compareAndSet(flight, 0, 1);
    }

    /** A synchronous early refresh: this caller reloads; the others keep getting the held value. */
    private <E extends Throwable> @Nullable V refreshNow(K key, Flight<V> old, CheckedSupplier<? extends V, E> loader) {
        long start = ticker.read();
        refreshedEarly(start);
        V value;
        try {
            value = loader.get();
        } catch (Error error) {
            old.refreshing = 0; // the Error goes to this caller unchanged; a later caller may refresh early again
            throw error;
        } catch (Throwable failure) {
            finishRefresh(key, old, new Flight<>(), null, failure, start);
            return old.future.getNow(null);
        }
        finishRefresh(key, old, new Flight<>(), value, null, start);
        return value;
    }

    /** Replaces a held value by a refreshed one; after a failed refresh the held value stays until its window ends. */
    private void finishRefresh(K key, Flight<V> old, Flight<V> fresh, @Nullable V value, @Nullable Throwable error,
            long startNanos) {
        if (error != null) {
            old.refreshing = 0;
            if (!listeners.isEmpty()) {
                listeners.publish(new CoalescerEvent.RefreshFailed(name, ticker.read(), Exceptions.unwrap(error)));
            }
            if (LOG.isDebugEnabled()) {
                LOG.debug("Coalescer '{}': early refresh failed; the held value is served until its window ends", name,
                        error);
            }
            return;
        }
        long end = ticker.read();
        fresh.loadNanos = end - startNanos;
        fresh.completedNanos = end;
        fresh.future.complete(value);
        if (flights.replace(key, old, fresh)) {
            scheduleRemoval(key, fresh);
        }
    }

    // ---------------------------------------------------------------- plumbing

    private void refreshedEarly(long now) {
        earlyRefreshes.increment();
        if (!listeners.isEmpty()) {
            listeners.publish(new CoalescerEvent.RefreshedEarly(name, now));
        }
    }

    /** A call that found the map full: counted, published, and warned about at most once per 10 s. */
    private void bypass() {
        bypassed.increment();
        long now = ticker.read();
        if (!listeners.isEmpty()) {
            listeners.publish(new CoalescerEvent.Bypassed(name, now, flights.size()));
        }
        long held = bypassWarnings.tryLog(now);
        if (held >= 0) {
            LOG.warn("Coalescer '{}': {} keys in flight (maxEntries); calls for new keys run uncoalesced{}", name,
                    maxEntries, held == 0 ? "" : "; " + held + " more since the last warning");
        }
    }

    /** Reserves room for one entry and marks an insert in progress; false if the map is full. */
    private boolean reserve() {
        while (true) {
            long current = reservations.get();
            if (entries(current) >= maxEntries) {
                return false;
            }
            if (reservations.compareAndSet(current, current + ONE_INSERT + 1)) {
                return true;
            }
        }
    }

    /**
     * The insert a successful {@link #reserve()} began: puts {@code mine} for the key unless a flight is
     * there, then ends the insert in progress, in a {@code finally} (a map that throws must not leave
     * an insert marked in progress, or every call at the bound would wait for it). A lost or failed
     * insert gives its room back.
     *
     * @return null if {@code mine} went in, else the flight already there
     */
    private @Nullable Flight<V> insert(K key, Flight<V> mine) {
        Flight<V> existing = mine; // stays non-null if putIfAbsent throws: counted as a lost insert
        try {
            existing = flights.putIfAbsent(key, mine);
            return existing;
        } finally {
            reservations.addAndGet(existing == null ? -ONE_INSERT : -ONE_INSERT - 1);
        }
    }

    /**
     * A call found no room: before it bypasses, it waits for the inserts in progress, since the room
     * may be reserved by a leader of its own key whose entry is not in the map yet (bypassing then
     * would run a second load of a key in flight). Spins only at the bound, and only while another
     * call is between its reservation and its insert (a few instructions).
     *
     * @return the key's entry if one appeared; null once no insert is in progress and there is none,
     *     so bypassing is right
     */
    private @Nullable Flight<V> insertedMeanwhile(K key) {
        int spins = 0;
        while (true) {
            long current = reservations.get(); // read before the map: an insert it shows ended is visible there
            Flight<V> flight = flights.get(key);
            if (flight != null || current >>> 32 == 0) {
                return flight;
            }
            if (++spins > SPINS_BEFORE_YIELD) {
                Thread.yield();
            } else {
                Thread.onSpinWait();
            }
        }
    }

    private static int entries(long reservations) {
        return (int) reservations;
    }

    private void discard(K key, Flight<V> flight) {
        if (flights.remove(key, flight)) {
            reservations.decrementAndGet();
        }
    }

    private static <V> @Nullable V await(CompletableFuture<V> future) {
        try {
            return future.get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw Exceptions.sneakyThrow(cause != null ? cause : e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            CancellationException cancelled = new CancellationException("interrupted while waiting for a coalesced load");
            cancelled.initCause(e);
            throw cancelled;
        }
    }

    @SuppressWarnings("unchecked")
    private static <V> CompletableFuture<V> start(Supplier<? extends CompletionStage<? extends V>> loader) {
        try {
            CompletionStage<? extends V> stage = loader.get();
            if (stage == null) {
                return CompletableFuture.failedFuture(new NullPointerException("the loader returned a null CompletionStage"));
            }
            return (CompletableFuture<V>) follow(stage);
        } catch (RuntimeException | Error e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** A stage of the caller's own: the same value or the same exception, and cancelling it touches nothing else. */
    private static <V> CompletableFuture<V> follow(CompletionStage<? extends V> shared) {
        CompletableFuture<V> own = new CompletableFuture<>();
        shared.whenComplete((value, error) -> {
            if (error == null) {
                own.complete(value);
            } else {
                own.completeExceptionally(Exceptions.unwrap(error));
            }
        });
        return own;
    }

    @Override
    public String toString() {
        return "Coalescer[" + name + ", entries=" + size() + "]";
    }

    /** One key's load: in flight until its future completes; then held for the window, if any. */
    private static final class Flight<V> {
        @SuppressWarnings("rawtypes")
        static final AtomicIntegerFieldUpdater<Flight> REFRESHING =
                AtomicIntegerFieldUpdater.newUpdater(Flight.class, "refreshing");

        final CompletableFuture<V> future = new CompletableFuture<>();
        /** 1 while one caller refreshes this held value early; a field updater saves an object per flight. */
        volatile int refreshing;
        /** Written before the future completes (happens-before every reader that sees it done). */
        long completedNanos;
        long loadNanos;
    }
}

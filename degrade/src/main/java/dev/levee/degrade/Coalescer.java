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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.Function;
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
 *       without bound and no call is refused. A key's slot is reserved and its entry inserted in one
 *       step under the map's lock for that key's bin ({@link ConcurrentHashMap#computeIfAbsent}), so a
 *       call that finds no room has seen every insert of its own key: one in progress makes it wait
 *       (for a counter CAS) and join the flight — a key in flight is never loaded twice, at the bound
 *       either — while an insert of another key never holds it (beyond the map's own bin lock, which
 *       a key sharing its bin takes for any insert).</li>
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
 * <p><b>Cost.</b> A leader: one map insert ({@code computeIfAbsent}, which takes the key's bin lock as
 * any insert does) and removal, one future, two CAS (the count, the claim) and one atomic add; a
 * joiner: one map read, one volatile read and a wait. A call that bypasses takes the key's bin lock
 * too (it must see an insert of its own key in progress). No ticker read without a hold window. The
 * map holds one entry per key in flight.
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
     * The entries present plus those being inserted under their bins' locks (never above maxEntries):
     * taken inside the map's {@code computeIfAbsent} for the key, given back after the entry's removal.
     */
    private final AtomicInteger reservations = new AtomicInteger();
    /**
     * Runs under the map's lock for the key's bin, only when the key has no entry: reserves a slot and
     * makes the flight, or returns null (no room: the call bypasses). A field, so a miss allocates no
     * lambda; the flight is made only with room.
     */
    private final Function<K, @Nullable Flight<V>> newFlightIfRoom = key -> reserve() ? newFlight() : null;

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
                flight = flights.computeIfAbsent(key, newFlightIfRoom);
                if (flight == null) {
                    bypass();
                    return loader.get();
                }
            }
            if (flight.claim()) {
                return lead(key, flight, loader);
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
                flight = flights.computeIfAbsent(key, newFlightIfRoom);
                if (flight == null) {
                    bypass();
                    return follow(start(loader));
                }
            }
            if (flight.claim()) {
                leadAsync(key, flight, loader);
                return follow(flight.future);
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
                Flight<V> fresh = Flight.claimed();
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
            finishRefresh(key, old, Flight.claimed(), null, failure, start);
            return old.future.getNow(null);
        }
        finishRefresh(key, old, Flight.claimed(), value, null, start);
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

    /**
     * Reserves room for one entry; false if the map is full. Called only under the map's lock for the
     * key's bin, with the key absent, so the reservation and the insert are one step to every call of
     * that key.
     */
    private boolean reserve() {
        while (true) {
            int current = reservations.get();
            if (current >= maxEntries) {
                return false;
            }
            if (reservations.compareAndSet(current, current + 1)) {
                return true;
            }
        }
    }

    /** A flight for a reserved slot; gives the slot back if it cannot be made (the map stays unchanged). */
    private Flight<V> newFlight() {
        try {
            return new Flight<>(); // only with room: a bypassing call allocates none
        } catch (Throwable t) {
            reservations.decrementAndGet();
            throw t;
        }
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

    /**
     * One key's load: in flight until its future completes; then held for the window, if any. The
     * call that claims it runs the load: the call whose {@code computeIfAbsent} made it, unless another
     * call that found it claims it first (any one of them leading is right; a flight never stays
     * unclaimed if the call that made it throws before claiming).
     */
    private static final class Flight<V> {
        @SuppressWarnings("rawtypes")
        static final AtomicIntegerFieldUpdater<Flight> REFRESHING =
                AtomicIntegerFieldUpdater.newUpdater(Flight.class, "refreshing");
        @SuppressWarnings("rawtypes")
        static final AtomicIntegerFieldUpdater<Flight> CLAIMED =
                AtomicIntegerFieldUpdater.newUpdater(Flight.class, "claimed");

        final CompletableFuture<V> future = new CompletableFuture<>();
        /** 1 once a call has taken on the load (a refreshed flight is made with its value, claimed). */
        volatile int claimed;
        /** 1 while one caller refreshes this held value early; a field updater saves an object per flight. */
        volatile int refreshing;
        /** Written before the future completes (happens-before every reader that sees it done). */
        long completedNanos;
        long loadNanos;

        /** A flight whose value a refresh supplies: nobody is to load it. */
        static <V> Flight<V> claimed() {
            Flight<V> flight = new Flight<>();
            flight.claimed = 1;
            return flight;
        }

        /** True for exactly one call: the one that runs this flight's load. A read first spares joiners the CAS. */
        boolean claim() {
            return claimed == 0 && CLAIMED.compareAndSet(this, 0, 1);
        }
    }
}

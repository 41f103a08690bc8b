package dev.levee.retry;

import dev.levee.core.CheckedFunction;
import dev.levee.core.InvalidConfigException;
import dev.levee.core.RandomSource;
import dev.levee.core.Subscription;
import dev.levee.core.Ticker;
import dev.levee.core.internal.EventListeners;
import dev.levee.core.internal.Validate;
import dev.levee.retry.internal.ReplicaStates;
import dev.levee.retry.internal.Selector;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replicas of one downstream and the client-side balancing over them: each call (or each
 * attempt of a {@link Hedge} or {@link Retry}) is sent to one replica chosen by a
 * {@link SelectionRule}; replicas that fail are ejected for a while; a health signal can take a
 * replica out; and when too few replicas are left, selection stops trusting health at all.
 *
 * <pre>{@code
 * ReplicaSet<URI> catalog = ReplicaSet.ofDefaults("catalog", List.of(a, b, c));
 * Item item = catalog.execute(replica -> client.get(replica, "/items/42"));
 * // or, with a hedge sending each extra attempt to another replica:
 * Item item = hedge.execute(catalog, replica -> client.get(replica, "/items/42"));
 * }</pre>
 *
 * <p><b>Model.</b> A replica is <i>up</i> unless it is ejected or a health signal reports it
 * unhealthy. A pick chooses among the up replicas by the rule (P2C over Peak-EWMA by default). The
 * permit protocol is {@code int r = pick()} then exactly one of {@link #onSuccess},
 * {@link #onFailure}, {@link #onCancelled} or {@link #onIgnored} with that index;
 * {@link #execute} does it for you.
 * <ul>
 *   <li><b>Ejection</b> (Envoy's outlier detection): after {@code consecutiveFailures} failures in a
 *       row, or when the replica's success rate over an interval is below
 *       {@code mean − stdevFactor × stdev} of the set's (with at least {@code failureRateMinimumCalls}
 *       calls each on at least {@code failureRateMinimumReplicas} replicas), a replica is ejected for
 *       {@code min(baseEjectionTime × ejections so far, maxEjectionTime)}, and readmitted when that
 *       time has passed (then ejected again, for longer, if it still fails). Its ejection count is
 *       forgiven after {@code maxEjectionTime} back in service. At most
 *       {@code max(1, floor(maxEjectedShare × n))} replicas are ejected at once; a replica that
 *       qualifies beyond that stays in ({@link ReplicaSetEvent.EjectionCapped}).</li>
 *   <li><b>Health</b>: {@link #reportHealth} (push) or {@link #healthSignal} (read every
 *       {@code healthCheckInterval} by the first pick after it is due: the health module's checks or
 *       any predicate). An unhealthy replica is skipped.</li>
 *   <li><b>Panic</b> (seed 004's "smart" load balancer, Envoy's healthy panic threshold): when
 *       {@code up / n < panicThreshold}, selection ignores ejection and health and spreads over every
 *       replica, so a broken health check or a shared dependency's outage cannot take the whole service
 *       out of rotation. Entering and leaving panic is logged at WARN and published. With a shard
 *       ({@link #pick(int[])}), the share is the shard's.</li>
 * </ul>
 *
 * <p><b>Guarantees.</b> Outstanding counts are exact (each pick adds one to its replica, each
 * completion takes one, never below zero). A completion reported when its replica has no call
 * outstanding (a duplicate report of one call, or one without a pick) counts nothing: no outcome, no
 * latency sample, no step toward an ejection. (With several calls outstanding on one replica, a
 * duplicate cannot be told from another call's completion; report each call once.) Never more than the cap is ejected, however many
 * replicas fail at once. The panic decision is exact at the boundary ({@code up / (double) n} is
 * compared with the threshold, so 5 of 10 up at 0.5 is not panic). A pick always answers a replica:
 * when no candidate is eligible (panic off and every replica down) it spreads over every candidate.
 *
 * <p><b>Knobs</b>: {@link ReplicaSetConfig} (rule, Peak-EWMA time constant, ejection, panic).
 *
 * <p><b>Cost.</b> A pick: one ticker read (in {@link #pick()}), two random draws and two cost reads
 * for P2C, one atomic increment on the chosen replica's padded line; a completion: one CAS for the
 * count, one atomic increment for the outcome and, for Peak-EWMA, one ticker read and one CAS.
 * Nothing allocates and nothing locks. Maintenance (readmissions, the success-rate pass, reading a
 * health signal) runs on the first pick after it is due, on one thread elected by a CAS.
 *
 * @param <R> the replica type (an address, a URI, a client stub)
 */
public final class ReplicaSet<R> {
    /*
     * Implementation notes.
     * - downAndPanic packs (replicas not up) << 1 | panic flag, so the panic flag always matches the
     *   count it was computed from, and each entry and exit is published exactly once.
     * - An ejection claims the replica by setting EJECTING, writes the ejection's end, then sets
     *   EJECTED: the readmission scan (which looks at EJECTED only) never sees a stale end.
     * - nextMaintenance is the earliest reading at which maintenance has work; an ejection lowers it
     *   to its end by a min-CAS; the elected maintainer pushes it far ahead, works, then lowers it to
     *   the earliest of what is left.
     */
    private static final Logger LOG = LoggerFactory.getLogger(ReplicaSet.class);
    private static final String POLICY = ReplicaSetConfig.POLICY;
    /** The most replicas a set holds. */
    public static final int MAX_REPLICAS = 65_536;
    private static final long EJECTING = 4L;
    private static final long FAR = 1L << 60;

    private final String name;
    private final ReplicaSetConfig config;
    private final List<R> replicas;
    private final int size;
    private final ReplicaStates states;
    private final Selector selector;
    private final Ticker ticker;
    private final RandomSource random;
    private final boolean peakEwma;
    private final double decayNanos;
    private final int maxEjected;
    private final EventListeners<ReplicaSetEvent> listeners = new EventListeners<>();
    private final AtomicInteger ejected = new AtomicInteger();
    private final AtomicLong downAndPanic = new AtomicLong();
    private final AtomicLong nextMaintenance;
    private volatile long nextEvaluation;
    private volatile long nextHealthRead;
    private volatile @Nullable Predicate<? super R> healthSignal;
    private final LongAdder panics = new LongAdder();
    private final LongAdder ejections = new LongAdder();
    private final LongAdder ejectionsCapped = new LongAdder();

    private ReplicaSet(String name, ReplicaSetConfig config, List<R> replicas) {
        this.name = name;
        this.config = config;
        this.replicas = replicas;
        this.size = replicas.size();
        this.states = new ReplicaStates(size);
        this.selector = Selector.of(config);
        this.ticker = config.ticker();
        this.random = config.random();
        this.peakEwma = config.selectionRule() == SelectionRule.PEAK_EWMA;
        this.decayNanos = config.decayTimeNanos();
        this.maxEjected = config.maxEjected(size);
        long now = ticker.read();
        this.nextEvaluation = now + config.failureRateIntervalNanos();
        this.nextHealthRead = now;
        this.nextMaintenance = new AtomicLong(config.failureRateEjection() ? nextEvaluation : now + FAR);
    }

    /**
     * Creates a replica set.
     *
     * @param name the set's name (events, logs, metrics); not blank
     * @param config the config, not null
     * @param replicas the replicas, 1 to {@value #MAX_REPLICAS}, none null; copied
     * @param <R> the replica type
     * @return the set
     * @throws InvalidConfigException on a blank name, a null config, or no (or too many, or null) replicas
     */
    public static <R> ReplicaSet<R> of(String name, ReplicaSetConfig config, List<? extends R> replicas) {
        Validate.name(POLICY, name);
        String policy = Validate.describe(POLICY, name);
        Validate.notNull(policy, "config", config);
        Validate.notNull(policy, "replicas", replicas);
        Validate.check(!replicas.isEmpty() && replicas.size() <= MAX_REPLICAS, policy, "replicas",
                "1 to " + MAX_REPLICAS + " replicas", replicas.size() + " replicas");
        List<R> copy = new ArrayList<>(replicas.size());
        for (R replica : replicas) {
            Validate.check(replica != null, policy, "replicas", "no null replica", replicas);
            copy.add(replica);
        }
        return new ReplicaSet<>(name, config, Collections.unmodifiableList(copy));
    }

    /**
     * Creates a replica set with {@link ReplicaSetConfig#defaults()}.
     *
     * @param name the set's name
     * @param replicas the replicas
     * @param <R> the replica type
     * @return the set
     * @throws InvalidConfigException as {@link #of}
     */
    public static <R> ReplicaSet<R> ofDefaults(String name, List<? extends R> replicas) {
        return of(name, ReplicaSetConfig.defaults(), replicas);
    }

    /** @return the set's name */
    public String name() {
        return name;
    }

    /** @return the config */
    public ReplicaSetConfig config() {
        return config;
    }

    /** @return the replicas, in index order (unmodifiable) */
    public List<R> replicas() {
        return replicas;
    }

    /** @return the number of replicas */
    public int size() {
        return size;
    }

    /**
     * @param index a replica's index
     * @return the replica
     */
    public R replica(int index) {
        return replicas.get(index);
    }

    /**
     * Subscribes to ejections, readmissions, health changes and panic.
     *
     * @param listener runs on the thread that caused the change; must be fast
     * @return closing it unsubscribes
     */
    public Subscription onEvent(Consumer<? super ReplicaSetEvent> listener) {
        return listeners.subscribe(listener);
    }

    // ---- picking ----

    /**
     * Chooses a replica for one call and counts the call as outstanding on it. Exactly one completion
     * ({@link #onSuccess}, {@link #onFailure}, {@link #onCancelled}, {@link #onIgnored}) must follow.
     *
     * @return the replica's index
     */
    public int pick() {
        return pick(ticker.read());
    }

    /**
     * As {@link #pick()}, at a reading the caller already took on the set's ticker.
     *
     * @param nowNanos the reading
     * @return the replica's index
     */
    public int pick(long nowNanos) {
        int replica = choose(nowNanos, null, null);
        states.acquire(replica);
        return replica;
    }

    /**
     * Chooses a replica within a shard, e.g. a tenant's replicas from {@code ShuffleSharding.shard(key)}:
     * the rule, the ejections and the health of the whole set apply, and panic is decided on the
     * shard's healthy share.
     *
     * @param shard replica indexes, at least one
     * @return the replica's index, one of {@code shard}
     * @throws IllegalArgumentException if the shard is empty
     */
    public int pick(int[] shard) {
        if (shard.length == 0) {
            throw new IllegalArgumentException("ReplicaSet '" + name + "': an empty shard");
        }
        int replica = choose(ticker.read(), shard, null);
        states.acquire(replica);
        return replica;
    }

    /**
     * For the attempts of one call: a replica the call has not tried yet while an eligible one
     * remains (claimed in {@code tried} atomically, so concurrent hedges never share one), else an
     * eligible replica already tried.
     *
     * <p>A choice is only a candidate until its claim succeeds: two attempts of one call can choose the
     * same untried replica at the same moment, and the one whose claim fails chooses again among the
     * replicas still untried. (Checking "is it tried now?" after the choice instead would mistake the
     * other attempt's fresh claim for the every-replica-tried fallback and send both to one replica.)
     */
    int pickUntried(long now, AtomicLongArray tried) {
        while (true) {
            int replica = choose(now, null, tried);
            if (replica >= 0) {
                if (!claim(tried, replica)) {
                    continue; // another attempt of this call claimed it after our choice
                }
            } else {
                replica = choose(now, null, null); // every eligible replica already tried by this call
            }
            states.acquire(replica);
            return replica;
        }
    }

    /** Sets the replica's bit in {@code tried}; false if it was already set. */
    private static boolean claim(AtomicLongArray tried, int replica) {
        int word = replica >>> 6;
        long bit = 1L << replica;
        while (true) {
            long current = tried.get(word);
            if ((current & bit) != 0) {
                return false;
            }
            if (tried.compareAndSet(word, current, current | bit)) {
                return true;
            }
        }
    }

    /** A bit set for {@link #pickUntried}. */
    AtomicLongArray newTriedSet() {
        return new AtomicLongArray((size + 63) >>> 6);
    }

    /**
     * The rule's choice among the eligible candidates. With {@code tried}, only among the replicas not
     * in it, and -1 when every eligible one is in it; without, never -1: when no candidate is eligible
     * (panic off and every replica down) it spreads over every candidate.
     */
    private int choose(long now, int @Nullable [] shard, @Nullable AtomicLongArray tried) {
        maintain(now);
        boolean ignoreHealth = shard == null ? panicking() : shardInPanic(shard);
        int replica = selector.select(states, shard, ignoreHealth, tried, now, random);
        if (replica < 0 && tried == null) {
            replica = selector.select(states, shard, true, null, now, random);
        }
        return replica;
    }

    private boolean shardInPanic(int[] shard) {
        int up = 0;
        for (int replica : shard) {
            if (states.up(replica)) {
                up++;
            }
        }
        return up / (double) shard.length < config.panicThreshold();
    }

    // ---- completions ----

    /**
     * The call on {@code replica} succeeded.
     *
     * @param replica the index {@link #pick()} returned
     * @param latencyNanos the call's latency
     */
    public void onSuccess(int replica, long latencyNanos) {
        if (!states.release(replica)) {
            return; // no pick outstanding: a duplicate report, counted the first time
        }
        states.success(replica);
        if (peakEwma) {
            states.sample(replica, latencyNanos, ticker.read(), decayNanos, true);
        }
    }

    /**
     * The call on {@code replica} failed: counts toward its ejection. Its latency can raise the
     * Peak-EWMA estimate but never lower it (a replica that fails fast must not look fast).
     *
     * @param replica the index {@link #pick()} returned
     * @param latencyNanos the call's latency
     * @param failure what it threw, or null for a failed result (for the record; every failure counts)
     */
    public void onFailure(int replica, long latencyNanos, @Nullable Throwable failure) {
        if (!states.release(replica)) {
            return; // no pick outstanding: a duplicate report must not count twice toward an ejection
        }
        long streak = states.failure(replica);
        long now = peakEwma || streak >= config.consecutiveFailures() ? ticker.read() : 0L;
        if (peakEwma) {
            states.sample(replica, latencyNanos, now, decayNanos, false);
        }
        if (streak >= config.consecutiveFailures() && (states.status(replica) & (ReplicaStates.EJECTED | EJECTING)) == 0) {
            eject(replica, now, ReplicaSetEvent.CONSECUTIVE_FAILURES);
        }
    }

    /**
     * The caller stopped waiting for the call on {@code replica} (a hedge answered first, a timeout, a
     * cancellation): no outcome is counted, and the time waited, a lower bound of the replica's
     * latency, can raise its Peak-EWMA estimate but not lower it.
     *
     * @param replica the index {@link #pick()} returned
     * @param elapsedNanos how long the call had run
     */
    public void onCancelled(int replica, long elapsedNanos) {
        if (!states.release(replica)) {
            return;
        }
        states.other(replica);
        if (peakEwma) {
            states.sample(replica, elapsedNanos, ticker.read(), decayNanos, false);
        }
    }

    /**
     * The call on {@code replica} ended without an outcome that says anything about the replica (it
     * never started, or ended with an {@link Error}): only the outstanding count is released.
     *
     * @param replica the index {@link #pick()} returned
     */
    public void onIgnored(int replica) {
        if (states.release(replica)) {
            states.other(replica);
        }
    }

    /**
     * Picks a replica, runs {@code call} against it and records the outcome: a value is a success,
     * an {@link Exception} a failure, an {@link Error} is ignored. What the call throws comes out
     * unchanged.
     *
     * @param call the call, given the chosen replica
     * @param <T> the result type
     * @param <E> what the call may throw
     * @return the call's value
     * @throws E the call's exception, unchanged
     */
    public <T, E extends Throwable> T execute(CheckedFunction<? super R, ? extends T, E> call) throws E {
        long start = ticker.read();
        int replica = pick(start);
        T value;
        try {
            value = call.apply(replicas.get(replica));
        } catch (Exception failure) {
            onFailure(replica, ticker.read() - start, failure);
            throw failure;
        } catch (Throwable error) {
            onIgnored(replica);
            throw error;
        }
        onSuccess(replica, ticker.read() - start);
        return value;
    }

    // ---- health ----

    /**
     * Reports a replica healthy or not (push form of the health signal). An unhealthy replica is
     * skipped until reported healthy again, except in panic.
     *
     * @param replica the replica's index
     * @param healthy the report
     */
    public void reportHealth(int replica, boolean healthy) {
        Objects.checkIndex(replica, size);
        long now = ticker.read();
        if (healthy) {
            long after = states.clearBit(replica, ReplicaStates.UNHEALTHY);
            if (after < 0) {
                return;
            }
            if (after == 0) {
                changeDown(-1, now);
            }
        } else {
            long before = states.setBit(replica, ReplicaStates.UNHEALTHY);
            if (before < 0) {
                return;
            }
            if (before == 0) {
                changeDown(+1, now);
            }
        }
        if (!listeners.isEmpty()) {
            listeners.publish(new ReplicaSetEvent.HealthChanged(name, now, replica, replicas.get(replica), healthy));
        }
    }

    /**
     * Reads every replica's health from {@code healthy} every {@code healthCheckInterval} (on the first
     * pick after it is due; the first read is on the next pick), e.g.
     * {@code r -> checker.check(r.toString()).status() == HealthStatus.UP} with the health module, or
     * any predicate. A predicate that throws reports the replica unhealthy.
     *
     * @param healthy the signal; null stops reading it (the last reports stay until changed)
     */
    public void healthSignal(@Nullable Predicate<? super R> healthy) {
        this.healthSignal = healthy;
        long now = ticker.read();
        nextHealthRead = now;
        lowerMaintenance(now);
    }

    // ---- state ----

    /** @return whether the set is in panic (selection ignores health) */
    public boolean panicking() {
        return (downAndPanic.get() & 1L) != 0;
    }

    /**
     * @param replica the replica's index
     * @return whether it is up (neither ejected nor reported unhealthy)
     */
    public boolean isUp(int replica) {
        return states.up(replica);
    }

    /**
     * @param replica the replica's index
     * @return whether it is ejected now
     */
    public boolean isEjected(int replica) {
        return (states.status(replica) & (ReplicaStates.EJECTED | EJECTING)) != 0;
    }

    /**
     * @param replica the replica's index
     * @return its calls in flight
     */
    public long outstanding(int replica) {
        return states.outstanding(replica);
    }

    /**
     * Counters and state now.
     *
     * @return a snapshot
     */
    public ReplicaSetMetrics metrics() {
        long picks = 0;
        long successes = 0;
        long failures = 0;
        long outstanding = 0;
        int ejectedNow = 0;
        int unhealthy = 0;
        for (int i = 0; i < size; i++) {
            picks += states.picks(i);
            successes += states.successes(i);
            failures += states.failures(i);
            outstanding += states.outstanding(i);
            long status = states.status(i);
            if ((status & (ReplicaStates.EJECTED | EJECTING)) != 0) {
                ejectedNow++;
            }
            if ((status & ReplicaStates.UNHEALTHY) != 0) {
                unhealthy++;
            }
        }
        return new ReplicaSetMetrics(size, picks, successes, failures, outstanding, ejectedNow, unhealthy, panicking(),
                panics.sum(), ejections.sum(), ejectionsCapped.sum());
    }

    /**
     * One replica's counters and state now.
     *
     * @param replica the replica's index
     * @return a snapshot
     */
    public ReplicaSetMetrics.Replica metrics(int replica) {
        long status = states.status(replica);
        double estimate = peakEwma ? states.latencyEstimate(replica, ticker.read(), decayNanos) : Double.NaN;
        return new ReplicaSetMetrics.Replica(replica, String.valueOf(replicas.get(replica)), states.picks(replica),
                states.successes(replica), states.failures(replica), states.outstanding(replica),
                (status & (ReplicaStates.EJECTED | EJECTING)) != 0, (status & ReplicaStates.UNHEALTHY) == 0,
                states.ejections(replica), estimate);
    }

    /** The ejection slots taken (each ejected replica holds one; bounded by the cap). For tests. */
    int ejectedReservations() {
        return ejected.get();
    }

    /** The replicas counted as not up by the panic state. For tests. */
    int downCount() {
        return (int) (downAndPanic.get() >> 1);
    }

    // ---- ejection and panic ----

    private void eject(int replica, long now, String reason) {
        if (!reserveEjection()) {
            ejectionsCapped.increment();
            if (!listeners.isEmpty()) {
                listeners.publish(new ReplicaSetEvent.EjectionCapped(name, now, replica, replicas.get(replica), reason,
                        maxEjected));
            }
            return;
        }
        long before = states.setBit(replica, EJECTING);
        if (before < 0 || (before & ReplicaStates.EJECTED) != 0) {
            // someone else ejected it meanwhile
            if (before >= 0 && states.clearBit(replica, EJECTING) == 0) {
                changeDown(-1, now); // it was readmitted while we held the claim: it is up again
            }
            ejected.decrementAndGet();
            return;
        }
        // Count the replica down at the moment it stops being up (0 -> EJECTING). Every bit change that
        // brings the status back to 0 counts it up again, whoever makes it: a readmission that lands while
        // EJECTING is still set leaves the status non-zero, and our own clear below then finds 0.
        if (before == 0) {
            changeDown(+1, now);
        }
        long count = states.countEjection(replica, now, config.maxEjectionTimeNanos());
        long base = config.baseEjectionTimeNanos();
        long max = config.maxEjectionTimeNanos();
        long duration = count > max / base ? max : base * count; // base × count ≤ max: no overflow
        long until = now + duration;
        states.setEjectedUntil(replica, until);
        states.setBit(replica, ReplicaStates.EJECTED);
        if (states.clearBit(replica, EJECTING) == 0) {
            changeDown(-1, now); // readmitted (a late clock) between our two bits: it is up again
        }
        states.clearStreak(replica);
        ejections.increment();
        lowerMaintenance(until);
        LOG.warn("ReplicaSet '{}': ejected {} for {} ms ({}, ejection {})", name, replicas.get(replica),
                duration / 1_000_000, reason, count);
        if (!listeners.isEmpty()) {
            listeners.publish(new ReplicaSetEvent.Ejected(name, now, replica, replicas.get(replica), reason, duration,
                    count));
        }
    }

    /** Takes one of the {@code maxEjected} ejection slots, if one is free. */
    private boolean reserveEjection() {
        while (true) {
            int current = ejected.get();
            if (current >= maxEjected) {
                return false;
            }
            if (ejected.compareAndSet(current, current + 1)) {
                return true;
            }
        }
    }

    private void readmit(int replica, long now) {
        long after = states.clearBit(replica, ReplicaStates.EJECTED);
        if (after < 0) {
            return;
        }
        ejected.decrementAndGet();
        states.clearStreak(replica);
        states.readmittedAt(replica, now);
        if (after == 0) {
            changeDown(-1, now);
        }
        LOG.info("ReplicaSet '{}': readmitted {}", name, replicas.get(replica));
        if (!listeners.isEmpty()) {
            listeners.publish(new ReplicaSetEvent.Readmitted(name, now, replica, replicas.get(replica)));
        }
    }

    /** Moves the count of replicas that are not up, and publishes a panic change exactly once. */
    private void changeDown(int delta, long now) {
        while (true) {
            long current = downAndPanic.get();
            long down = (current >> 1) + delta;
            int up = size - (int) down;
            boolean panic = up / (double) size < config.panicThreshold();
            long next = down << 1 | (panic ? 1L : 0L);
            if (downAndPanic.compareAndSet(current, next)) {
                boolean was = (current & 1L) != 0;
                if (panic && !was) {
                    panics.increment();
                    LOG.warn("ReplicaSet '{}': PANIC: only {} of {} replicas healthy (below {}); spreading over every "
                            + "replica, ignoring health", name, up, size, config.panicThreshold());
                    if (!listeners.isEmpty()) {
                        listeners.publish(new ReplicaSetEvent.PanicEntered(name, now, up, size));
                    }
                } else if (!panic && was) {
                    LOG.warn("ReplicaSet '{}': panic over: {} of {} replicas healthy", name, up, size);
                    if (!listeners.isEmpty()) {
                        listeners.publish(new ReplicaSetEvent.PanicLeft(name, now, up, size));
                    }
                }
                return;
            }
        }
    }

    // ---- maintenance: readmissions, the success-rate pass, the health signal ----

    private void maintain(long now) {
        long due = nextMaintenance.get();
        if (now - due < 0 || !nextMaintenance.compareAndSet(due, now + FAR)) {
            return;
        }
        long next = now + FAR;
        try {
            if (ejected.get() > 0) {
                for (int i = 0; i < size; i++) {
                    if ((states.status(i) & ReplicaStates.EJECTED) != 0) {
                        long until = states.ejectedUntil(i);
                        if (now - until >= 0) {
                            readmit(i, now);
                        } else if (until - next < 0) {
                            next = until;
                        }
                    }
                }
            }
            if (config.failureRateEjection()) {
                if (now - nextEvaluation >= 0) {
                    nextEvaluation = now + config.failureRateIntervalNanos();
                    compareSuccessRates(now);
                }
                if (nextEvaluation - next < 0) {
                    next = nextEvaluation;
                }
            }
            Predicate<? super R> signal = healthSignal;
            if (signal != null) {
                if (now - nextHealthRead >= 0) {
                    nextHealthRead = now + config.healthCheckIntervalNanos();
                    readHealth(signal);
                }
                if (nextHealthRead - next < 0) {
                    next = nextHealthRead;
                }
            }
        } finally {
            lowerMaintenance(next);
        }
    }

    private void lowerMaintenance(long at) {
        while (true) {
            long current = nextMaintenance.get();
            if (current - at <= 0 || nextMaintenance.compareAndSet(current, at)) {
                return;
            }
        }
    }

    /**
     * Success-rate outlier detection over the last interval: replicas with at least
     * {@code failureRateMinimumCalls} calls, if at least {@code failureRateMinimumReplicas} of them,
     * are ejected when {@code rate < mean − stdevFactor × stdev}.
     */
    private void compareSuccessRates(long now) {
        int compared = 0;
        double sum = 0.0;
        double squares = 0.0;
        for (int i = 0; i < size; i++) {
            long counts = states.takeInterval(i);
            long successes = counts >>> 32;
            long calls = successes + (counts & 0xffff_ffffL);
            if (calls >= config.failureRateMinimumCalls() && (states.status(i) & ReplicaStates.EJECTED) == 0) {
                double rate = successes / (double) calls;
                states.setRate(i, rate);
                compared++;
                sum += rate;
                squares += rate * rate;
            } else {
                states.setRate(i, -1.0);
            }
        }
        if (compared < config.failureRateMinimumReplicas()) {
            return;
        }
        double mean = sum / compared;
        double stdev = Math.sqrt(Math.max(0.0, squares / compared - mean * mean));
        // The margin keeps rounding from ejecting replicas whose rates are all equal.
        double threshold = mean - config.failureRateStdevFactor() * stdev - 1e-9;
        for (int i = 0; i < size; i++) {
            double rate = states.rate(i);
            if (rate >= 0.0 && rate < threshold && (states.status(i) & (ReplicaStates.EJECTED | EJECTING)) == 0) {
                eject(i, now, ReplicaSetEvent.FAILURE_RATE);
            }
        }
    }

    private void readHealth(Predicate<? super R> signal) {
        for (int i = 0; i < size; i++) {
            boolean healthy;
            try {
                healthy = signal.test(replicas.get(i));
            } catch (RuntimeException failed) {
                LOG.warn("ReplicaSet '{}': the health signal threw for {}; reporting it unhealthy", name,
                        replicas.get(i), failed);
                healthy = false;
            }
            reportHealth(i, healthy);
        }
    }

    @Override
    public String toString() {
        return "ReplicaSet[" + name + ", " + size + " replicas]";
    }
}

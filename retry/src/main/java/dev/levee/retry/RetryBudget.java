package dev.levee.retry;

import dev.levee.core.PolicyRegistry;
import dev.levee.core.Ticker;
import dev.levee.core.internal.Validate;
import dev.levee.retry.internal.StripedWindowedCounter;
import dev.levee.retry.internal.WindowedCounter;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * A shared allowance of retries that keeps retry traffic a bounded fraction of real traffic, so that
 * retries cannot turn a short overload into a lasting one (a retry storm, the metastable failure).
 * Many {@link Retry} and {@link Hedge} instances may draw from one budget.
 *
 * <p><b>Model</b> (Finagle's). Every request deposits, every retry withdraws; both count for
 * {@code ttl}. A retry is allowed while
 * <pre>
 *   withdrawals(ttl) + 1  &lt;=  retryRatio · deposits(ttl)  +  minRetriesPerSecond · ttlSeconds
 * </pre>
 * so the retries made within the ttl before any allowed retry (itself included) are at most
 * {@code ratio · requests + minimum}, requests counted over the same ttl; with the defaults (20%,
 * 10/s, 10 s) a failing dependency sees at most 1.2× its normal load plus 100 calls per 10 s, instead
 * of {@code maxAttempts}× (27× for three layers of three attempts). Deposits and withdrawals are kept
 * in {@linkplain WindowedCounter time-bucketed counters} on the ticker, 20 to 40 buckets per ttl, and
 * rounded to whole buckets the safe way, <b>within 10% of the ttl for every ttl</b>: a withdrawal
 * counts at every age up to the ttl and at no age from {@code 1.1 · ttl}; a deposit counts at no age
 * from the ttl, and at every age up to {@code 0.9 · ttl} once the budget's clock is current (below).
 * So the bound holds exactly, at the price of an allowance up to 10% below {@code ratio} in steady
 * state.
 *
 * <p><b>Deposits read no clock.</b> A deposit is on every request's path, so it does not read the
 * ticker: it lands in the bucket of the budget's <em>published epoch</em>, the newest bucket anyone
 * has seen (every withdrawal and every read of the budget publishes its reading, and a depositing
 * thread refreshes it after every {@value StripedWindowedCounter#REFRESH_EVERY}th deposit of a
 * bucket), in a counter striped by thread so that concurrent requests do not contend on one word
 * ({@link StripedWindowedCounter}). A deposit can only be tagged older than it is, never newer, so
 * deposits are never over-counted and the bound above holds exactly. The cost is a possible
 * under-count right after a bucket boundary nobody has read yet: at most
 * {@code REFRESH_EVERY - 1} deposits per stripe count as one bucket older (after a quiet spell with
 * no withdrawal, they may already have left the window) — a briefly smaller allowance, the safe
 * direction.
 *
 * <p><b>Concurrency form</b> (optional, {@link RetryBudgetConfig.Builder#maxConcurrentRetries}): in
 * addition, retries in flight (from the withdrawal until that attempt ends) stay at most
 * {@code max(minConcurrentRetries, floor(ratio · requestsInFlight))}.
 *
 * <p><b>Nesting.</b> When {@code Retry} layers that share this budget are nested on one thread, only the
 * outermost deposits: an inner layer's call is part of the same request. Then a failing dependency
 * sees at most {@code (1 + ratio) · requests + minimum} attempts, however many layers retry. This
 * detection is per thread; asynchronous attempts that hop threads deposit at each layer.
 *
 * <p><b>Guarantees.</b> Lock-free: a deposit is one CAS on its stripe's bucket; a withdrawal re-checks
 * the allowance and adds itself with a CAS that fails if another withdrawal got in first, so within
 * a bucket the bound is exact under any contention. Two withdrawals that straddle a bucket boundary
 * at the same instant may both pass, exceeding the bound by at most one per racing thread.
 * No allocation after construction (except one small per-thread depth counter).
 *
 * <p><b>Knobs</b> ({@link RetryBudgetConfig}; defaults are seed 003's and Finagle's):
 * <table>
 *   <caption>Defaults</caption>
 *   <tr><th>knob</th><th>default</th></tr>
 *   <tr><td>{@code retryRatio}</td><td>0.2</td></tr>
 *   <tr><td>{@code minRetriesPerSecond}</td><td>10</td></tr>
 *   <tr><td>{@code ttl}</td><td>10 s</td></tr>
 *   <tr><td>concurrency form</td><td>off</td></tr>
 * </table>
 *
 * <p><b>Cost.</b> A deposit is one CAS on a striped counter and no clock read (plus a thread-local
 * read through {@link Retry}, for the nesting rule); a withdrawal reads the ticker, 20 to 41 buckets
 * of the withdrawals and 20 to 40 buckets per stripe of the deposits, and CASes one. No allocation
 * after construction; memory: 512 bytes per deposit stripe (twice the processors, at most 16), 128
 * bytes of padding around them, and 512 for the withdrawals, so 2.6 KB on a 2-core machine and 8.6 KB
 * from 8 cores.
 *
 * <p>Users with their own retry loop call {@link #onRequestStart()}, {@link #tryRetry()} (or
 * {@link #tryRetry(int)} for several at once), {@link #onRetryEnd()} and {@link #onRequestEnd()}.
 * {@link #unlimited(String)} never refuses, for tests.
 */
public final class RetryBudget {
    private static final String POLICY = "RetryBudget";

    private final String name;
    private final RetryBudgetConfig config;
    private final Ticker ticker;
    private final StripedWindowedCounter deposits;
    private final WindowedCounter withdrawals;
    /** {@code minRetriesPerSecond · ttlSeconds}, computed once. */
    private final double reserve;
    private final double ratio;
    private final boolean limitsConcurrency;
    private final AtomicLong requestsInFlight = new AtomicLong();
    private final AtomicLong retriesInFlight = new AtomicLong();
    private final LongAdder refusals = new LongAdder();
    private final boolean unlimited;
    /** This thread's nesting depth of {@link Retry} layers that share this budget. */
    private final ThreadLocal<int[]> depth = ThreadLocal.withInitial(() -> new int[1]);

    /**
     * The {@code kind} tag of a refusal by a budget in {@code levee.retry.rejected} and
     * {@code levee.hedge.rejected}.
     */
    public static final String REJECTED_KIND = "retry_budget";

    /**
     * Deposit stripes: twice the processors (so that two threads rarely share one), at most 16, rounded
     * up to a power of two by the counter. Each stripe is a 512-byte ring.
     */
    private static final int STRIPES = Math.min(16, 2 * Runtime.getRuntime().availableProcessors());

    /** The most retries one {@link #tryRetry(int)} may ask for. */
    public static final int MAX_WITHDRAWAL = 1_000_000;

    private RetryBudget(String name, RetryBudgetConfig config, boolean unlimited) {
        this.name = name;
        this.config = config;
        this.unlimited = unlimited;
        this.ticker = config.ticker();
        this.deposits = new StripedWindowedCounter(config.ttlNanos(), ticker, STRIPES);
        this.withdrawals = new WindowedCounter(config.ttlNanos(), ticker);
        this.reserve = config.minRetriesPerSecond() * (config.ttlNanos() / 1e9);
        this.ratio = config.retryRatio();
        this.limitsConcurrency = config.limitsConcurrency();
    }

    /**
     * Creates a budget.
     *
     * @param name the budget's name, used in events, logs and metrics; not blank
     * @param config the config, not null
     * @return the budget
     * @throws dev.levee.core.InvalidConfigException on a blank name or a null config
     */
    public static RetryBudget of(String name, RetryBudgetConfig config) {
        Validate.name(POLICY, name);
        Validate.notNull(Validate.describe(POLICY, name), "config", config);
        return new RetryBudget(name, config, false);
    }

    /**
     * Creates a budget with {@link RetryBudgetConfig#defaults()} (20%, 10/s, 10 s).
     *
     * @param name the budget's name
     * @return the budget
     */
    public static RetryBudget ofDefaults(String name) {
        return of(name, RetryBudgetConfig.defaults());
    }

    /**
     * A registry of budgets by name (one per downstream), created on first use from the default config
     * or a named one.
     *
     * @param defaultConfig the config of budgets created without a named config
     * @return a new registry
     */
    public static PolicyRegistry<RetryBudgetConfig, RetryBudget> registry(RetryBudgetConfig defaultConfig) {
        return PolicyRegistry.create(defaultConfig, RetryBudget::of);
    }

    /**
     * A budget that allows every retry, for tests and for code that must share a budget's API
     * without its limit. It still counts deposits, withdrawals and retries in flight, so a test can
     * read what a real budget would have seen; it never refuses.
     *
     * @param name the budget's name
     * @return the unlimited budget, on the system ticker
     */
    public static RetryBudget unlimited(String name) {
        Validate.name(POLICY, name);
        return new RetryBudget(name, RetryBudgetConfig.defaults(), true);
    }

    /** @return true for {@link #unlimited(String)}: the budget never refuses */
    public boolean isUnlimited() {
        return unlimited;
    }

    /** @return the budget's name */
    public String name() {
        return name;
    }

    /** @return the config */
    public RetryBudgetConfig config() {
        return config;
    }

    /**
     * A request started: deposits one (one CAS on this thread's stripe, no clock read), and counts it in
     * flight if the concurrency form is on.
     */
    public void onRequestStart() {
        deposits.increment();
        if (limitsConcurrency) {
            requestsInFlight.incrementAndGet();
        }
    }

    /** A request started with {@link #onRequestStart()} ended. */
    public void onRequestEnd() {
        if (limitsConcurrency) {
            requestsInFlight.decrementAndGet();
        }
    }

    /**
     * Asks to retry. On true the caller retries and, when that attempt ends, calls
     * {@link #onRetryEnd()}; on false the caller must not retry. A refusal is counted.
     *
     * @return true if the retry is within the budget
     */
    public boolean tryRetry() {
        return tryRetry(1);
    }

    /**
     * Asks for {@code n} retries at once (a fan-out of hedges, a batch re-sent): all of them or none.
     * On true the caller makes them and calls {@link #onRetryEnd(int)} (or {@link #onRetryEnd()} once
     * per retry) as they end; on false it makes none. A refusal is counted once.
     *
     * @param n the retries wanted, in [1, 1e6]
     * @return true if all {@code n} retries are within the budget
     * @throws IllegalArgumentException if {@code n} is out of range
     */
    public boolean tryRetry(int n) {
        if (n < 1 || n > MAX_WITHDRAWAL) {
            throw new IllegalArgumentException("RetryBudget '" + name + "': n must be in [1, " + MAX_WITHDRAWAL
                    + "] but was " + n);
        }
        if (limitsConcurrency && !reserveConcurrentRetry(n)) {
            refusals.increment();
            return false;
        }
        // allowance = floor(ratio · deposits + reserve); CAS on the current bucket serializes withdrawals.
        // Withdrawals are counted for at least the ttl, deposits for at most the ttl (see the class doc).
        while (true) {
            long now = ticker.read(); // re-read on each try: a CAS also fails for a reading a ring stale
            if (unlimited) {
                if (withdrawals.tryAdd(now, withdrawals.raw(now), n)) {
                    return true;
                }
                continue;
            }
            // The older buckets and the deposits first, the current bucket last: the CAS validates only
            // what changed since that last read. (Read first, it made the whole summation the window in
            // which another thread's withdrawal fails the CAS: two threads retrying at once then failed
            // most of their CASes, and each withdrawal summed several times.)
            long older = withdrawals.sumBeforeCurrent(now);
            double allowance = ratio * deposits.sumWithin(now) + reserve;
            long raw = withdrawals.raw(now);
            if (older + withdrawals.countIn(raw, now) + n > allowance) {
                if (limitsConcurrency) {
                    retriesInFlight.addAndGet(-n);
                }
                refusals.increment();
                return false;
            }
            if (withdrawals.tryAdd(now, raw, n)) {
                return true;
            }
        }
    }

    private boolean reserveConcurrentRetry(int n) {
        while (true) {
            long active = retriesInFlight.get();
            long limit = Math.max(config.minConcurrentRetries(),
                    (long) (config.maxConcurrentRetryRatio() * requestsInFlight.get()));
            if (!unlimited && active + n > limit) {
                return false;
            }
            if (retriesInFlight.compareAndSet(active, active + n)) {
                return true;
            }
        }
    }

    /** A retry allowed by {@link #tryRetry()} ended (only matters for the concurrency form). */
    public void onRetryEnd() {
        if (limitsConcurrency) {
            retriesInFlight.decrementAndGet();
        }
    }

    /**
     * {@code n} retries allowed by {@link #tryRetry(int)} ended (only matters for the concurrency form).
     *
     * @param n the retries that ended
     */
    public void onRetryEnd(int n) {
        if (limitsConcurrency) {
            retriesInFlight.addAndGet(-n);
        }
    }

    /**
     * Retries the budget would allow now, ignoring the concurrency form ({@link #deposits()} and
     * {@link #withdrawals()} as counted for the allowance).
     *
     * @return {@code floor(ratio · deposits + reserve) - withdrawals}, at least 0; {@code Long.MAX_VALUE}
     *         for an unlimited budget
     */
    public long available() {
        if (unlimited) {
            return Long.MAX_VALUE;
        }
        long now = ticker.read();
        return Math.max(0L, (long) (ratio * deposits.sumWithin(now) + reserve) - withdrawals.sum(now));
    }

    /** @return requests deposited within the ttl (each counted until at least 0.9 × ttl, never at the ttl) */
    public long deposits() {
        return deposits.sumWithin(ticker.read());
    }

    /** @return retries withdrawn within the ttl (each counted until at least the ttl, never at 1.1 × ttl) */
    public long withdrawals() {
        return withdrawals.sum(ticker.read());
    }

    /** @return retries refused since the budget was created */
    public long refusals() {
        return refusals.sum();
    }

    /** @return requests in flight (concurrency form only, else 0) */
    public long requestsInFlight() {
        return requestsInFlight.get();
    }

    /** @return retries in flight (concurrency form only, else 0) */
    public long retriesInFlight() {
        return retriesInFlight.get();
    }

    /**
     * Enters a request on this thread; only the outermost entry of nested layers deposits.
     *
     * @return this thread's depth counter, to pass to {@link #exitNested(int[])}
     */
    int[] enterNested() {
        int[] d = depth.get();
        if (d[0]++ == 0) {
            onRequestStart();
        }
        return d;
    }

    /** @param d what {@link #enterNested()} returned */
    void exitNested(int[] d) {
        if (--d[0] == 0) {
            onRequestEnd();
        }
    }

    /** @return whether this thread is inside a layer that already deposited into this budget */
    boolean insideRequest() {
        return depth.get()[0] > 0;
    }

    @Override
    public String toString() {
        return "RetryBudget[" + name + ", available=" + available() + "]";
    }
}

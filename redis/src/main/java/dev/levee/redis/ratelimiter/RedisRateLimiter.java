package dev.levee.redis.ratelimiter;

import dev.levee.circuitbreaker.CircuitBreaker;
import dev.levee.core.Deadline;
import dev.levee.core.RateLimitedException;
import dev.levee.core.RejectedException;
import dev.levee.core.Subscription;
import dev.levee.core.Ticker;
import dev.levee.core.internal.EventListeners;
import dev.levee.core.internal.Validate;
import dev.levee.ratelimiter.RateLimitAlgorithm;
import dev.levee.ratelimiter.RateLimitDecision;
import dev.levee.ratelimiter.RateLimiter;
import dev.levee.ratelimiter.RateLimiterConfig;
import dev.levee.ratelimiter.RateLimiterEvent;
import dev.levee.redis.internal.LeasePool;
import dev.levee.redis.internal.RedisScript;
import dev.levee.redis.internal.ScriptRunner;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * A {@link RateLimiter} whose state lives in Redis, so every instance of a service that uses the same
 * name (and key prefix) shares one limit.
 *
 * <p><b>Model.</b> Each decision is one Lua script run atomically on the Redis server
 * ({@code EVALSHA}; on {@code NOSCRIPT} the source is sent again with {@code EVAL}, which also reloads
 * it). The script reads the server's clock ({@code TIME}), so the clocks of the instances play no part:
 * a client whose clock is off by an hour limits exactly like the others. The algorithms are those of
 * the local limiters, with the same formulas and the same meaning of every field of a
 * {@link RateLimitDecision} (allowed, limit, remaining, retryAfter, resetAfter), so
 * {@link dev.levee.ratelimiter.RateLimitHeaders} answers a 429 unchanged:
 * <ul>
 *   <li>{@code GCRA}: one string key, the theoretical arrival time;</li>
 *   <li>{@code TOKEN_BUCKET}: one hash, tokens and the time refills were credited up to;</li>
 *   <li>{@code SLIDING_WINDOW_COUNTER}: one hash, the window index and two counts;</li>
 *   <li>{@code FIXED_WINDOW}: one hash, the window index and its count.</li>
 * </ul>
 * The key is {@code keyPrefix + "{" + name + "}:" + algorithm}: the hash tag puts everything of one
 * limiter in one Redis Cluster slot. Every write sets a TTL that ends just after the state stops
 * mattering (a GCRA key when its arrival time has passed, a bucket when it would be full again, a window
 * when it can no longer be the previous one), so idle limiters leave no keys behind.
 *
 * <p><b>Guarantees.</b> With Redis available, the fleet together grants exactly what one local limiter
 * of the same config would grant against the server's clock: the bounds of {@link RateLimitAlgorithm}
 * hold across instances. Times are whole microseconds on the server; the emission interval
 * {@code T = ceil(P / L)} is rounded up, so rounding never raises the rate. Every call to Redis is
 * bounded by {@code callTimeout}; a timeout or failure is counted by a {@link CircuitBreaker} around the
 * store, and the {@link OutagePolicy} decides until Redis answers again (while the breaker is open no
 * call is made; it lets one probe through after its {@code waitDurationInOpen}). The switch to and from
 * the outage policy is logged at WARN once and published as a {@link RedisRateLimiterEvent}.
 * An exception is never thrown by a decision; an {@link Error} is never swallowed; an interrupt while
 * waiting for Redis refuses the request and keeps the interrupt flag set.
 *
 * <p><b>Lease mode</b> ({@code leaseSize > 0}): an instance takes permits from Redis in batches and
 * spends them locally without a round trip, refilling asynchronously when its stock falls to
 * {@code leaseRefillThreshold × leaseSize}; with an empty stock it asks Redis directly, as without
 * leases. Over-admission is bounded: an instance never holds more than {@code leaseSize} permits that
 * Redis counted and nobody used, so {@code N} instances admit at most {@code N × leaseSize} more than
 * the shared limit's bound in any interval (and leased permits that are never spent are lost, which
 * only ever under-admits). In lease mode a decision's {@code remaining} is the local stock.
 *
 * <p><b>Waiting.</b> {@link #acquire(int, Duration)} waits as a local limiter does: GCRA and token bucket
 * reserve the permits on the server and the caller sleeps until they are due (on the config's sleeper);
 * the window algorithms sleep until the window allows and ask again. A reservation whose caller is
 * interrupted while sleeping is not given back to Redis.
 *
 * <p><b>Knobs</b>: {@link RedisRateLimiterConfig}.
 *
 * <p><b>Cost.</b> One Redis round trip per decision (tens of microseconds on a local network; the script
 * itself a few microseconds of server time) and the client's allocations for the command; a lease-mode
 * decision served from the stock is one CAS. Thread-safe; the connection is the user's, shared, and
 * never closed by the limiter.
 */
public final class RedisRateLimiter implements RateLimiter {
    private final String name;
    private final RedisRateLimiterConfig config;
    private final RateLimiterConfig rate;
    private final Ticker ticker;
    private final RedisScript script;
    private final RedisStore store;
    private final String[] keys;
    private final @Nullable RateLimiter fallback;
    private final @Nullable LeasePool lease;
    private final long failClosedRetryNanos;
    private final EventListeners<RateLimiterEvent> events;
    private volatile long lastRetryAfterNanos;
    private final LimiterTally tally = new LimiterTally();
    /** The keyed limiter's tally of all its keys, or null for a limiter of its own. */
    private final @Nullable LimiterTally keyedTally;
    private final AtomicInteger waiting = new AtomicInteger();
    private volatile Params params;
    /** Microseconds added to the server's clock by the scripts: always "0" except in this module's tests. */
    private volatile String clockShift = "0";

    /** The rate in force and the script arguments that follow from it. */
    private static final class Params {
        final long limit;
        final long periodNanos;
        final String limitArg;
        final String periodArg;
        final String burstArg;
        final String intervalArg;
        final String initialArg;

        Params(RateLimiterConfig rate) {
            this.limit = rate.limit();
            this.periodNanos = rate.periodNanos();
            long periodMicros = RedisRateLimiterConfig.periodMicros(rate);
            this.limitArg = Long.toString(rate.limit());
            this.periodArg = Long.toString(periodMicros);
            this.burstArg = Long.toString(rate.burst());
            this.intervalArg = Long.toString(RedisRateLimiterConfig.intervalMicros(periodMicros, rate.limit()));
            this.initialArg = Long.toString(rate.initialTokens());
        }

        String[] args(long permits, long maxWaitNanos, String clockShift) {
            return new String[] {Long.toString(permits), limitArg, periodArg, burstArg, intervalArg,
                Long.toString(maxWaitNanos / 1000), initialArg, clockShift};
        }
    }

    /**
     * @param name the limiter's name (the key's hash tag)
     * @param config the config
     * @param store Redis with its breaker: the limiter's own, or shared by the keys of a keyed limiter
     * @param events where rejections and rate changes go: the limiter's own, or shared likewise
     * @param keyedTally the keyed limiter's counters of all its keys (counted besides the limiter's own), or null
     */
    RedisRateLimiter(String name, RedisRateLimiterConfig config, RedisStore store, EventListeners<RateLimiterEvent> events,
            @Nullable LimiterTally keyedTally) {
        this.name = name;
        this.keyedTally = keyedTally;
        this.config = config;
        this.rate = config.rate();
        this.ticker = rate.ticker();
        this.script = RedisScript.of(rate.algorithm());
        this.store = store;
        this.events = events;
        this.keys = new String[] {config.keyPrefix() + "{" + name + "}:" + script.keySuffix()};
        this.fallback = config.outagePolicy() == OutagePolicy.LOCAL_FALLBACK
                ? RateLimiter.of(name + ".fallback", fallbackRate(rate, config.expectedInstances()))
                : null;
        this.lease = config.leaseSize() > 0 ? new LeasePool(config.leaseSize(), config.leaseRefillThreshold()) : null;
        this.failClosedRetryNanos = Deadline.saturatedNanos(config.storeBreaker().waitDurationInOpen());
        this.params = new Params(rate);
    }

    /**
     * Creates a limiter on a Redis connection. The connection stays the caller's: the limiter never
     * closes it and creates no other.
     *
     * @param name the limiter's name, also its Redis key's hash tag; not blank
     * @param config the config
     * @param connection a connection with {@code String} keys and values
     * @return a new limiter
     * @throws dev.levee.core.InvalidConfigException if the name is blank or an argument null
     */
    public static RedisRateLimiter of(String name, RedisRateLimiterConfig config,
            StatefulRedisConnection<String, String> connection) {
        Validate.notNull(RedisRateLimiterConfig.POLICY, "connection", connection);
        return of(name, config, connection.async());
    }

    /**
     * Creates a limiter on a Redis Cluster connection (the key's hash tag keeps a limiter in one slot).
     *
     * @param name the limiter's name; not blank
     * @param config the config
     * @param connection a cluster connection with {@code String} keys and values
     * @return a new limiter
     * @throws dev.levee.core.InvalidConfigException if the name is blank or an argument null
     */
    public static RedisRateLimiter of(String name, RedisRateLimiterConfig config,
            StatefulRedisClusterConnection<String, String> connection) {
        Validate.notNull(RedisRateLimiterConfig.POLICY, "connection", connection);
        return of(name, config, connection.async());
    }

    /**
     * Creates a limiter on any Lettuce command interface that runs scripts.
     *
     * @param name the limiter's name; not blank
     * @param config the config
     * @param commands the scripting commands of the caller's connection
     * @return a new limiter
     * @throws dev.levee.core.InvalidConfigException if the name is blank or an argument null
     */
    public static RedisRateLimiter of(String name, RedisRateLimiterConfig config,
            RedisScriptingAsyncCommands<String, String> commands) {
        String checked = Validate.name(RedisRateLimiterConfig.POLICY, name);
        Validate.notNull(RedisRateLimiterConfig.POLICY, "config", config);
        Validate.notNull(RedisRateLimiterConfig.POLICY, "commands", commands);
        return new RedisRateLimiter(checked, config,
                new RedisStore(checked, config, new ScriptRunner<>(commands, config.callTimeoutNanos())), new EventListeners<>(), null);
    }

    /**
     * Creates a limiter with {@link RedisRateLimiterConfig#defaults()}.
     *
     * @param name the limiter's name; not blank
     * @param connection a connection with {@code String} keys and values
     * @return a new limiter
     */
    public static RedisRateLimiter ofDefaults(String name, StatefulRedisConnection<String, String> connection) {
        return of(name, RedisRateLimiterConfig.defaults(), connection);
    }

    /** The local limiter of {@link OutagePolicy#LOCAL_FALLBACK}: the rate and burst divided by the instances. */
    static RateLimiterConfig fallbackRate(RateLimiterConfig rate, int instances) {
        long limit = Math.max(1, rate.limit() / instances);
        long burst = Math.max(1, rate.burst() / instances);
        RateLimiterConfig.Builder b = rate.toBuilder().limit(limit).burst(burst);
        if (rate.algorithm() == RateLimitAlgorithm.TOKEN_BUCKET) {
            b.initialTokens(Math.min(burst, rate.initialTokens()));
        }
        return b.build();
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Ticker ticker() {
        return ticker;
    }

    /**
     * The rate config (algorithm, limit, period, burst, time sources).
     *
     * @return the rate
     */
    @Override
    public RateLimiterConfig config() {
        return rate;
    }

    /**
     * The whole config: rate, key prefix, timeout, outage policy, lease mode.
     *
     * @return the config
     */
    public RedisRateLimiterConfig redisConfig() {
        return config;
    }

    /**
     * The Redis key holding this limiter's state.
     *
     * @return the key
     */
    public String key() {
        return keys[0];
    }

    /**
     * The circuit breaker around Redis (to observe it, or to force it open for maintenance).
     *
     * @return the breaker
     */
    public CircuitBreaker storeBreaker() {
        return store.breaker();
    }

    @Override
    public long limit() {
        return params.limit;
    }

    @Override
    public long periodNanos() {
        return params.periodNanos;
    }

    @Override
    public boolean tryAcquire(int permits, long nowNanos) {
        return decide(permits, nowNanos, 0L, null) >= 0;
    }

    @Override
    public boolean tryAcquire(int permits, long nowNanos, RateLimitDecision into) {
        return decide(permits, nowNanos, 0L, into) >= 0;
    }

    @Override
    public long reserve(int permits, long nowNanos, long maxWaitNanos) {
        if (maxWaitNanos < 0) {
            throw new IllegalArgumentException("maxWaitNanos must be >= 0 but was " + maxWaitNanos);
        }
        return decide(permits, nowNanos, reserves() ? maxWaitNanos : 0L, null);
    }

    @Override
    public boolean reserves() {
        return rate.algorithm() == RateLimitAlgorithm.GCRA || rate.algorithm() == RateLimitAlgorithm.TOKEN_BUCKET;
    }

    /**
     * One decision: from the lease stock, else from Redis, else from the outage policy.
     *
     * @return the wait (at least 0) if granted, else {@code ~retryAfterNanos}
     */
    private long decide(int permits, long now, long maxWaitNanos, @Nullable RateLimitDecision into) {
        if (permits < 1) {
            throw new IllegalArgumentException("permits must be >= 1 but was " + permits);
        }
        LeasePool pool = lease;
        if (pool != null) {
            if (pool.tryTake(permits)) {
                countGranted(permits);
                if (into != null) {
                    into.set(true, params.limit, pool.stock(), 0L, 0L);
                }
                maybeRefill(pool, now);
                return 0L;
            }
            maybeRefill(pool, now);
        }
        Params p = params;
        long[] r;
        try {
            r = ask(p, permits, maxWaitNanos, now);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            countRejected();
            if (into != null) {
                into.set(false, p.limit, 0L, 0L, 0L);
            }
            return ~0L;
        }
        if (r == null) {
            return outageDecision(permits, now, maxWaitNanos, into);
        }
        long retryAfter = nanos(r[ScriptRunner.RETRY_AFTER]);
        if (into != null) {
            into.set(r[ScriptRunner.GRANTED] == 1, p.limit, r[ScriptRunner.BALANCE], retryAfter,
                    nanos(r[ScriptRunner.RESET_AFTER]));
        }
        if (r[ScriptRunner.GRANTED] != 1) {
            rejected(permits, retryAfter, now);
            return ~retryAfter;
        }
        countGranted(permits);
        return nanos(r[ScriptRunner.WAIT]);
    }

    private long @Nullable [] ask(Params p, int permits, long maxWaitNanos, long now) throws InterruptedException {
        return store.ask(script, keys, p.args(permits, maxWaitNanos, clockShift), now);
    }

    private long outageDecision(int permits, long now, long maxWaitNanos, @Nullable RateLimitDecision into) {
        tally.outageDecisions.increment();
        if (keyedTally != null) {
            keyedTally.outageDecisions.increment();
        }
        long limit = params.limit;
        switch (config.outagePolicy()) {
            case FAIL_OPEN:
                countGranted(permits);
                if (into != null) {
                    into.set(true, limit, limit, 0L, 0L);
                }
                return 0L;
            case FAIL_CLOSED:
                rejected(permits, failClosedRetryNanos, now);
                if (into != null) {
                    into.set(false, limit, 0L, failClosedRetryNanos, failClosedRetryNanos);
                }
                return ~failClosedRetryNanos;
            case LOCAL_FALLBACK:
            default:
                RateLimiter local = fallbackLimiter();
                long r;
                if (into != null) {
                    r = local.tryAcquire(permits, now, into) ? 0L : ~into.retryAfterNanos();
                } else {
                    r = local.reserve(permits, now, maxWaitNanos);
                }
                if (r >= 0) {
                    countGranted(permits);
                } else {
                    rejected(permits, ~r, now);
                }
                return r;
        }
    }

    private RateLimiter fallbackLimiter() {
        RateLimiter local = fallback;
        if (local == null) {
            throw new IllegalStateException("no fallback limiter for " + config.outagePolicy());
        }
        return local;
    }

    private void maybeRefill(LeasePool pool, long now) {
        long want = pool.startRefill(now);
        if (want == 0) {
            return;
        }
        try {
            store.askAsync(script, keys, params.args(want, 0L, clockShift), now, ticker, r -> {
                if (r == null) {
                    pool.refilled(0, ticker.read());
                } else {
                    boolean ok = r[ScriptRunner.GRANTED] == 1;
                    long end = ticker.read();
                    pool.refilled(ok ? want : 0, ok ? end : end + nanos(r[ScriptRunner.RETRY_AFTER]));
                }
            });
        } catch (RuntimeException | Error e) {
            pool.refilled(0, now);
            throw e;
        }
    }

    private void rejected(int permits, long retryAfterNanos, long now) {
        countRejected();
        lastRetryAfterNanos = retryAfterNanos;
        if (!events.isEmpty()) {
            events.publish(new RateLimiterEvent.Rejected(name, now, permits, retryAfterNanos));
        }
    }

    private void countGranted(int permits) {
        tally.granted.add(permits);
        if (keyedTally != null) {
            keyedTally.granted.add(permits);
        }
    }

    private void countRejected() {
        tally.rejected.increment();
        if (keyedTally != null) {
            keyedTally.rejected.increment();
        }
    }

    /** Microseconds from a script to nanoseconds; −1 (never) is {@link Long#MAX_VALUE}. */
    private static long nanos(long micros) {
        if (micros < 0) {
            return Long.MAX_VALUE;
        }
        return micros > Long.MAX_VALUE / 1000 ? Long.MAX_VALUE : micros * 1000;
    }

    @Override
    public RateLimitDecision peek(long nowNanos, RateLimitDecision into) {
        Params p = params;
        long[] r;
        try {
            r = ask(p, 0, 0L, nowNanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return into.set(false, p.limit, 0L, 0L, 0L);
        }
        if (r == null) {
            return outagePeek(nowNanos, into);
        }
        return into.set(r[ScriptRunner.GRANTED] == 1, p.limit, r[ScriptRunner.BALANCE],
                nanos(r[ScriptRunner.RETRY_AFTER]), nanos(r[ScriptRunner.RESET_AFTER]));
    }

    private RateLimitDecision outagePeek(long nowNanos, RateLimitDecision into) {
        long limit = params.limit;
        switch (config.outagePolicy()) {
            case FAIL_OPEN:
                return into.set(true, limit, limit, 0L, 0L);
            case FAIL_CLOSED:
                return into.set(false, limit, 0L, failClosedRetryNanos, failClosedRetryNanos);
            case LOCAL_FALLBACK:
            default:
                return fallbackLimiter().peek(nowNanos, into);
        }
    }

    @Override
    public long availablePermits(long nowNanos) {
        RateLimitDecision d = peek(nowNanos, new RateLimitDecision());
        long local = lease == null ? 0L : lease.stock();
        return d.remaining() + local;
    }

    @Override
    public int waitingCallers() {
        return waiting.get();
    }

    @Override
    public RejectedException rejection(long nowNanos) {
        return new RateLimitedException(name, "RateLimiter '" + name + "' has no permit", lastRetryAfterNanos);
    }

    @Override
    public void acquire(long nowNanos) {
        acquire(1, nowNanos, rate.maxWaitNanos());
    }

    @Override
    public void acquire(int permits, Duration maxWait) {
        long wait = Deadline.saturatedNanos(Validate.nonNegative("RateLimiter '" + name + "'", "maxWait", maxWait));
        acquire(permits, ticker.read(), wait);
    }

    @Override
    public void acquireNanos(int permits, long maxWaitNanos) {
        if (maxWaitNanos < 0) {
            throw new IllegalArgumentException("maxWaitNanos must be >= 0 but was " + maxWaitNanos);
        }
        acquire(permits, ticker.read(), maxWaitNanos);
    }

    private void acquire(int permits, long now, long maxWaitNanos) {
        long budget = maxWaitNanos;
        Deadline deadline = Deadline.currentOrNull();
        if (deadline != null) {
            long left = deadline.ticker() == ticker ? deadline.remainingNanos(now) : deadline.remainingNanos();
            budget = Math.min(budget, Math.max(0L, left));
        }
        while (true) {
            long r = decide(permits, now, reserves() ? budget : 0L, null);
            if (r >= 0) {
                if (r > 0) {
                    sleep(r, permits);
                }
                return;
            }
            long retryAfter = ~r;
            if (Thread.currentThread().isInterrupted()) {
                throw interrupted(permits, null);
            }
            if (reserves() || retryAfter > budget) {
                throw new RateLimitedException(name, "RateLimiter '" + name + "' has no permit for " + permits
                        + (deadline != null ? " within the wait allowed and the deadline" : " within the wait allowed"),
                        retryAfter);
            }
            sleep(Math.max(1L, retryAfter), permits);
            long later = ticker.read();
            budget = Math.max(0L, budget - (later - now));
            now = later;
        }
    }

    private void sleep(long nanos, int permits) {
        waiting.incrementAndGet();
        try {
            rate.sleeper().sleep(nanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw interrupted(permits, e);
        } finally {
            waiting.decrementAndGet();
        }
    }

    private RateLimitedException interrupted(int permits, @Nullable InterruptedException cause) {
        return new RateLimitedException(name, "RateLimiter '" + name + "' was interrupted while waiting for "
                + permits + " permit(s)", 0L, cause);
    }

    /**
     * Changes this instance's rate (other instances keep theirs: change every instance, or roll out a
     * new config). Permits already counted in Redis stay counted.
     *
     * @param limit permits per period
     * @param period the period
     * @throws dev.levee.core.InvalidConfigException if out of the bounds of {@link RedisRateLimiterConfig}
     */
    @Override
    public void setRate(long limit, Duration period) {
        RateLimiterConfig changed = config.toBuilder()
                .rate(rate.toBuilder().rate(limit, period).build())
                .build()
                .rate();
        params = new Params(changed);
        RateLimiter local = fallback;
        if (local != null) {
            local.setRate(Math.max(1, limit / config.expectedInstances()), period);
        }
        if (!events.isEmpty()) {
            events.publish(new RateLimiterEvent.RateChanged(name, ticker.read(), limit, changed.periodNanos()));
        }
    }

    @Override
    public Subscription onEvent(Consumer<? super RateLimiterEvent> listener) {
        return events.subscribe(listener);
    }

    /**
     * Registers a listener for the switches between Redis and the outage policy.
     *
     * @param listener the listener; runs on the deciding thread (or the client's thread for a lease
     *     refill) and must be fast
     * @return closing it unregisters the listener
     */
    public Subscription onStoreEvent(Consumer<? super RedisRateLimiterEvent> listener) {
        return store.events().subscribe(listener);
    }

    /**
     * Whether Redis decides now (false while an outage policy is in force).
     *
     * @return true when the last call to Redis succeeded
     */
    public boolean storeAvailable() {
        return store.available();
    }

    /**
     * A snapshot of this limiter's paths and counters. Allocates; for monitoring.
     *
     * @return the snapshot
     */
    public RedisRateLimiterMetrics redisMetrics() {
        LeasePool pool = lease;
        return new RedisRateLimiterMetrics(params.limit, params.periodNanos, storeAvailable(), config.outagePolicy(),
                store.breaker().state(), store.calls(), store.failures(), tally.outageDecisions.sum(), store.reloads(),
                tally.granted.sum(), tally.rejected.sum(), pool == null ? 0L : pool.stock(), pool == null ? 0L : pool.refills());
    }

    /** Whether a lease refill is in flight (tests wait for it). */
    boolean leaseRefillInFlight() {
        LeasePool pool = lease;
        return pool != null && pool.refilling();
    }

    /**
     * Test hook: shifts the clock the scripts read by {@code micros} (the server's {@code TIME} plus this),
     * so a test can move time forward on a real server. Package-private; never used outside tests.
     *
     * @param micros the shift
     */
    void shiftServerClock(long micros) {
        clockShift = Long.toString(micros);
    }

    @Override
    public String toString() {
        return "RedisRateLimiter[" + name + ", key=" + keys[0] + ", " + rate.algorithm() + " " + params.limit
                + " per " + Duration.ofNanos(params.periodNanos) + ", outagePolicy=" + config.outagePolicy() + "]";
    }
}

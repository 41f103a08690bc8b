package dev.levee.ratelimiter;

import dev.levee.core.Gate;
import dev.levee.core.PolicyRegistry;
import dev.levee.core.RateLimitedException;
import dev.levee.core.Subscription;
import dev.levee.core.TimeNeed;
import dev.levee.ratelimiter.internal.Limiters;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * Limits how often calls may start: at most a limit of permits per period, with a documented burst.
 *
 * <p><b>Model.</b> A rate limiter is a {@link Gate}: {@link #tryAcquire(long)} takes a permit or
 * refuses at once; the completion methods ({@code onSuccess}, {@code onFailure}, {@code onIgnored})
 * do nothing (a permit is spent when granted, however the call ends; an {@link AdaptiveRateLimiter}
 * learns from them). As a policy in a {@link dev.levee.core.Pipeline} it waits up to its config's
 * {@code maxWait} (default zero: refuse at once) and refuses with a {@link RateLimitedException}
 * carrying {@code retryAfter}. Which algorithm decides is chosen in the config; see
 * {@link RateLimitAlgorithm} for the guarantee of each.
 *
 * <p><b>Three ways to ask.</b>
 * <ul>
 *   <li>{@link #tryAcquire(int, long)}: a boolean, allocation-free, lock-free; the hot path.</li>
 *   <li>{@link #tryAcquire(int, long, RateLimitDecision)}: the same decision, also reporting
 *       {@code remaining}, {@code retryAfter} and {@code resetAfter} into a reusable object for a
 *       429 response (see {@link RateLimitHeaders}).</li>
 *   <li>{@link #acquire(int, Duration)}: waits for the permits if they can arrive within
 *       {@code maxWait} and the current {@link dev.levee.core.Deadline}; otherwise it refuses
 *       <em>at once</em>, without sleeping first. Interruptible: the interrupt flag is restored and
 *       the call refused.</li>
 * </ul>
 *
 * <p><b>Implementing it elsewhere.</b> The state of every algorithm is a few numbers read and
 * replaced in one step, so a remote store (a Redis script) can implement this interface: the SPI is
 * {@link #tryAcquire(int, long, RateLimitDecision)}, {@link #reserve(int, long, long)},
 * {@link #availablePermits(long)} and {@link #setRate(long, Duration)}; everything else has a
 * default or is bookkeeping.
 *
 * <p>Thread-safe. Build one with {@link #of(String, RateLimiterConfig)} or {@link #ofDefaults(String)}.
 */
public interface RateLimiter extends Gate {

    /**
     * Creates a limiter. Configs are nameless: one config may serve many limiters.
     *
     * @param name the limiter's name (in rejections, events, logs and metrics); not blank
     * @param config the config
     * @return a new limiter
     * @throws dev.levee.core.InvalidConfigException if the name is blank or the config null
     */
    static RateLimiter of(String name, RateLimiterConfig config) {
        return Limiters.create(name, config);
    }

    /**
     * Creates a limiter with {@link RateLimiterConfig#defaults()} (GCRA, 100 per second, no waiting).
     *
     * @param name the limiter's name; not blank
     * @return a new limiter
     * @throws dev.levee.core.InvalidConfigException if the name is blank
     */
    static RateLimiter ofDefaults(String name) {
        return Limiters.create(name, RateLimiterConfig.defaults());
    }

    /**
     * A registry of limiters by name, created on first use from the default config or a named one
     * ({@link PolicyRegistry#addConfig}), as every pattern's registry is built.
     *
     * @param defaultConfig the config of limiters created without a named config
     * @return a new registry
     */
    static PolicyRegistry<RateLimiterConfig, RateLimiter> registry(RateLimiterConfig defaultConfig) {
        return PolicyRegistry.create(defaultConfig, RateLimiter::of);
    }

    /**
     * The config this limiter was built from (before any {@link #setRate} change).
     *
     * @return the config
     */
    RateLimiterConfig config();

    /**
     * The limit in force: permits per {@link #periodNanos()}.
     *
     * @return the current limit
     */
    long limit();

    /**
     * The period in force.
     *
     * @return the current period in nanoseconds
     */
    long periodNanos();

    /**
     * Takes {@code permits} if they are available now; never waits, never allocates.
     *
     * @param permits how many, at least 1
     * @param nowNanos the current reading of {@link #ticker()}
     * @return true if granted
     * @throws IllegalArgumentException if {@code permits < 1}
     */
    boolean tryAcquire(int permits, long nowNanos);

    /**
     * Takes {@code permits} if they are available now, reading the ticker.
     *
     * @param permits how many, at least 1
     * @return true if granted
     */
    default boolean tryAcquire(int permits) {
        return tryAcquire(permits, ticker().read());
    }

    /** Takes one permit if available now, reading the ticker (a limiter always needs "now"). */
    @Override
    default boolean tryAcquire() {
        return tryAcquire(1, ticker().read());
    }

    /** Takes one permit if available now. */
    @Override
    default boolean tryAcquire(long nowNanos) {
        return tryAcquire(1, nowNanos);
    }

    /**
     * Takes {@code permits} if they are available now and reports the decision into {@code into}:
     * whether granted, how many remain, when to retry, when the limiter is fully replenished.
     * Allocates nothing.
     *
     * @param permits how many, at least 1
     * @param nowNanos the current reading of {@link #ticker()}
     * @param into overwritten with the decision
     * @return {@code into.allowed()}
     */
    boolean tryAcquire(int permits, long nowNanos, RateLimitDecision into);

    /**
     * A zero-permit peek: fills {@code into} with what a one-permit request would see now —
     * {@code allowed} (a permit is available), {@code remaining} and {@link RateLimitDecision#balance()}
     * (the debt, if any), {@code retryAfter} and {@code resetAfter} — without taking anything and
     * without counting a refusal. For a status endpoint or response headers on requests that are not
     * limited themselves. Allocates nothing. (Implementations outside this module should override the
     * default, which knows only {@link #availablePermits(long)}.)
     *
     * @param nowNanos the current reading of {@link #ticker()}
     * @param into overwritten with the state
     * @return {@code into}
     */
    default RateLimitDecision peek(long nowNanos, RateLimitDecision into) {
        long available = availablePermits(nowNanos);
        return into.set(available > 0, limit(), available, 0L, 0L);
    }

    /**
     * Takes {@code permits} if available now and returns the full decision (allocates one object).
     *
     * @param permits how many, at least 1
     * @return the decision
     */
    default RateLimitDecision decide(int permits) {
        RateLimitDecision decision = new RateLimitDecision();
        tryAcquire(permits, ticker().read(), decision);
        return decision;
    }

    /**
     * The reservation SPI behind {@link #acquire(int, Duration)}. A limiter that can reserve future
     * capacity (GCRA, token bucket, leaky bucket) grants {@code permits} if they arrive within
     * {@code maxWaitNanos} and returns how long the caller must wait before starting; a window
     * limiter grants only what is available now (wait 0). When refused, nothing is taken and the
     * result is {@code ~retryAfterNanos} (bitwise complement, always negative): how long until the
     * permits could be granted if nobody else takes them.
     *
     * @param permits how many, at least 1
     * @param nowNanos the current reading of {@link #ticker()}
     * @param maxWaitNanos the longest wait acceptable, at least 0
     * @return the wait (at least 0) if granted, else {@code ~retryAfterNanos}
     */
    long reserve(int permits, long nowNanos, long maxWaitNanos);

    /**
     * Whether {@link #reserve} can grant permits that arrive in the future. When false, a waiting
     * {@code acquire} sleeps until the permits should be free and asks again, and may be refused
     * after that wait if others took them first (it never waits past its limit).
     *
     * @return true for GCRA, token bucket and leaky bucket
     */
    boolean reserves();

    /**
     * Takes {@code permits}, waiting for them if they can arrive within {@code maxWait} and before
     * the current {@link dev.levee.core.Deadline}. If they cannot, refuses at once.
     *
     * @param permits how many, at least 1
     * @param maxWait the longest wait; zero means do not wait
     * @throws RateLimitedException if refused (with {@code retryAfter}) or interrupted while waiting
     *     (the interrupt flag is then set; permits it had booked are given back)
     */
    void acquire(int permits, Duration maxWait);

    /**
     * {@link #acquire(int, Duration)} with the wait in nanoseconds.
     *
     * @param permits how many, at least 1
     * @param maxWaitNanos the longest wait in nanoseconds, at least 0
     * @throws RateLimitedException if refused or interrupted
     */
    void acquireNanos(int permits, long maxWaitNanos);

    /**
     * How many permits could be taken at once now. An estimate under concurrency.
     *
     * @param nowNanos the current reading of {@link #ticker()}
     * @return at least 0
     */
    long availablePermits(long nowNanos);

    /**
     * How many permits could be taken at once now.
     *
     * @return at least 0
     */
    default long availablePermits() {
        return availablePermits(ticker().read());
    }

    /**
     * A snapshot of the rate in force and the permits available now. Allocates; for monitoring.
     *
     * @return the snapshot
     */
    default RateLimiterMetrics metrics() {
        return new RateLimiterMetrics(limit(), periodNanos(), availablePermits(ticker().read()), waitingCallers());
    }

    /**
     * How many callers are waiting in {@link #acquire} right now.
     *
     * @return at least 0
     */
    int waitingCallers();

    /**
     * Changes the rate at run time; the burst stays. Takes effect for decisions that start after it
     * returns; permits already granted or reserved stay granted.
     *
     * @param limit permits per period, at least 1
     * @param period the period, greater than zero
     * @throws dev.levee.core.InvalidConfigException if out of the algorithm's bounds
     */
    void setRate(long limit, Duration period);

    /**
     * Registers a listener for this limiter's events (rejections, rate changes).
     *
     * @param listener the listener; runs on the deciding thread and must be fast
     * @return closing it unregisters the listener
     */
    Subscription onEvent(Consumer<? super RateLimiterEvent> listener);

    /**
     * {@link TimeNeed#START}: a permit is decided at "now"; completions learn nothing, so no end reading
     * is taken for a limiter ({@link AdaptiveRateLimiter}, which learns from latencies, needs
     * {@link TimeNeed#LATENCY}).
     *
     * @return {@link TimeNeed#START}
     */
    @Override
    default TimeNeed timeNeed() {
        return TimeNeed.START;
    }

    /** A rate limiter learns nothing from a success. */
    @Override
    default void onSuccess(long latencyNanos) {}

    /** A rate limiter learns nothing from a failure. */
    @Override
    default void onFailure(long latencyNanos, Throwable error) {}

    /**
     * Nothing is returned: the permit was spent when granted (a call refused by a later gate still
     * counts as an attempt against the rate).
     */
    @Override
    default void onIgnored() {}
}

package dev.levee.ratelimiter.internal;

import org.jspecify.annotations.Nullable;
import dev.levee.core.internal.EventListeners;
import dev.levee.core.Sleeper;
import dev.levee.core.Ticker;
import dev.levee.ratelimiter.RateLimiterConfig;
import dev.levee.ratelimiter.RateLimiterEvent;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a limiter shares with its siblings: name, time sources, listeners, counters. A keyed limiter's
 * per-key limiters all share one context, so each key costs only its algorithm state.
 */
public final class LimiterContext {
    static final Logger LOG = LoggerFactory.getLogger("dev.levee.ratelimiter");

    final String name;
    final Ticker ticker;
    final Sleeper sleeper;
    final EventListeners<RateLimiterEvent> events = new EventListeners<>();
    final AtomicInteger waiting = new AtomicInteger();
    /** Serializes rate changes of every limiter of this context (rare, never on a decision). */
    final ReentrantLock rateLock = new ReentrantLock();
    /** Immutable parameters shared by the limiters of one config (so a key costs only its state). */
    private final ConcurrentHashMap<RateLimiterConfig, Object> shared = new ConcurrentHashMap<>();
    private volatile @Nullable LimiterStats stats;

    /**
     * @param name the limiter's name
     * @param ticker its ticker
     * @param sleeper its sleeper
     */
    public LimiterContext(String name, Ticker ticker, Sleeper sleeper) {
        this.name = name;
        this.ticker = ticker;
        this.sleeper = sleeper;
    }

    /** @return the name */
    public String name() {
        return name;
    }

    @SuppressWarnings("unchecked")
    <T> T shared(RateLimiterConfig config, Function<RateLimiterConfig, T> create) {
        return (T) shared.computeIfAbsent(config, create);
    }

    /** @return the ticker */
    public Ticker ticker() {
        return ticker;
    }

    /** @return the listeners */
    public EventListeners<RateLimiterEvent> events() {
        return events;
    }

    /** @return callers waiting in acquire */
    public int waiting() {
        return waiting.get();
    }

    /**
     * Turns counting on (idempotent) and returns the counters.
     *
     * @return the stats
     */
    public LimiterStats enableStats() {
        // Two binders racing: the first CAS wins and both return its counters.
        STATS.compareAndSet(this, null, new LimiterStats());
        return java.util.Objects.requireNonNull(stats, "stats"); // set by the CAS above or a racing binder
    }

    private static final VarHandle STATS;

    static {
        try {
            STATS = MethodHandles.lookup().findVarHandle(LimiterContext.class, "stats", LimiterStats.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    void granted(int permits) {
        LimiterStats s = stats;
        if (s != null) {
            s.granted.add(permits);
        }
    }

    void rejected(int permits, long retryAfterNanos, long nowNanos) {
        LimiterStats s = stats;
        if (s != null) {
            s.rejected.add(permits);
            s.rejections.increment();
        }
        if (!events.isEmpty()) {
            events.publish(new RateLimiterEvent.Rejected(name, nowNanos, permits, retryAfterNanos));
        }
        if (LOG.isDebugEnabled()) {
            LOG.debug("RateLimiter '{}' refused {} permit(s); retry after {} ns", name, permits, retryAfterNanos);
        }
    }

    void rateChanged(long limit, long periodNanos) {
        rateChanged(limit, periodNanos, false);
    }

    /** An adaptive limiter changes its rate every interval: that is DEBUG, a user's change is INFO. */
    void rateChanged(long limit, long periodNanos, boolean routine) {
        long now = ticker.read();
        if (!events.isEmpty()) {
            events.publish(new RateLimiterEvent.RateChanged(name, now, limit, periodNanos));
        }
        if (!routine) {
            LOG.info("RateLimiter '{}': rate set to {} per {} ns", name, limit, periodNanos);
        } else if (LOG.isDebugEnabled()) {
            LOG.debug("RateLimiter '{}': rate adapted to {} per {} ns", name, limit, periodNanos);
        }
    }
}

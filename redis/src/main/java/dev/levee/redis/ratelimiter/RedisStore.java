package dev.levee.redis.ratelimiter;

import dev.levee.circuitbreaker.CircuitBreaker;
import dev.levee.core.Ticker;
import dev.levee.core.internal.EventListeners;
import dev.levee.core.internal.OutageSwitch;
import dev.levee.redis.internal.RedisScript;
import dev.levee.redis.internal.ScriptRunner;
import dev.levee.redis.internal.StoreException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Redis as one or many limiters see it: the script runner on the user's connection, the circuit
 * breaker around it, and whether Redis decides now. A {@link RedisRateLimiter} has its own; the
 * limiters of a {@link KeyedRedisRateLimiter} share one, so a dead Redis trips one breaker and logs one
 * WARN for all keys.
 *
 * <p><b>Switches, not calls</b> ({@link OutageSwitch}): a call may only switch from the phase it
 * started in, so answers in flight when Redis died (or failures in flight when it came back) cannot
 * flap it.
 */
final class RedisStore {
    private static final Logger LOG = LoggerFactory.getLogger(RedisRateLimiter.class);

    private final String name;
    private final OutagePolicy policy;
    private final ScriptRunner<String, String> runner;
    private final CircuitBreaker breaker;
    private final EventListeners<RedisRateLimiterEvent> events = new EventListeners<>();
    private final OutageSwitch outage = new OutageSwitch();
    private final LongAdder calls = new LongAdder();
    private final LongAdder failures = new LongAdder();

    RedisStore(String name, RedisRateLimiterConfig config, ScriptRunner<String, String> runner) {
        this.name = name;
        this.policy = config.outagePolicy();
        this.runner = runner;
        this.breaker = CircuitBreaker.of(name + ".store", config.storeBreaker());
    }

    CircuitBreaker breaker() {
        return breaker;
    }

    /**
     * Runs a script through the breaker, bounded by the call timeout.
     *
     * @return the answer, or null when Redis is unavailable (the outage is recorded)
     * @throws InterruptedException if interrupted while waiting (nothing is recorded)
     */
    long @Nullable [] ask(RedisScript script, String[] keys, String[] args, long now) throws InterruptedException {
        long startPhase = outage.phase();
        if (!breaker.tryAcquire(now)) {
            outageBegan(startPhase, now, "the store's circuit breaker is open");
            return null;
        }
        Ticker bt = breaker.ticker();
        long start = bt.read();
        long[] r;
        try {
            r = runner.call(script, keys, args);
        } catch (StoreException e) {
            breaker.onFailure(bt.read() - start, e.getCause() == null ? e : e.getCause());
            failures.increment();
            outageBegan(startPhase, now, e.getMessage() == null ? e.toString() : e.getMessage());
            return null;
        } catch (InterruptedException | RuntimeException | Error e) {
            breaker.onIgnored();
            throw e;
        }
        breaker.onSuccess(bt.read() - start);
        calls.increment();
        storeRecovered(startPhase, now);
        return r;
    }

    /**
     * Runs a script through the breaker without waiting (lease refills).
     *
     * @param answer called with the answer, or null if Redis failed or the breaker refused the call
     */
    void askAsync(RedisScript script, String[] keys, String[] args, long now, Ticker ticker,
            Consumer<long @Nullable []> answer) {
        long startPhase = outage.phase();
        if (!breaker.tryAcquire(now)) {
            answer.accept(null);
            return;
        }
        Ticker bt = breaker.ticker();
        long start = bt.read();
        CompletableFuture<long[]> call;
        try {
            call = runner.callAsync(script, keys, args);
        } catch (RuntimeException | Error e) {
            breaker.onIgnored();
            throw e;
        }
        call.whenComplete((r, error) -> {
            long end = ticker.read();
            if (error == null) {
                breaker.onSuccess(bt.read() - start);
                calls.increment();
                storeRecovered(startPhase, end);
                answer.accept(r);
            } else {
                breaker.onFailure(bt.read() - start, error);
                failures.increment();
                outageBegan(startPhase, end, error.toString());
                answer.accept(null);
            }
        });
    }

    private void outageBegan(long startPhase, long now, String cause) {
        if (outage.outageBegan(startPhase, now)) {
            LOG.warn("RedisRateLimiter '{}': Redis is unavailable ({}); {} decides until it answers again",
                    name, cause, policy);
            if (!events.isEmpty()) {
                events.publish(new RedisRateLimiterEvent.OutageBegan(name, now, policy, cause));
            }
        }
    }

    private void storeRecovered(long startPhase, long now) {
        long lasted = outage.storeAnswered(startPhase, now);
        if (lasted >= 0) {
            LOG.warn("RedisRateLimiter '{}': Redis answers again after {} ms; decisions come from Redis",
                    name, lasted / 1_000_000L);
            if (!events.isEmpty()) {
                events.publish(new RedisRateLimiterEvent.OutageEnded(name, now, lasted));
            }
        }
    }

    EventListeners<RedisRateLimiterEvent> events() {
        return events;
    }

    boolean available() {
        return outage.available();
    }

    long calls() {
        return calls.sum();
    }

    long failures() {
        return failures.sum();
    }

    long reloads() {
        return runner.reloads();
    }
}

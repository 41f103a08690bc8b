package dev.levee.redis.internal;

import dev.levee.circuitbreaker.CircuitBreakerConfig;
import dev.levee.core.Deadline;
import dev.levee.core.internal.Validate;
import java.time.Duration;

/**
 * The rules every Redis-backed part of this module shares for its calls to Redis: the call timeout's
 * default and bounds, and the default breaker around the store. One place, so the shared limits and
 * the idempotency store cannot drift apart.
 */
public final class RedisCallDefaults {
    /** The default longest a call waits for Redis: 100 ms. */
    public static final Duration CALL_TIMEOUT = Duration.ofMillis(100);

    /**
     * The default breaker around Redis: opens after 3 consecutive failed calls (a dead store fails
     * every call, so a rate over a window of 100 would hammer it far too long), probes after 1 s with
     * one call, closes on its success.
     */
    public static final CircuitBreakerConfig STORE_BREAKER = CircuitBreakerConfig.builder()
            .consecutiveFailureThreshold(3)
            .waitDurationInOpen(Duration.ofSeconds(1))
            .permittedCallsInHalfOpen(1)
            .successThresholdInHalfOpen(1)
            .build();

    private static final long MIN_CALL_TIMEOUT_NANOS = 1_000_000L;
    private static final long MAX_CALL_TIMEOUT_NANOS = 60_000_000_000L;

    private RedisCallDefaults() {}

    /**
     * Checks a call timeout: not null, in [1 ms, 60 s].
     *
     * @param policy the config's policy name, for the message
     * @param callTimeout the value
     * @throws dev.levee.core.InvalidConfigException naming the field, bound and value
     */
    public static void checkCallTimeout(String policy, Duration callTimeout) {
        Validate.notNull(policy, "callTimeout", callTimeout);
        long timeout = Deadline.saturatedNanos(callTimeout);
        Validate.check(timeout >= MIN_CALL_TIMEOUT_NANOS && timeout <= MAX_CALL_TIMEOUT_NANOS, policy, "callTimeout",
                "in [PT0.001S, PT60S]", callTimeout);
    }
}

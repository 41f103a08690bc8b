package dev.levee.redis.ratelimiter;

import dev.levee.circuitbreaker.CircuitState;

/**
 * A snapshot of a {@link RedisRateLimiter} ({@link RedisRateLimiter#redisMetrics()}): which path
 * decides now and how each path has been used. The store's fields ({@code storeAvailable},
 * {@code breakerState}, {@code storeCalls}, {@code storeFailures}, {@code scriptReloads}) describe the
 * store, which the keys of a {@link KeyedRedisRateLimiter} share; the others are the limiter's own.
 *
 * @param limit the limit in force, permits per {@code periodNanos}
 * @param periodNanos the period in force
 * @param storeAvailable false while an outage is in force (the outage policy decides)
 * @param outagePolicy the policy that decides during an outage
 * @param breakerState the state of the circuit breaker around Redis
 * @param storeCalls decisions Redis answered
 * @param storeFailures calls to Redis that failed or timed out
 * @param outageDecisions decisions made by the outage policy
 * @param scriptReloads scripts sent again with {@code EVAL} after a {@code NOSCRIPT}
 * @param granted permits granted (all paths)
 * @param rejected requests refused (all paths)
 * @param leaseStock permits held locally in lease mode (0 when off)
 * @param leaseRefills batches taken from Redis in lease mode
 */
public record RedisRateLimiterMetrics(
        long limit,
        long periodNanos,
        boolean storeAvailable,
        OutagePolicy outagePolicy,
        CircuitState breakerState,
        long storeCalls,
        long storeFailures,
        long outageDecisions,
        long scriptReloads,
        long granted,
        long rejected,
        long leaseStock,
        long leaseRefills) {}

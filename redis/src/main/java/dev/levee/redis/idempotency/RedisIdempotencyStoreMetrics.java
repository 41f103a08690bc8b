package dev.levee.redis.idempotency;

import dev.levee.circuitbreaker.CircuitState;

/**
 * A snapshot of a {@link RedisIdempotencyStore} ({@link RedisIdempotencyStore#metrics()}).
 *
 * @param storeAvailable false during an outage (calls throw and the guard's outage policy applies)
 * @param breakerState the state of the circuit breaker around Redis
 * @param roundTrips script calls Redis answered (one per claim, complete or release; a reload after
 *     {@code NOSCRIPT} is one more, counted in {@code scriptReloads})
 * @param storeErrors calls that failed: timed out, refused by the open breaker, failed on the
 *     connection, or answered garbage
 * @param scriptReloads scripts sent again with {@code EVAL} after a {@code NOSCRIPT}
 * @param claimed claims that took the key (takeovers included)
 * @param takeovers claims that took over an in-progress record whose lease had lapsed
 * @param inProgress claims that found another request executing
 * @param completedFound claims that found a completed record (a replay or, with another fingerprint, a
 *     mismatch: the guard tells them apart)
 * @param completed responses stored
 * @param released claims released
 * @param lostClaims completes and releases refused because the claim was no longer the caller's
 */
public record RedisIdempotencyStoreMetrics(
        boolean storeAvailable,
        CircuitState breakerState,
        long roundTrips,
        long storeErrors,
        long scriptReloads,
        long claimed,
        long takeovers,
        long inProgress,
        long completedFound,
        long completed,
        long released,
        long lostClaims) {}

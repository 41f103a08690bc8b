package dev.levee.idempotency;

/**
 * A snapshot of an {@link IdempotencyGuard}'s counters since it was made.
 *
 * @param claims requests that claimed their key and ran
 * @param leaseTakeovers claims that took over a lapsed lease (an executor crashed or overran)
 * @param stored responses stored for replay
 * @param released keys given back after an exception or a non-final response
 * @param replays duplicates answered with a stored response
 * @param inProgress duplicates answered 409 (a request with the key was still running)
 * @param mismatches requests refused with 422 (the key was used with a different request)
 * @param badKeys requests refused with 400 (missing or malformed key)
 * @param storeUnavailable requests refused with 503 (store down, fail closed)
 * @param failedOpen requests run without a record (store down, fail open)
 * @param storeErrors store calls that failed ({@link IdempotencyStoreException})
 * @param storeAvailable whether the store answered the last call
 */
public record IdempotencyGuardMetrics(
        long claims,
        long leaseTakeovers,
        long stored,
        long released,
        long replays,
        long inProgress,
        long mismatches,
        long badKeys,
        long storeUnavailable,
        long failedOpen,
        long storeErrors,
        boolean storeAvailable) {}

package dev.levee.idempotency;

/**
 * What an {@link IdempotencyGuard} does with a keyed request while its {@link IdempotencyStore} cannot
 * answer (it threw {@link IdempotencyStoreException}). Chosen per guard
 * ({@link IdempotencyGuardConfig.Builder#outagePolicy}); the names and the WARN-once-per-switch rule are
 * those of the Redis rate limiter's outage policy.
 */
public enum OutagePolicy {
    /**
     * Execute the request without a record: no duplicate is recognised while the store is down, so a
     * retried write may run twice. For handlers that are naturally idempotent or cheap to repeat.
     */
    FAIL_OPEN,
    /**
     * Refuse the request with 503 and {@code Retry-After}: nothing executes that the store has not
     * recorded, so a write never runs twice. The default (seed 001: "choose deliberately"; a double
     * charge is worse than a retried 503).
     */
    FAIL_CLOSED
}

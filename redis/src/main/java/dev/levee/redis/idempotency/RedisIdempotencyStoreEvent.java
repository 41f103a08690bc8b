package dev.levee.redis.idempotency;

import dev.levee.core.PolicyEvent;

/**
 * A switch of a {@link RedisIdempotencyStore} between Redis answering and an outage: sealed, each case
 * a record named in the past tense, published to {@link RedisIdempotencyStore#onEvent} listeners. Built
 * only when a listener is registered; each is also a WARN log line (once per switch, never per call).
 * What the guard does during the outage is the guard's outage policy; its claims, replays and conflicts
 * are the guard's events.
 */
public sealed interface RedisIdempotencyStoreEvent extends PolicyEvent {

    /**
     * Redis became unavailable to this store (a call failed or timed out, or the breaker refused it):
     * calls throw {@link dev.levee.idempotency.IdempotencyStoreException} from now on.
     *
     * @param policyName the store's name
     * @param tickerNanos when, on the store breaker's ticker
     * @param cause what failed first
     */
    record OutageBegan(String policyName, long tickerNanos, String cause) implements RedisIdempotencyStoreEvent {}

    /**
     * Redis answered again.
     *
     * @param policyName the store's name
     * @param tickerNanos when, on the store breaker's ticker
     * @param outageNanos how long the outage lasted
     */
    record OutageEnded(String policyName, long tickerNanos, long outageNanos) implements RedisIdempotencyStoreEvent {}
}

/**
 * The shared idempotency store: {@link dev.levee.redis.idempotency.RedisIdempotencyStore}, an
 * {@link dev.levee.idempotency.IdempotencyStore} in Redis, so the idempotency guards of every instance
 * of a service see the same records. Start with
 * {@link dev.levee.redis.idempotency.RedisIdempotencyStore#of(String, RedisIdempotencyStoreConfig,
 * io.lettuce.core.api.StatefulRedisConnection)} on a {@code byte[]} connection and pass the store to the
 * guard of {@code levee-idempotency}. The user guide is the "Idempotency store" section of
 * {@code docs/redis.md} and the "Stores" section of {@code docs/idempotency.md}.
 */
@NullMarked
package dev.levee.redis.idempotency;

import org.jspecify.annotations.NullMarked;

/**
 * A {@link dev.levee.ratelimiter.RateLimiter} whose state lives in Redis, so every instance of a
 * service shares one limit: {@link dev.levee.redis.ratelimiter.RedisRateLimiter}.
 *
 * <p>Start with {@link dev.levee.redis.ratelimiter.RedisRateLimiter#of(String, RedisRateLimiterConfig,
 * io.lettuce.core.api.StatefulRedisConnection)} and a
 * {@link dev.levee.redis.ratelimiter.RedisRateLimiterConfig}; for one limit per tenant,
 * {@link dev.levee.redis.ratelimiter.KeyedRedisRateLimiter}. Each decision is one atomic Lua script on
 * the server, reading the server's clock; an outage of Redis is handled by the
 * {@link dev.levee.redis.ratelimiter.OutagePolicy} in the config. The user guide is the "Shared limits on
 * Redis" section of {@code docs/ratelimiter.md}.
 */
package dev.levee.redis.ratelimiter;

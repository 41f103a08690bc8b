/**
 * A {@link dev.levee.ratelimiter.RateLimiter} whose state lives in Redis, so every instance of a
 * service shares one limit: {@link dev.levee.ratelimiter.redis.RedisRateLimiter}.
 *
 * <p>Start with {@link dev.levee.ratelimiter.redis.RedisRateLimiter#of(String, RedisRateLimiterConfig,
 * io.lettuce.core.api.StatefulRedisConnection)} and a
 * {@link dev.levee.ratelimiter.redis.RedisRateLimiterConfig}; for one limit per tenant,
 * {@link dev.levee.ratelimiter.redis.KeyedRedisRateLimiter}. Each decision is one atomic Lua script on
 * the server, reading the server's clock; an outage of Redis is handled by the
 * {@link dev.levee.ratelimiter.redis.OutagePolicy} in the config. The user guide is the "Shared limits on
 * Redis" section of {@code docs/ratelimiter.md}.
 */
package dev.levee.ratelimiter.redis;

/**
 * What the Redis-backed parts share and users must not touch: the Lua scripts (resources beside these
 * classes), the script runner ({@code EVALSHA} with an {@code EVAL} fallback under one timeout), the
 * store exception and the rate limiter's lease pool. Not an API.
 */
package dev.levee.redis.internal;

/**
 * Implementation of the Redis rate limiter (scripts, the script runner, the lease pool); not an API.
 */
package dev.levee.redis.internal;

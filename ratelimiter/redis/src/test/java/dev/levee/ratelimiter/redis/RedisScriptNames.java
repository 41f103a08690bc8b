package dev.levee.ratelimiter.redis;

import dev.levee.ratelimiter.RateLimitAlgorithm;
import dev.levee.ratelimiter.redis.internal.RedisScript;

/** The key suffix of each algorithm, as the tests expect it in keys. */
final class RedisScriptNames {
    private RedisScriptNames() {}

    static String suffix(RateLimitAlgorithm algorithm) {
        return RedisScript.of(algorithm).keySuffix();
    }
}

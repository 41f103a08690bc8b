package dev.levee.redis.ratelimiter;

import dev.levee.ratelimiter.RateLimitAlgorithm;
import dev.levee.redis.internal.RedisScript;

/** The key suffix of each algorithm, as the tests expect it in keys. */
final class RedisScriptNames {
    private RedisScriptNames() {}

    static String suffix(RateLimitAlgorithm algorithm) {
        return RedisScript.of(algorithm).keySuffix();
    }
}

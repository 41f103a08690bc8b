package dev.levee.ratelimiter.internal;

import dev.levee.core.internal.Validate;
import dev.levee.ratelimiter.RateLimiter;
import dev.levee.ratelimiter.RateLimiterConfig;

/** Creates the limiter class for a config's algorithm. */
public final class Limiters {
    private Limiters() {}

    /**
     * Creates a limiter with its own context.
     *
     * @param name the limiter's name
     * @param config the config
     * @return the limiter
     */
    public static RateLimiter create(String name, RateLimiterConfig config) {
        Validate.name("RateLimiter", name);
        Validate.notNull(Validate.describe("RateLimiter", name), "config", config);
        return create(new LimiterContext(name, config.ticker(), config.sleeper()), config);
    }

    /**
     * Creates a limiter sharing {@code ctx} (a keyed limiter's per-key limiters share one).
     *
     * @param ctx the context
     * @param config the config
     * @return the limiter
     */
    public static AbstractRateLimiter create(LimiterContext ctx, RateLimiterConfig config) {
        switch (config.algorithm()) {
            case GCRA:
                return new GcraLimiter(ctx, config);
            case LEAKY_BUCKET:
                return new LeakyBucketLimiter(ctx, config);
            case TOKEN_BUCKET:
                return new TokenBucketLimiter(ctx, config);
            case FIXED_WINDOW:
                return new FixedWindowLimiter(ctx, config);
            case SLIDING_WINDOW_COUNTER:
                return config.buckets() == 1 ? new SlidingWindowCounterLimiter(ctx, config)
                        : new SubWindowCounterLimiter(ctx, config);
            case SLIDING_LOG:
                return new SlidingLogLimiter(ctx, config);
            default:
                throw new IllegalArgumentException("unknown algorithm " + config.algorithm());
        }
    }
}

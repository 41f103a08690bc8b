package dev.levee.jcstress;

import dev.levee.core.ManualTicker;
import dev.levee.ratelimiter.RateLimitAlgorithm;
import dev.levee.ratelimiter.RateLimiter;
import dev.levee.ratelimiter.RateLimiterConfig;
import java.time.Duration;

/** Builds the rate limiters under test: {@code limit} permits per {@link #PERIOD}, on a manual ticker at 0. */
final class Limiters {
    /** The period of every limiter under test. */
    static final Duration PERIOD = Duration.ofSeconds(1);
    /** {@link #PERIOD} in nanoseconds. */
    static final long PERIOD_NANOS = PERIOD.toNanos();

    private Limiters() {}

    static RateLimiter of(RateLimitAlgorithm algorithm, long limit) {
        return RateLimiter.of("jcstress", RateLimiterConfig.builder()
                .algorithm(algorithm)
                .rate(limit, PERIOD)
                .ticker(new ManualTicker(0L))
                .build());
    }

    /** Grants taken by two tries at {@code now}: 0, 1 or 2. */
    static int twoTries(RateLimiter limiter, long now) {
        int granted = 0;
        if (limiter.tryAcquire(1, now)) {
            granted++;
        }
        if (limiter.tryAcquire(1, now)) {
            granted++;
        }
        return granted;
    }
}

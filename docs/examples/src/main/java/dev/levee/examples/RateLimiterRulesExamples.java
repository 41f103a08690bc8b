package dev.levee.examples;

import dev.levee.core.Ticker;
import dev.levee.ratelimiter.AdaptiveLaw;
import dev.levee.ratelimiter.AdaptiveRateLimiter;
import dev.levee.ratelimiter.AdaptiveRateLimiterConfig;
import dev.levee.ratelimiter.KeyedRateLimiter;
import dev.levee.ratelimiter.RateLimitAlgorithm;
import dev.levee.ratelimiter.RateLimiter;
import dev.levee.ratelimiter.RateLimiterConfig;
import java.time.Duration;

/**
 * The examples of {@code docs/ratelimiter.md}'s sub-window counter, seed-002 law and keyed-at-scale sections,
 * compiled by the build and run by {@code RateLimiterRulesExamplesTest}.
 */
public final class RateLimiterRulesExamples {
    private RateLimiterRulesExamples() {}

    /**
     * 1,000 calls per hour counted in one-minute buckets: the estimate is off by at most one minute's
     * permits, and any 59 minutes hold at most 1,000.
     *
     * @return the limiter
     */
    public static RateLimiter hourlyQuotaInMinuteBuckets() {
        return RateLimiter.of("api", RateLimiterConfig.builder()
                .algorithm(RateLimitAlgorithm.SLIDING_WINDOW_COUNTER).rate(1_000, Duration.ofHours(1))
                .buckets(60) // one-minute buckets
                .build());
    }

    /**
     * Seed 002's RTT-ratio rule instead of the default interval AIMD.
     *
     * @return the limiter
     */
    public static AdaptiveRateLimiter seedRttRule() {
        return AdaptiveRateLimiter.of("search", AdaptiveRateLimiterConfig.builder()
                .law(AdaptiveLaw.RTT_RATIO).minRate(10).maxRate(1_000).initialRate(100).build());
    }

    /**
     * A limit per tenant for up to a million tenants, on the coarse ticker: at that many keys the
     * system clock's read is most of a decision, and per-key rates of up to about 1,000 per second
     * need no finer clock.
     *
     * @return the keyed limiter
     */
    public static KeyedRateLimiter<String> perTenantOnTheCoarseTicker() {
        KeyedRateLimiter<String> perTenant = KeyedRateLimiter.<String>builder("per-tenant")
                .defaultConfig(RateLimiterConfig.builder().rate(100, Duration.ofSeconds(1)).burst(20)
                        .ticker(Ticker.coarse()).build())
                .maxEntries(1_000_000)
                .build();
        return perTenant;
    }
}

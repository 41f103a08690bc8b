/**
 * Rate limiters: at most a limit of permits per period, decided lock-free and allocation-free.
 *
 * <p>Start with {@link dev.levee.ratelimiter.RateLimiter#of(String, RateLimiterConfig)} and a
 * {@link dev.levee.ratelimiter.RateLimiterConfig}; the algorithm (GCRA by default, token bucket,
 * sliding-window counter, fixed window, sliding log, leaky bucket) is a config field, each documented
 * with its state, formula and bound in {@link dev.levee.ratelimiter.RateLimitAlgorithm}. For one limit
 * per tenant or API key use {@link dev.levee.ratelimiter.KeyedRateLimiter}; for a rate that follows
 * the downstream's latency, {@link dev.levee.ratelimiter.AdaptiveRateLimiter}. A refusal is the core
 * {@link dev.levee.core.RateLimitedException} with {@code retryAfter};
 * {@link dev.levee.ratelimiter.RateLimitHeaders} renders a decision as {@code Retry-After} and the IETF
 * {@code RateLimit} fields; {@link dev.levee.ratelimiter.RateLimiterMetricsBinder} binds Micrometer, and
 * {@code limiter.metrics()} gives a {@link dev.levee.ratelimiter.RateLimiterMetrics} snapshot.
 * The user guide is {@code docs/ratelimiter.md}.
 */
package dev.levee.ratelimiter;

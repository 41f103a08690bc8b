/**
 * Rate limiters: GCRA, token bucket, sliding-window counter, fixed window, sliding log, leaky bucket; per-key and adaptive limits. Filled by the rate limiter issue.
 */
package dev.levee.ratelimiter;

package dev.levee.http;

/**
 * One item of the IETF {@code RateLimit-Policy} field: a quota and its window
 * (draft-ietf-httpapi-ratelimit-headers), e.g. {@code "default";q=100;w=60} — 100 units per 60
 * seconds. Read by {@link RateLimitFields#parsePolicy(CharSequence)}.
 *
 * @param policy the quota policy's name (an empty string when the server gave none)
 * @param quota the units allowed per window, at least 0
 * @param windowSeconds the window in seconds, or {@code -1} when the server did not say
 */
public record RateLimitQuota(String policy, long quota, long windowSeconds) {}

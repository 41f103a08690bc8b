package dev.levee.http;

/**
 * One item of the IETF {@code RateLimit} field: how much of a quota is left and when it resets
 * (draft-ietf-httpapi-ratelimit-headers), e.g. {@code "default";r=0;t=2} — policy {@code default},
 * nothing remaining, reset in two seconds. Read by {@link RateLimitFields#parseRateLimit(CharSequence)}.
 *
 * @param policy the quota policy's name (an empty string when the server gave none)
 * @param remaining the quota units left, at least 0
 * @param resetSeconds seconds until the quota resets, or {@code -1} when the server did not say
 */
public record RateLimitStatus(String policy, long remaining, long resetSeconds) {

    /**
     * Whether the quota is used up: a request now is expected to be refused.
     *
     * @return true when nothing remains
     */
    public boolean exhausted() {
        return remaining == 0;
    }
}

package dev.levee.ratelimiter;

import java.util.function.BiConsumer;

/**
 * Renders a {@link RateLimitDecision} as HTTP response header values, for a 429 response or for
 * advertising the limit on every response.
 *
 * <ul>
 *   <li>{@code Retry-After} (RFC 9110): whole seconds until the refused permits could be granted,
 *       rounded up so a client that honours it is not refused again for being early.</li>
 *   <li>{@code RateLimit-Policy} and {@code RateLimit}, the IETF HTTPAPI working group's fields
 *       (draft-ietf-httpapi-ratelimit-headers, structured-field syntax): the policy as
 *       {@code "name";q=<quota>;w=<window seconds>} and the live state as
 *       {@code "name";r=<remaining>;t=<seconds until reset>}.</li>
 * </ul>
 * Policy names are rendered as structured-field strings (quotes and backslashes escaped; characters
 * outside printable ASCII replaced by {@code ?}). Stateless; no allocation beyond the strings returned.
 */
public final class RateLimitHeaders {
    /** {@code Retry-After}. */
    public static final String RETRY_AFTER = "Retry-After";
    /** {@code RateLimit}. */
    public static final String RATE_LIMIT = "RateLimit";
    /** {@code RateLimit-Policy}. */
    public static final String RATE_LIMIT_POLICY = "RateLimit-Policy";
    /** {@code X-RateLimit-Limit}: the quota per period (the de-facto header family, seed 001). */
    public static final String X_RATE_LIMIT_LIMIT = "X-RateLimit-Limit";
    /** {@code X-RateLimit-Remaining}: permits left now. */
    public static final String X_RATE_LIMIT_REMAINING = "X-RateLimit-Remaining";
    /** {@code X-RateLimit-Reset}: seconds until the limiter is fully replenished (a delta, not an epoch). */
    public static final String X_RATE_LIMIT_RESET = "X-RateLimit-Reset";

    /** Which header family {@link #write(RateLimiter, RateLimitDecision, BiConsumer, Style)} writes. */
    public enum Style {
        /** The IETF fields {@code RateLimit-Policy} and {@code RateLimit} (the default). */
        IETF,
        /** {@code X-RateLimit-Limit}, {@code X-RateLimit-Remaining}, {@code X-RateLimit-Reset}. */
        X_RATE_LIMIT,
        /** Both families, for clients of either. */
        BOTH
    }

    /** A retry hint never advertised beyond a day: "never" is not a useful header value. */
    private static final long MAX_SECONDS = 86_400L;

    private RateLimitHeaders() {}

    /**
     * The {@code Retry-After} value: seconds, rounded up, at most one day.
     *
     * @param decision a decision
     * @return e.g. {@code "2"}; {@code "0"} when granted
     */
    public static String retryAfter(RateLimitDecision decision) {
        return Long.toString(Math.min(MAX_SECONDS, decision.retryAfterSeconds()));
    }

    /**
     * The {@code RateLimit} value: {@code "name";r=<remaining>;t=<reset seconds>}.
     *
     * @param policyName the policy's name
     * @param decision a decision
     * @return the field value
     */
    public static String rateLimit(String policyName, RateLimitDecision decision) {
        return quote(policyName) + ";r=" + decision.remaining() + ";t="
                + Math.min(MAX_SECONDS, decision.resetAfterSeconds());
    }

    /**
     * The {@code RateLimit-Policy} value: {@code "name";q=<quota>;w=<window seconds>}.
     *
     * @param policyName the policy's name
     * @param quota permits per window
     * @param windowSeconds the window in seconds, at least 1
     * @return the field value
     */
    public static String rateLimitPolicy(String policyName, long quota, long windowSeconds) {
        return quote(policyName) + ";q=" + quota + ";w=" + Math.max(1L, windowSeconds);
    }

    /**
     * The {@code RateLimit-Policy} value of a limiter: its name, its limit and its period rounded up
     * to whole seconds.
     *
     * @param limiter the limiter
     * @return the field value
     */
    public static String rateLimitPolicy(RateLimiter limiter) {
        return rateLimitPolicy(limiter.name(), limiter.limit(), RateLimitDecision.ceilSeconds(limiter.periodNanos()));
    }

    /**
     * Writes {@code RateLimit-Policy} and {@code RateLimit}, and {@code Retry-After} if the decision
     * refused, through {@code header} (e.g. {@code response::setHeader}).
     *
     * @param limiter the limiter that decided
     * @param decision its decision
     * @param header receives (name, value) pairs
     */
    public static void write(RateLimiter limiter, RateLimitDecision decision, BiConsumer<String, String> header) {
        write(limiter, decision, header, Style.IETF);
    }

    /**
     * Writes the header family {@code style} names — the IETF fields, the {@code X-RateLimit-*} trio
     * ({@code Limit} = the limit per period, {@code Remaining} = permits left, {@code Reset} = seconds
     * until fully replenished, rounded up and capped at a day), or both — and {@code Retry-After} if
     * the decision refused.
     *
     * @param limiter the limiter that decided
     * @param decision its decision (or a {@link RateLimiter#peek} of it)
     * @param header receives (name, value) pairs
     * @param style which header family
     */
    public static void write(RateLimiter limiter, RateLimitDecision decision, BiConsumer<String, String> header,
            Style style) {
        if (style != Style.X_RATE_LIMIT) {
            header.accept(RATE_LIMIT_POLICY, rateLimitPolicy(limiter));
            header.accept(RATE_LIMIT, rateLimit(limiter.name(), decision));
        }
        if (style != Style.IETF) {
            header.accept(X_RATE_LIMIT_LIMIT, Long.toString(limiter.limit()));
            header.accept(X_RATE_LIMIT_REMAINING, Long.toString(decision.remaining()));
            header.accept(X_RATE_LIMIT_RESET, Long.toString(Math.min(MAX_SECONDS, decision.resetAfterSeconds())));
        }
        if (!decision.allowed()) {
            header.accept(RETRY_AFTER, retryAfter(decision));
        }
    }

    private static String quote(String name) {
        StringBuilder sb = new StringBuilder(name.length() + 2).append('"');
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c < 0x20 || c > 0x7e) {
                sb.append('?');
            } else {
                sb.append(c);
            }
        }
        return sb.append('"').toString();
    }
}

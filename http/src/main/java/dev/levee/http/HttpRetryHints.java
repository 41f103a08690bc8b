package dev.levee.http;

import dev.levee.core.internal.Validate;
import java.net.http.HttpHeaders;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * The wait an HTTP response asks a client for, read from its {@code Retry-After} field or, when it
 * has none, from an exhausted quota in its {@code RateLimit} field — in the shape of a retry's
 * {@code RetryAfterExtractor}, so honouring a server's 429 and 503 hints is one line:
 *
 * <pre>{@code
 * RetryConfig.builder()
 *         .retryOnResult(HttpStatuses.TRANSIENT_RESPONSE)
 *         .retryAfterExtractor(HttpRetryHints.defaults()::retryAfter)
 *         .build();
 * }</pre>
 *
 * <p><b>Model.</b> For a response:
 * <ol>
 *   <li>a well-formed {@code Retry-After} wins (see {@link RetryAfter} for the forms read and the
 *       values ignored);</li>
 *   <li>otherwise the longest {@code t} among the {@code RateLimit} items with {@code r=0} (see
 *       {@link RateLimitFields});</li>
 *   <li>otherwise no hint, and the retry uses its own backoff.</li>
 * </ol>
 * Every hint is capped at {@code max} (default {@link RetryAfter#DEFAULT_MAX}). A retry waits at
 * least the hint before the next attempt and gives up at once when the hint is longer than its
 * {@code maxRetryAfter} or ends past the deadline.
 *
 * <p><b>Knobs.</b>
 * <table class="striped">
 *   <caption>Settings</caption>
 *   <tr><th>setting</th><th>default</th></tr>
 *   <tr><td>{@code clock}: the wall clock an HTTP-date is measured against</td><td>{@code Clock.systemUTC()}</td></tr>
 *   <tr><td>{@code max}: the longest hint returned</td><td>{@link RetryAfter#DEFAULT_MAX} (one day)</td></tr>
 * </table>
 *
 * <p><b>Cost.</b> Read only on failed attempts. A delta-seconds {@code Retry-After} allocates only the
 * returned {@code Duration}; a date or a {@code RateLimit} field allocates its parse.
 */
public final class HttpRetryHints {
    private static final String POLICY = "HttpRetryHints";
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final HttpRetryHints DEFAULTS = new HttpRetryHints(Clock.systemUTC(), RetryAfter.DEFAULT_MAX);

    private final Clock clock;
    private final long maxNanos;

    private HttpRetryHints(Clock clock, Duration max) {
        this.clock = Validate.notNull(POLICY, "clock", clock);
        Validate.positive(POLICY, "max", max);
        this.maxNanos = max.compareTo(Duration.ofNanos(Long.MAX_VALUE)) >= 0 ? Long.MAX_VALUE : max.toNanos();
    }

    /**
     * Hints measured against {@code Clock.systemUTC()}, capped at {@link RetryAfter#DEFAULT_MAX}.
     *
     * @return the shared default instance
     */
    public static HttpRetryHints defaults() {
        return DEFAULTS;
    }

    /**
     * Hints measured against {@code clock}, capped at {@code max}.
     *
     * @param clock the wall clock an HTTP-date is measured against
     * @param max the longest hint returned, positive
     * @return the hints reader
     * @throws dev.levee.core.InvalidConfigException if {@code clock} or {@code max} is null or
     *     {@code max} is not positive
     */
    public static HttpRetryHints of(Clock clock, Duration max) {
        return new HttpRetryHints(clock, max);
    }

    /**
     * The wait the headers ask for, in nanoseconds.
     *
     * @param headers a response's headers
     * @return the wait ({@code 0 <= wait <= max}), or {@code -1} when there is no hint
     */
    public long retryAfterNanos(HttpHeaders headers) {
        String retryAfter = headers.firstValue(RetryAfter.FIELD).orElse(null);
        long nanos = RetryAfter.parseNanos(retryAfter, clock, maxNanos);
        if (nanos >= 0) {
            return nanos;
        }
        String rateLimit = headers.firstValue(RateLimitFields.RATE_LIMIT).orElse(null);
        if (rateLimit == null) {
            return -1;
        }
        long seconds = RateLimitFields.retryAfterSeconds(RateLimitFields.parseRateLimit(rateLimit));
        if (seconds < 0) {
            return -1;
        }
        return seconds >= maxNanos / NANOS_PER_SECOND ? maxNanos : seconds * NANOS_PER_SECOND;
    }

    /**
     * The wait a response asks for.
     *
     * @param response the response
     * @return the wait, or null when there is no hint
     */
    public @Nullable Duration retryAfter(HttpResponse<?> response) {
        long nanos = retryAfterNanos(response.headers());
        return nanos < 0 ? null : Duration.ofNanos(nanos);
    }

    /**
     * The wait a failed attempt asks for, with the signature of retry's {@code RetryAfterExtractor}:
     * the hint of an {@link HttpResponse} result; no hint for a thrown exception or another result
     * (a Levee rejection's own {@code retryAfter} is read by the retry itself).
     *
     * @param failure what the attempt threw, or null
     * @param result what the attempt returned, or null
     * @return the wait, or null when there is none
     */
    public @Nullable Duration retryAfter(@Nullable Throwable failure, @Nullable Object result) {
        return result instanceof HttpResponse<?> response ? retryAfter(response) : null;
    }

    /**
     * The wall clock dates are measured against.
     *
     * @return the clock
     */
    public Clock clock() {
        return clock;
    }

    /**
     * The longest hint returned.
     *
     * @return the cap
     */
    public Duration max() {
        return Duration.ofNanos(maxNanos);
    }

    @Override
    public String toString() {
        return "HttpRetryHints[clock=" + clock + ", max=" + max() + "]";
    }
}

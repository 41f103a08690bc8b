/**
 * Levee on the HTTP client path ({@code java.net.http}): read a server's hints and classify its
 * answers, so a client's retry, breaker and limiter react to HTTP the way they react to Levee's own
 * rejections.
 *
 * <ul>
 *   <li>{@link dev.levee.http.RetryAfter}: the {@code Retry-After} field (delta-seconds or HTTP-date),
 *       hostile values ignored, long ones capped;</li>
 *   <li>{@link dev.levee.http.RateLimitFields}: the IETF {@code RateLimit} and
 *       {@code RateLimit-Policy} fields;</li>
 *   <li>{@link dev.levee.http.HttpStatuses}: transient (408, 425, 429, 500, 502, 503, 504) versus
 *       permanent statuses, as predicates for a retry's results and a breaker's classifier;</li>
 *   <li>{@link dev.levee.http.HttpRetryHints}: the wait a response asks for, with the signature of a
 *       retry's {@code retryAfterExtractor};</li>
 *   <li>{@link dev.levee.http.HttpMethods}: which requests may be repeated (RFC 9110 §9.2.2: GET, HEAD,
 *       OPTIONS, TRACE, PUT, DELETE; POST and PATCH only with an idempotency key);</li>
 *   <li>{@link dev.levee.http.IdempotencyKeyHeader}: the current idempotency key as the
 *       {@code Idempotency-Key} field, and the {@code Idempotent-Replayed} answer.</li>
 * </ul>
 * A call to {@code HttpClient.send}, which throws {@code IOException} and
 * {@code InterruptedException}, runs through any policy in one line with core's
 * {@link dev.levee.core.Policy#throwing(Class, Class)}. Depends on {@code levee-core} and the JDK only.
 */
package dev.levee.http;

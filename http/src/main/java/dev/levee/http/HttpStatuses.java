package dev.levee.http;

import dev.levee.core.Classifier;
import dev.levee.core.DeadlineExceededException;
import dev.levee.core.RejectedException;
import java.net.http.HttpResponse;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * Which HTTP statuses are worth another attempt, as plain functions and as the predicates a retry
 * and a circuit breaker take.
 *
 * <p><b>Model.</b> A status is
 * <ul>
 *   <li><em>transient</em> ({@link #isTransient(int)}): 408 Request Timeout, 425 Too Early, 429 Too
 *       Many Requests, 500 Internal Server Error, 502 Bad Gateway, 503 Service Unavailable and 504
 *       Gateway Timeout — the same request may succeed later, often after the wait the server names
 *       in {@code Retry-After} (see {@link HttpRetryHints});</li>
 *   <li><em>permanent</em> ({@link #isPermanent(int)}): every other 4xx and 5xx (400, 401, 403, 404,
 *       409, 422, 501, …) — sending the same request again fails the same way;</li>
 *   <li>neither: 1xx, 2xx and 3xx.</li>
 * </ul>
 * The transient set is the one retry's {@code TransientFailure.isTransientStatus} uses, so a retry
 * configured either way agrees.
 *
 * <p><b>Use.</b>
 * <pre>{@code
 * RetryConfig.builder().retryOnResult(HttpStatuses.TRANSIENT_RESPONSE)     // retry 429/503 answers
 * CircuitBreakerConfig.builder().classifier(HttpStatuses.breakerClassifier()) // count them as failures
 * }</pre>
 *
 * <p><b>Cost.</b> A {@code switch} on an {@code int}; the predicates allocate nothing.
 */
public final class HttpStatuses {
    /**
     * True for an {@link HttpResponse} with a {@linkplain #isTransient(int) transient} status; false
     * for anything else (another status, another type, null). A retry's result predicate.
     */
    public static final Predicate<Object> TRANSIENT_RESPONSE = HttpStatuses::isTransientResponse;

    /**
     * True for an {@link HttpResponse} with a {@linkplain #isPermanent(int) permanent} status (a
     * result a retry should stop at: {@code abortOnResult}).
     */
    public static final Predicate<Object> PERMANENT_RESPONSE = HttpStatuses::isPermanentResponse;

    private HttpStatuses() {}

    /**
     * Whether another attempt of the same request may succeed: 408, 425, 429, 500, 502, 503, 504.
     *
     * @param status the status code
     * @return true for the transient statuses
     */
    public static boolean isTransient(int status) {
        return switch (status) {
            case 408, 425, 429, 500, 502, 503, 504 -> true;
            default -> false;
        };
    }

    /**
     * Whether the status is an error that another attempt cannot fix: a 4xx or 5xx that is not
     * {@linkplain #isTransient(int) transient}.
     *
     * @param status the status code
     * @return true for the permanent error statuses
     */
    public static boolean isPermanent(int status) {
        return status >= 400 && status <= 599 && !isTransient(status);
    }

    /**
     * Whether {@code result} is an {@link HttpResponse} with a transient status.
     *
     * @param result a call's result, may be null
     * @return true for a transient response
     */
    public static boolean isTransientResponse(@Nullable Object result) {
        return result instanceof HttpResponse<?> response && isTransient(response.statusCode());
    }

    /**
     * Whether {@code result} is an {@link HttpResponse} with a permanent error status.
     *
     * @param result a call's result, may be null
     * @return true for a permanent error response
     */
    public static boolean isPermanentResponse(@Nullable Object result) {
        return result instanceof HttpResponse<?> response && isPermanent(response.statusCode());
    }

    /**
     * A classifier for a circuit breaker: the breaker's default rules (a {@link DeadlineExceededException}
     * is a failure, any other {@link RejectedException} — a local limiter or bulkhead refused, the
     * downstream was never asked — is ignored, an {@link Error} is ignored, every other exception is a
     * failure) plus: a response with a transient status counts as a failure, since the downstream is
     * overloaded or broken. A permanent status (a 404, a 422) is the caller's problem, not the
     * downstream's health, so it counts as a success. Equivalent to
     * {@code CircuitBreakerConfig.defaultClassifier().toBuilder().failOnResult(TRANSIENT_RESPONSE)}.
     *
     * @return the classifier
     */
    public static Classifier breakerClassifier() {
        return Classifier.builder()
                .failOn(DeadlineExceededException.class)
                .ignore(RejectedException.class)
                .failOnResult(TRANSIENT_RESPONSE)
                .build();
    }
}

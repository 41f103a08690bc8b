package dev.levee.retry;

import dev.levee.core.DeadlineExceededException;
import dev.levee.core.RejectedException;
import java.io.UncheckedIOException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link Retry} retries by default: failures that a later attempt can get past without
 * anything else changing (seeds 000 and 003: "retry only on transient errors — timeouts, 503,
 * connection reset; never 400, 401, 404 or 422").
 *
 * <p><b>Transient failures</b> ({@link #isTransient(Throwable)}):
 * <ul>
 *   <li>timeouts: {@link TimeoutException}, {@link SocketTimeoutException},
 *       {@code java.net.http.HttpTimeoutException} (matched by name, so this module does not need
 *       {@code java.net.http}), and Levee's {@link DeadlineExceededException} (a timeout policy
 *       inside the retry);</li>
 *   <li>connection errors: {@link SocketException} and its subclasses ({@code ConnectException},
 *       {@code NoRouteToHostException}, "connection reset", "broken pipe");</li>
 *   <li>Levee rejections that carry a {@code retryAfter} hint (a rate limiter's next permit, an open
 *       breaker's wait), which the retry waits for; a rejection without a hint (a full bulkhead with no
 *       idea when it frees) is not retried;</li>
 *   <li>any exception implementing {@link Retryable}, such as {@link RetryableException};</li>
 *   <li>an {@link UncheckedIOException}, {@link CompletionException} or {@link ExecutionException}
 *       whose cause is transient (up to 8 levels).</li>
 * </ul>
 * Everything else — a plain {@code IOException} (a missing file is one), an
 * {@code IllegalArgumentException}, a 4xx turned into an exception — is not retried. An
 * {@code UnknownHostException} is not retried either: more often a wrong name than a resolver hiccup.
 *
 * <p><b>Transient statuses</b> ({@link #isTransientStatus(int)}), for results classified with
 * {@link RetryConfig.Builder#retryOnStatus}: 408, 425, 429, 500, 502, 503 and 504. Never 400, 401, 403,
 * 404, 409 or 422: they fail the same way every time.
 *
 * <p>{@link RetryConfig.Builder#retryAll()} retries every failure the classifier counts instead.
 */
public final class TransientFailure {
    /** The default rule as a predicate: {@link #isTransient(Throwable)}. */
    public static final Predicate<Throwable> PREDICATE = TransientFailure::isTransient;

    private static final int MAX_CAUSES = 8;
    private static final String HTTP_TIMEOUT = "java.net.http.HttpTimeoutException";

    private TransientFailure() {}

    /**
     * Whether a failure is transient, by the rules in the class documentation.
     *
     * @param failure the failure, may be null (then false)
     * @return true if a later attempt may succeed
     */
    public static boolean isTransient(@Nullable Throwable failure) {
        Throwable t = failure;
        for (int depth = 0; t != null && depth < MAX_CAUSES; depth++) {
            if (t instanceof Retryable || t instanceof TimeoutException || t instanceof SocketTimeoutException
                    || t instanceof SocketException || t instanceof DeadlineExceededException
                    || (t instanceof java.io.IOException && isHttpTimeout(t))) {
                return true;
            }
            if (t instanceof RejectedException rejected) {
                return rejected.retryAfterNanos() > 0;
            }
            if (!(t instanceof UncheckedIOException || t instanceof CompletionException || t instanceof ExecutionException)) {
                return false;
            }
            t = t.getCause();
        }
        return false;
    }

    /**
     * Whether an HTTP-style status code is worth retrying: 408 (request timeout), 425 (too early),
     * 429 (too many requests), 500, 502, 503 and 504.
     *
     * @param status the status code
     * @return true for the transient statuses
     */
    public static boolean isTransientStatus(int status) {
        return switch (status) {
            case 408, 425, 429, 500, 502, 503, 504 -> true;
            default -> false;
        };
    }

    private static boolean isHttpTimeout(Throwable t) {
        for (Class<?> c = t.getClass(); c != null && c != Throwable.class; c = c.getSuperclass()) {
            if (c.getName().equals(HTTP_TIMEOUT)) {
                return true;
            }
        }
        return false;
    }
}

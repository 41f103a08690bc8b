package dev.levee.retry;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * Reads a "retry no sooner than" hint from a failed attempt: an HTTP {@code Retry-After} header on a
 * 429/503 response, a server's back-off field. {@link Retry} waits at least that long before the next
 * attempt, and gives up at once if the hint exceeds {@link RetryConfig#maxRetryAfter()} or ends past
 * the deadline.
 *
 * <p>Levee's own rejections ({@link dev.levee.core.RejectedException#retryAfterNanos()}) are read
 * without an extractor.
 *
 * <pre>{@code
 * RetryAfterExtractor httpRetryAfter = (failure, result) ->
 *         result instanceof HttpResponse<?> response
 *                 ? response.headers().firstValueAsLong("Retry-After").stream()
 *                         .mapToObj(Duration::ofSeconds).findFirst().orElse(null)
 *                 : null;
 * }</pre>
 */
@FunctionalInterface
public interface RetryAfterExtractor {

    /**
     * The hint carried by a failed attempt.
     *
     * @param failure what the attempt threw, or null if it returned a result classified as failure
     * @param result what the attempt returned, or null if it threw
     * @return the hint, or null when there is none
     */
    @Nullable Duration retryAfter(@Nullable Throwable failure, @Nullable Object result);
}

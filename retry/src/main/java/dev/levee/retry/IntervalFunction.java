package dev.levee.retry;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * A custom delay before a retry, when a {@link Backoff} and {@link Jitter} do not fit: it sees the
 * retry number and the outcome that made the retry necessary. Called only on the retry path.
 *
 * <pre>{@code
 * IntervalFunction slowOnTimeouts = (retry, failure, result) ->
 *         failure instanceof java.net.SocketTimeoutException ? Duration.ofSeconds(1) : Duration.ofMillis(50L * retry);
 * }</pre>
 * A {@code retryAfter} hint still raises the delay to at least the hint.
 */
@FunctionalInterface
public interface IntervalFunction {

    /**
     * The delay before retry {@code retry}.
     *
     * @param retry the retry number, 1 for the first retry
     * @param failure what the last attempt threw, or null if it returned a result classified as failure
     * @param result what the last attempt returned, or null if it threw
     * @return the delay, not null; a negative delay means "no opinion": the config's backoff and
     *         jitter decide (never a silent zero)
     */
    Duration delay(int retry, @Nullable Throwable failure, @Nullable Object result);
}

package dev.levee.retry;

/** Why a {@link Retry} stopped retrying and returned the last outcome. */
public enum GiveUpReason {
    /** {@code maxAttempts} attempts were made. */
    MAX_ATTEMPTS,
    /** The next backoff would end past {@code maxDuration} from the first attempt. */
    MAX_DURATION,
    /** The next backoff would end past the current {@link dev.levee.core.Deadline}. */
    DEADLINE,
    /** The failure's {@code retryAfter} hint was longer than {@code maxRetryAfter}. */
    RETRY_AFTER_TOO_LONG,
    /** The {@link RetryBudget} refused the retry. */
    BUDGET,
    /** An abort predicate matched: the failure will not go away by retrying. */
    ABORTED,
    /**
     * The classifier did not count the failure as retryable (an ignored exception, an {@link Error}, an
     * interrupt), or a retry callback threw while deciding.
     */
    NOT_RETRYABLE,
    /** The thread was interrupted during a backoff; the interrupt flag is restored. */
    INTERRUPTED,
    /** The asynchronous call's stage was cancelled. */
    CANCELLED,
    /**
     * The call is declared {@link Idempotency#KEYED} but carried no idempotency key (none was current and
     * the generator made none): repeating it could execute the write twice, so the retry was refused and
     * the first outcome returned, a {@link MissingIdempotencyKeyException} added to the failure as
     * suppressed.
     */
    NO_IDEMPOTENCY_KEY
}

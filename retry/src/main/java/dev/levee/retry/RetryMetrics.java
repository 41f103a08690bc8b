package dev.levee.retry;

/**
 * An immutable snapshot of a {@link Retry}'s counters since it was created, from {@link Retry#metrics()}.
 *
 * @param successfulWithoutRetry calls that succeeded at the first attempt
 * @param successfulWithRetry calls that succeeded after at least one retry
 * @param failedWithoutRetry calls that failed without a retry (not retryable, aborted, or refused at once)
 * @param failedWithRetry calls that failed after at least one retry
 * @param retries retries made (each one a further attempt)
 * @param rejected retries the budget refused (the {@code levee.retry.rejected} counter, {@code kind}
 *        {@value RetryBudget#REJECTED_KIND})
 * @param rejectedWithoutKey retries refused because a call declared {@link Idempotency#KEYED} carried no
 *        idempotency key ({@code levee.retry.rejected}, {@code kind}
 *        {@value MissingIdempotencyKeyException#REJECTED_KIND})
 */
public record RetryMetrics(long successfulWithoutRetry, long successfulWithRetry, long failedWithoutRetry,
                           long failedWithRetry, long retries, long rejected, long rejectedWithoutKey) {

    /** @return every call counted */
    public long calls() {
        return successfulWithoutRetry + successfulWithRetry + failedWithoutRetry + failedWithRetry;
    }
}

package dev.levee.retry;

/**
 * Counters of a {@link Retry} since it was created; a snapshot, see {@link Retry#metrics()}.
 *
 * @param successfulWithoutRetry calls that succeeded at the first attempt
 * @param successfulWithRetry calls that succeeded after at least one retry
 * @param failedWithoutRetry calls that failed without a retry (not retryable, aborted, or refused at once)
 * @param failedWithRetry calls that failed after at least one retry
 * @param retries retries made (each one a further attempt)
 * @param budgetRefusals retries the budget refused
 */
public record RetryMetrics(long successfulWithoutRetry, long successfulWithRetry, long failedWithoutRetry,
                           long failedWithRetry, long retries, long budgetRefusals) {

    /** @return every call counted */
    public long calls() {
        return successfulWithoutRetry + successfulWithRetry + failedWithoutRetry + failedWithRetry;
    }
}

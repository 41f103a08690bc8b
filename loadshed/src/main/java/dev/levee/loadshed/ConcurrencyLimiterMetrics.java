package dev.levee.loadshed;

/**
 * A snapshot of a {@link ConcurrencyLimiter}'s state and counters, from {@link ConcurrencyLimiter#metrics()}.
 * The fields are read one by one, not atomically together.
 *
 * @param limit the limit in force
 * @param inflight requests admitted and not yet completed
 * @param waiting threads waiting for a slot
 * @param rejected requests refused since creation
 * @param drops completions counted as drops (overload signals) since creation
 * @param samples completions fed to the algorithm since creation (merged samples count once)
 */
public record ConcurrencyLimiterMetrics(int limit, int inflight, int waiting, long rejected, long drops, long samples) {

    /** @return {@code inflight / limit}: 0 idle, 1 at the limit */
    public double utilisation() {
        return limit == 0 ? 0.0 : (double) inflight / limit;
    }
}

package dev.levee.bulkhead;

/**
 * A snapshot of a semaphore {@link Bulkhead}, returned by {@link Bulkhead#metrics()}. The figures are
 * read one after the other without a lock, so under load they may not add up exactly.
 *
 * @param maxConcurrentCalls the bound in force
 * @param active calls inside
 * @param waiting callers waiting for a slot (threads and asynchronous waiters)
 * @param available free slots
 * @param rejected calls refused since creation
 */
public record BulkheadMetrics(int maxConcurrentCalls, int active, int waiting, int available, long rejected) {

    /** @return {@code active / maxConcurrentCalls}: 0 idle, 1 full */
    public double utilisation() {
        return (double) active / maxConcurrentCalls;
    }
}

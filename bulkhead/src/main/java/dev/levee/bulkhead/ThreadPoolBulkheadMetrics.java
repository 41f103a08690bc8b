package dev.levee.bulkhead;

/**
 * A snapshot of a {@link ThreadPoolBulkhead}, returned by {@link ThreadPoolBulkhead#metrics()}. Read
 * without a lock: under load the figures may not add up exactly.
 *
 * @param maxThreads the bound on running calls
 * @param active calls running
 * @param threads worker threads alive (on virtual threads: calls accepted and not finished)
 * @param queueDepth calls waiting for a worker
 * @param queueCapacity the queue's bound
 * @param rejected calls refused since creation
 * @param completed calls run to an end since creation
 */
public record ThreadPoolBulkheadMetrics(int maxThreads, int active, int threads, int queueDepth, int queueCapacity,
        long rejected, long completed) {}

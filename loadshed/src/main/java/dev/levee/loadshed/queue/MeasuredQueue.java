package dev.levee.loadshed.queue;

/**
 * What every Levee queue and channel reports, read by {@code QueueMetricsBinder} and by
 * {@link dev.levee.loadshed.signal.QueueDelaySignal}: depth, capacity, pressure, drops by reason and
 * the queue-latency histogram. Reads are lock-free and allocation-free.
 */
public interface MeasuredQueue {

    /** @return the queue's name, the {@code name} metric tag */
    String name();

    /** @return entries held now */
    int depth();

    /** @return the fixed capacity */
    int capacity();

    /**
     * How full the queue is: {@code depth / capacity}, exactly, in [0, 1].
     *
     * @return the pressure
     */
    default double pressure() {
        return depth() / (double) capacity();
    }

    /**
     * The queue's counters: drops by reason, the last sojourn, the latency histogram.
     *
     * @return the live counters (reads are lock-free)
     */
    QueueStats stats();

    /**
     * Entries dropped or refused for {@code reason} since creation.
     *
     * @param reason the reason
     * @return the count
     */
    default long dropCount(DropReason reason) {
        return stats().dropCount(reason);
    }

    /**
     * The sojourn of the entry most recently handed to a consumer, in nanoseconds (0 before any).
     *
     * @return the last queue delay
     */
    default long lastSojournNanos() {
        return stats().lastSojournNanos();
    }

    /**
     * The queue-latency histogram (buckets of seed 002, 1 ms to 5 s), cumulative counts.
     *
     * @param bucket a bucket index in [0, 11]; 11 counts every entry
     * @return entries that waited at most the bucket's bound
     */
    default long latencyCount(int bucket) {
        return stats().latencyCount(bucket);
    }

    /** @return the sum of all recorded queue delays, nanoseconds */
    default long latencySumNanos() {
        return stats().latencySumNanos();
    }
}

package dev.levee.loadshed.queue;

import dev.levee.loadshed.internal.QueueLatencyHistogram;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The counters every {@link MeasuredQueue} keeps: drops by reason, the queue-latency histogram and the
 * last sojourn. One class, so the three queues count and report the same way; only the queue that owns
 * it writes to it (under its lock), anyone may read it (lock-free, allocation-free).
 */
public final class QueueStats {
    private static final Logger LOG = LoggerFactory.getLogger(QueueStats.class);

    private final LongAdder[] drops = new LongAdder[DropReason.values().length];
    private final QueueLatencyHistogram latency = new QueueLatencyHistogram();
    private final java.util.concurrent.atomic.AtomicLong lastSojourn = new java.util.concurrent.atomic.AtomicLong();

    /** Zeroed counters, for a queue of this package. */
    QueueStats() {
        for (int i = 0; i < drops.length; i++) {
            drops[i] = new LongAdder();
        }
    }

    /**
     * Counts a drop or refusal.
     *
     * @param reason why
     */
    void countDrop(DropReason reason) {
        drops[reason.ordinal()].increment();
    }

    /**
     * Records the queue delay of an entry handed to a consumer; called only under the queue's lock
     * (one writer at a time).
     *
     * @param sojournNanos how long it waited
     */
    void served(long sojournNanos) {
        lastSojourn.lazySet(sojournNanos);
        latency.record(sojournNanos);
    }

    /**
     * Entries dropped or refused for {@code reason} since creation.
     *
     * @param reason a reason
     * @return its count
     */
    public long dropCount(DropReason reason) {
        return drops[reason.ordinal()].sum();
    }

    /** @return the sojourn of the entry most recently handed to a consumer, in nanoseconds (0 before any) */
    public long lastSojournNanos() {
        return lastSojourn.get();
    }

    /**
     * The queue-latency histogram (buckets of seed 002, 1 ms to 5 s), cumulative counts.
     *
     * @param bucket a bucket index in [0, 11]; 11 counts every entry
     * @return entries that waited at most the bucket's bound
     */
    public long latencyCount(int bucket) {
        return latency.cumulativeCount(bucket);
    }

    /** @return the sum of all recorded queue delays, nanoseconds */
    public long latencySumNanos() {
        return latency.sumNanos();
    }

    /**
     * Hands a dropped entry to the listener (call outside the queue's lock). An exception the listener
     * throws is logged and swallowed; an {@link Error} propagates.
     *
     * @param listener the listener
     * @param queueName for the log
     * @param item the entry
     * @param reason why
     * @param <T> the entry type
     */
    static <T> void notify(DropListener<? super T> listener, String queueName, T item, DropReason reason) {
        try {
            listener.dropped(item, reason);
        } catch (Exception e) {
            LOG.warn("Drop listener of queue '{}' failed on a {} drop; the entry is dropped anyway", queueName, reason, e);
        }
    }
}

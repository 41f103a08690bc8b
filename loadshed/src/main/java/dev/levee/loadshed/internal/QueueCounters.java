package dev.levee.loadshed.internal;

import dev.levee.loadshed.queue.DropListener;
import dev.levee.loadshed.queue.DropReason;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The counters every queue keeps: drops by reason, the latency histogram and the last sojourn. Shared
 * so the three queues report the same way.
 */
public final class QueueCounters {
    private static final Logger LOG = LoggerFactory.getLogger(QueueCounters.class);

    private final LongAdder[] drops = new LongAdder[DropReason.values().length];
    private final QueueLatencyHistogram latency = new QueueLatencyHistogram();
    private final java.util.concurrent.atomic.AtomicLong lastSojourn = new java.util.concurrent.atomic.AtomicLong();

    /** Creates zeroed counters. */
    public QueueCounters() {
        for (int i = 0; i < drops.length; i++) {
            drops[i] = new LongAdder();
        }
    }

    /**
     * Counts a drop or refusal.
     *
     * @param reason why
     */
    public void countDrop(DropReason reason) {
        drops[reason.ordinal()].increment();
    }

    /**
     * Records the queue delay of an entry handed to a consumer; called only under the queue's lock
     * (one writer at a time).
     *
     * @param sojournNanos how long it waited
     */
    public void served(long sojournNanos) {
        lastSojourn.lazySet(sojournNanos);
        latency.record(sojournNanos);
    }

    /**
     * @param reason a reason
     * @return its count
     */
    public long dropCount(DropReason reason) {
        return drops[reason.ordinal()].sum();
    }

    /** @return the last sojourn recorded */
    public long lastSojournNanos() {
        return lastSojourn.get();
    }

    /** @return the histogram */
    public QueueLatencyHistogram latency() {
        return latency;
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
    public static <T> void notify(DropListener<? super T> listener, String queueName, T item, DropReason reason) {
        try {
            listener.dropped(item, reason);
        } catch (Exception e) {
            LOG.warn("Drop listener of queue '{}' failed on a {} drop; the entry is dropped anyway", queueName, reason, e);
        }
    }
}

package dev.levee.loadshed.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The one definition of what every Levee queue promises about its entries, shared by the unit,
 * property and stress tests: each offered entry ends exactly once — handed to a consumer, refused at
 * the door, or dropped with a reason (through the listener) — and the queue's counters agree with
 * what the listener and the callers saw. Thread-safe; entries must be unique.
 *
 * @param <T> the entry type
 */
final class QueueInvariants<T> implements DropListener<T> {
    private final ConcurrentHashMap<T, String> fate = new ConcurrentHashMap<>();
    private final AtomicInteger duplicates = new AtomicInteger();
    private final AtomicInteger offered = new AtomicInteger();

    private void end(T item, String how) {
        if (fate.putIfAbsent(item, how) != null) {
            duplicates.incrementAndGet();
        }
    }

    /**
     * Records an offer and its answer.
     *
     * @param item the entry
     * @param accepted what the queue answered
     */
    void offered(T item, boolean accepted) {
        offered.incrementAndGet();
        if (!accepted) {
            end(item, "REFUSED");
        }
    }

    /**
     * Records an entry handed to a consumer (null polls are ignored).
     *
     * @param item the entry, or null
     */
    void delivered(T item) {
        if (item != null) {
            end(item, "DELIVERED");
        }
    }

    @Override
    public void dropped(T item, DropReason reason) {
        end(item, reason.name());
    }

    long count(String how) {
        return fate.values().stream().filter(how::equals).count();
    }

    /**
     * Checks the promises once the queue is drained.
     *
     * @param queue the queue
     * @param remaining entries still held (0 after a drain)
     */
    void verify(MeasuredQueue queue, int remaining) {
        assertThat(duplicates.get()).as("entries that ended twice").isZero();
        assertThat(fate.size() + remaining).as("every offered entry ended exactly once or is still held")
                .isEqualTo(offered.get());
        assertThat(queue.depth()).isEqualTo(remaining);
        assertThat(queue.dropCount(DropReason.QUEUE_FULL)).isEqualTo(count("REFUSED"));
        for (DropReason r : DropReason.values()) {
            if (r != DropReason.QUEUE_FULL) {
                assertThat(queue.dropCount(r)).as("drops counted as " + r).isEqualTo(count(r.name()));
            }
        }
        assertThat(queue.latencyCount(11)).as("served entries in the latency histogram").isEqualTo(count("DELIVERED"));
        assertThat(queue.depth()).isBetween(0, queue.capacity());
    }
}

package dev.levee.loadshed.signal;

import dev.levee.core.LoadSignal;
import dev.levee.core.internal.Validate;
import dev.levee.loadshed.queue.MeasuredQueue;
import java.time.Duration;

/**
 * Load from queueing delay, the signal Meta sheds on (seed 001 §3.6: "if the time a request spends
 * waiting in queue exceeds a threshold, shed it — that directly measures am I falling behind"):
 * {@code lastSojourn / maxDelay}, where {@code lastSojourn} is the queue delay of the entry most
 * recently handed to a consumer. 1.0 means requests now wait {@code maxDelay}; above 1 they wait
 * longer.
 *
 * <pre>{@code
 * LoadSignal delay = QueueDelaySignal.of(codelQueue, Duration.ofMillis(100));
 * }</pre>
 *
 * <p>One volatile read and a multiplication; no sampling needed. A queue nobody serves keeps its last
 * reading; pair it with {@link InFlightSignal} when consumers can stall.
 */
public final class QueueDelaySignal implements LoadSignal {
    private final MeasuredQueue queue;
    private final double inverseMaxNanos;

    private QueueDelaySignal(MeasuredQueue queue, long maxDelayNanos) {
        this.queue = queue;
        this.inverseMaxNanos = 1.0 / maxDelayNanos;
    }

    /**
     * @param queue any Levee queue or channel
     * @param maxDelay the delay that reads as 1.0 (full load), &gt; 0
     * @return the signal
     */
    public static QueueDelaySignal of(MeasuredQueue queue, Duration maxDelay) {
        Validate.notNull("QueueDelaySignal", "queue", queue);
        Validate.positive("QueueDelaySignal", "maxDelay", maxDelay);
        return new QueueDelaySignal(queue, maxDelay.toNanos());
    }

    @Override
    public double load() {
        long s = queue.lastSojournNanos();
        return s <= 0 ? 0.0 : s * inverseMaxNanos;
    }
}

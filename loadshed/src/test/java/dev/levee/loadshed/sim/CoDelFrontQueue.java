package dev.levee.loadshed.sim;

import dev.levee.loadshed.queue.CoDelQueue;
import dev.levee.loadshed.queue.CoDelQueueConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * A {@link FrontQueue} backed by a real {@link CoDelQueue} on the simulation's ticker: the queue's own
 * CoDel drops come back to the simulation as {@code DROPPED_IN_QUEUE}.
 */
public final class CoDelFrontQueue implements FrontQueue {
    private final CoDelQueue<SimRequest> queue;
    private final List<SimRequest> drops = new ArrayList<>();
    private @Nullable SimRequest givenBack;

    /**
     * @param config the queue's configuration; its ticker must be the simulation's
     */
    public CoDelFrontQueue(CoDelQueueConfig config) {
        this.queue = CoDelQueue.of("sim", config, (r, reason) -> drops.add(r));
    }

    /** @return the queue, for its counters */
    public CoDelQueue<SimRequest> queue() {
        return queue;
    }

    @Override
    public boolean offer(SimRequest request, long nowNanos, Consumer<SimRequest> dropped) {
        return queue.offer(request);
    }

    @Override
    public @Nullable SimRequest next(long nowNanos, Consumer<SimRequest> dropped) {
        SimRequest r = givenBack;
        if (r != null) {
            givenBack = null;
            return r;
        }
        r = queue.poll();
        for (SimRequest d : drops) {
            dropped.accept(d);
        }
        drops.clear();
        return r;
    }

    @Override
    public void putBack(SimRequest request) {
        givenBack = request;
    }

    @Override
    public int size() {
        return queue.size() + (givenBack == null ? 0 : 1);
    }
}

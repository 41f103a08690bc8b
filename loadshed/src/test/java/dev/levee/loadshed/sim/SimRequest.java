package dev.levee.loadshed.sim;

import org.jspecify.annotations.Nullable;

/**
 * One request of a {@link Simulation}: when it arrived, when its client gives up, and what happened to
 * it. Mutable and owned by the simulation; admission policies and queues may read every field and
 * set {@link #priority} / {@link #key} only through the simulation's tagger.
 */
public final class SimRequest {
    /** What finally happened to a request. */
    public enum Fate {
        /** Not decided yet (arrived, queued or in the server). */
        PENDING,
        /** Refused at admission (no queue, or the front queue refused it). */
        REJECTED,
        /** Dropped by the front queue (full after it was queued, CoDel, too old, …). */
        DROPPED_IN_QUEUE,
        /** Its deadline passed while it waited in the front queue; never admitted. */
        EXPIRED_IN_QUEUE,
        /** Admitted, then skipped by the server because its deadline had passed before work started. */
        SKIPPED_EXPIRED,
        /** Admitted and served; the server reported a failure. */
        FAILED,
        /** Admitted and served successfully. */
        COMPLETED
    }

    final long id;
    final long arrivalNanos;
    final long deadlineNanos;
    /** Higher is more important; set by the simulation's tagger (default 0). */
    int priority;
    /** A partition or tenant key; set by the simulation's tagger (default null). */
    @Nullable String key;
    long admittedNanos = -1;
    long startNanos = -1;
    long endNanos = -1;
    long serviceNanos;
    Fate fate = Fate.PENDING;
    /** Free for an admission policy to remember something per request (e.g. which gate admitted it). */
    @Nullable Object attachment;

    SimRequest(long id, long arrivalNanos, long deadlineNanos) {
        this.id = id;
        this.arrivalNanos = arrivalNanos;
        this.deadlineNanos = deadlineNanos;
    }

    /** @return a sequence number, unique in the simulation */
    public long id() {
        return id;
    }

    /** @return virtual time of arrival */
    public long arrivalNanos() {
        return arrivalNanos;
    }

    /** @return virtual time at which the client gives up */
    public long deadlineNanos() {
        return deadlineNanos;
    }

    /** @return the request's priority (higher is more important) */
    public int priority() {
        return priority;
    }

    /**
     * Sets the priority; for taggers.
     *
     * @param priority higher is more important
     */
    public void priority(int priority) {
        this.priority = priority;
    }

    /** @return the partition / tenant key, or null */
    public @Nullable String key() {
        return key;
    }

    /**
     * Sets the partition or tenant key; for taggers.
     *
     * @param key the key
     */
    public void key(@Nullable String key) {
        this.key = key;
    }

    /** @return when admission let it into the server, or -1 */
    public long admittedNanos() {
        return admittedNanos;
    }

    /** @return when a worker started it, or -1 */
    public long startNanos() {
        return startNanos;
    }

    /** @return when it left the system (served, refused, dropped), or -1 */
    public long endNanos() {
        return endNanos;
    }

    /** @return pure work time the server spent (excluding its run-queue wait), 0 if never started */
    public long serviceNanos() {
        return serviceNanos;
    }

    /** @return what happened to it */
    public Fate fate() {
        return fate;
    }

    /** @return the admission policy's per-request note, or null */
    public @Nullable Object attachment() {
        return attachment;
    }

    /**
     * Sets the admission policy's per-request note.
     *
     * @param attachment anything
     */
    public void attachment(@Nullable Object attachment) {
        this.attachment = attachment;
    }

    /** @return admitted → end: the latency a server-side limiter measures (includes the run queue) */
    public long serverLatencyNanos() {
        return endNanos - admittedNanos;
    }

    /** @return arrival → end: the latency the client sees (includes any front-queue wait) */
    public long clientLatencyNanos() {
        return endNanos - arrivalNanos;
    }

    /** @return whether it was served (successfully) no later than its deadline: goodput */
    public boolean isGood() {
        return fate == Fate.COMPLETED && endNanos <= deadlineNanos;
    }

    /** @return whether the client had given up by the time it ended */
    public boolean isLate() {
        return endNanos > deadlineNanos;
    }

    @Override
    public String toString() {
        return "SimRequest[" + id + ", " + fate + ", arrival=" + arrivalNanos + ", deadline=" + deadlineNanos
                + ", admitted=" + admittedNanos + ", end=" + endNanos + "]";
    }
}

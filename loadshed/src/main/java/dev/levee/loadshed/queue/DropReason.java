package dev.levee.loadshed.queue;

/**
 * Why a queue let go of an entry it had accepted, or refused one. Each reason maps to the
 * {@code reason} word used by {@link dev.levee.core.ShedException#reason()}, the {@code reason} metric
 * tag and the {@code X-Shed-Reason} header.
 */
public enum DropReason {
    /** The queue was full and the newcomer was refused (the caller sees {@code false}). */
    QUEUE_FULL("queue_full"),
    /** CoDel dropped the entry at the head: the standing queue delay stayed above target. */
    CODEL("codel"),
    /** The entry's deadline passed while it waited. */
    EXPIRED("deadline"),
    /** The entry had less time left than the queue's minimum remaining time (seed 002: 100 ms). */
    TOO_LATE("deadline"),
    /** The entry was evicted to make room for a newcomer of higher priority. */
    EVICTED("low_priority_shed");

    private final String reason;

    DropReason(String reason) {
        this.reason = reason;
    }

    /**
     * The shed reason word: {@code queue_full}, {@code codel}, {@code deadline} or
     * {@code low_priority_shed}.
     *
     * @return the word
     */
    public String reason() {
        return reason;
    }
}

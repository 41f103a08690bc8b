package dev.levee.core;

/**
 * What clock readings a {@link Gate} needs for one call, so callers read the clock only when a gate
 * needs it ({@link Gate#timeNeed()}). Ordered: each level includes the one before.
 *
 * <table>
 *   <caption>Levels, what the caller reads, and who needs them</caption>
 *   <tr><th>level</th><th>reads before the call</th><th>reads after the call</th><th>for example</th></tr>
 *   <tr><td>{@link #NONE}</td><td>nothing</td><td>nothing</td>
 *       <td>a semaphore bulkhead; a CLOSED count-window breaker without a slow-call rule</td></tr>
 *   <tr><td>{@link #START}</td><td>"now", for {@code tryAcquire}</td><td>nothing</td>
 *       <td>a rate limiter; an OPEN breaker (to know when to half-open)</td></tr>
 *   <tr><td>{@link #LATENCY}</td><td>"now"</td><td>the end, for the latency</td>
 *       <td>a breaker with a slow-call rule or a time window; a concurrency limiter</td></tr>
 * </table>
 *
 * <p>A reading the caller did not take is passed as {@link Gate#NO_READING}.
 */
public enum TimeNeed {
    /** The gate needs no reading: the caller passes {@link Gate#NO_READING} everywhere. */
    NONE,
    /** The gate needs the reading at acquire; completions get {@link Gate#NO_READING} as latency and end. */
    START,
    /** The gate needs the acquire reading and the call's latency (and the end reading). */
    LATENCY;

    /**
     * The larger of two needs: what a caller serving both gates must read.
     *
     * @param other the other need
     * @return the larger need
     */
    public TimeNeed and(TimeNeed other) {
        return other.ordinal() > ordinal() ? other : this;
    }

    /** @return true if the caller reads the clock before the call ({@link #START} or {@link #LATENCY}) */
    public boolean readsStart() {
        return this != NONE;
    }

    /** @return true if the caller reads the clock after the call ({@link #LATENCY}) */
    public boolean readsEnd() {
        return this == LATENCY;
    }
}

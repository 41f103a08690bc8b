package dev.levee.loadshed.internal;

/**
 * The CoDel (controlled delay) state machine of seed 002, fed one sojourn sample per dequeue. Pure and
 * single-writer: the owner (a queue or a gate) calls it under its own lock and performs the drops it
 * asks for. Time is whatever ticker the owner reads; {@code 0} is a valid reading (no sentinel).
 *
 * <pre>
 *   on a sample (now, sojourn, remaining):
 *     sojourn &lt; target                 → above = false; dropping = false          (leave)
 *     !above                            → above = true; firstAboveTime = now + interval
 *     now &gt;= firstAboveTime:
 *       !dropping → dropping = true
 *                   count = (count &gt; 2 &amp;&amp; now − dropNext &lt; 16·interval) ? count − 2 : 1
 *                   dropNext = now + interval / √count
 *       dropping, now &gt;= dropNext →
 *                   while now &gt;= dropNext &amp;&amp; remaining &gt; 1:
 *                       drop the head; remaining −= 1; count += 1
 *                       dropNext = now + interval / √count
 * </pre>
 */
public final class CoDelController {
    /** How far back (in intervals) a previous dropping episode still sets the re-entry count. */
    public static final int REENTRY_INTERVALS = 16;

    /*
     * Two deliberate readings of the seed, both recorded in docs/loadshed.md:
     *  - the seed leaves the dropping state only inside its drop routine, which runs only for samples
     *    at or above target, so its exit is dead code; we leave it on the first sample below target,
     *    as the issue states ("leave when sojourn < target").
     *  - the seed sets dropNext = now + interval/sqrt(count) inside the drop loop (RFC 8289 adds to
     *    dropNext instead), so at most one head drop happens per dequeue. Kept exactly.
     * The seed uses 0 as "no first-above time"; a ticker may read 0, so a flag carries that instead.
     */

    private final long targetNanos;
    private final long intervalNanos;

    private boolean above;
    private long firstAboveTime;
    private boolean dropping;
    private long dropNext;
    private int count;
    private long lastSojourn;

    /**
     * @param targetNanos the acceptable standing delay (seed: 5 ms)
     * @param intervalNanos how long the delay may stay above target before dropping (seed: 100 ms)
     */
    public CoDelController(long targetNanos, long intervalNanos) {
        this.targetNanos = targetNanos;
        this.intervalNanos = intervalNanos;
    }

    /**
     * Feeds one sojourn sample, measured when an entry leaves the queue.
     *
     * @param now the reading of the owner's ticker
     * @param sojournNanos how long the measured entry waited
     * @param remaining entries still queued after the measured one left
     * @return how many entries to drop from the head now (0 or more, never {@code remaining} or more)
     */
    public int onSample(long now, long sojournNanos, int remaining) {
        lastSojourn = sojournNanos;
        if (sojournNanos < targetNanos) {
            above = false;
            dropping = false;
            return 0;
        }
        if (!above) {
            above = true;
            firstAboveTime = now + intervalNanos;
            return 0;
        }
        if (now - firstAboveTime < 0) {
            return 0;
        }
        if (!dropping) {
            dropping = true;
            if (count > 2 && now - dropNext < REENTRY_INTERVALS * intervalNanos) {
                count = count - 2;
            } else {
                count = 1;
            }
            dropNext = now + controlLaw(count);
            return 0;
        }
        int drops = 0;
        while (now - dropNext >= 0 && remaining > 1) {
            drops++;
            remaining--;
            count++;
            dropNext = now + controlLaw(count);
        }
        return drops;
    }

    /** {@code interval / √count}, the spacing of drops while dropping. */
    private long controlLaw(int n) {
        return (long) (intervalNanos / Math.sqrt(n));
    }

    /** @return whether the last sample was at or above target (the queue is congested: serve LIFO) */
    public boolean congested() {
        return above;
    }

    /** @return whether the controller is in its dropping state */
    public boolean dropping() {
        return dropping;
    }

    /** @return the drop count of the current or last dropping episode */
    public int count() {
        return count;
    }

    /** @return when the next drop is due while dropping, a ticker reading */
    public long dropNext() {
        return dropNext;
    }

    /** @return the first-above deadline, meaningful while {@link #congested()} */
    public long firstAboveTime() {
        return firstAboveTime;
    }

    /** @return the last sojourn sample in nanoseconds */
    public long lastSojournNanos() {
        return lastSojourn;
    }

    /** @return the target in nanoseconds */
    public long targetNanos() {
        return targetNanos;
    }

    /** @return the interval in nanoseconds */
    public long intervalNanos() {
        return intervalNanos;
    }
}

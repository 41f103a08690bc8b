package dev.levee.loadshed.limit;

/**
 * At most one limit change per round trip: a sample may move the limit only if its request was
 * admitted after the last change ({@code now − rtt ≥ lastChange}). A request admitted before the change
 * saw the old limit, so its latency says nothing about the new one; acting on it again is what makes
 * per-completion controllers overshoot and oscillate (TCP backs off once per window for the same
 * reason).
 */
final class RttWindow {
    private boolean changed;
    private long lastChangeNanos;

    /**
     * @param now the sample's completion time
     * @param rtt its latency
     * @return whether the sample's request was admitted after the last change
     */
    boolean fresh(long now, long rtt) {
        return !changed || now - rtt - lastChangeNanos >= 0;
    }

    /** @param now the time the limit changed */
    void changed(long now) {
        changed = true;
        lastChangeNanos = now;
    }
}

package dev.levee.ratelimiter.internal;

/**
 * What a decider does after losing a CAS race on a limiter's state: spin briefly before trying again,
 * a little longer after each loss in a row (capped). Retrying at once lets the contending cores take
 * the state's cache line from each other on every attempt; a short pause lets the winner finish while
 * it owns the line. Spinning only (no parking): the pause stays in the hundreds of nanoseconds, so
 * a decision's latency stays bounded even under contention, and an uncontended decision never gets
 * here.
 */
final class Contention {
    /** Longest pause, in spin-wait hints. */
    static final int MAX_SPINS = 64;

    private Contention() {}

    /**
     * Pauses after the {@code losses}-th lost race in a row and returns the next count.
     *
     * @param losses races lost so far in this decision, from 0
     * @return {@code losses + 1}
     */
    static int backOff(int losses) {
        int spins = Math.min(MAX_SPINS, 4 << Math.min(losses, 4));
        for (int i = 0; i < spins; i++) {
            Thread.onSpinWait();
        }
        return losses + 1;
    }
}

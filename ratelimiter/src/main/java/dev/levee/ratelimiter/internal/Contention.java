package dev.levee.ratelimiter.internal;

/**
 * What a decider does after losing a CAS race: wait a little before reading the state again, longer
 * after each loss in a row (exponential, capped). Immediately retrying makes two cores bounce the
 * state's cache line on every operation; a short pause lets the winner finish a few decisions while
 * it owns the line. Spinning, not parking: the pause is a few hundred nanoseconds at most.
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
        int spins = Math.min(MAX_SPINS, 1 << Math.min(losses, 6));
        for (int i = 0; i < spins; i++) {
            Thread.onSpinWait();
        }
        return losses + 1;
    }
}

package dev.levee.ratelimiter.internal;

import java.util.concurrent.locks.LockSupport;

/**
 * What a decider does after losing a CAS race on a limiter's state.
 *
 * <p>Retrying at once makes the contending cores bounce the state's cache line on every decision, so
 * each one pays a cross-core transfer. After a first loss the decider spins briefly (the winner
 * usually finishes in that time); after a second loss in a row the limiter is hot, and the decider
 * parks for the shortest time the scheduler grants, letting the winners run on an owned cache line
 * meanwhile. This trades a little latency for the unlucky caller under heavy contention for much more
 * throughput for everyone; an uncontended decision never gets here. Parking releases a virtual
 * thread's carrier.
 */
final class Contention {
    /** Spin hints after the first loss. */
    static final int SPINS = 32;

    private Contention() {}

    /**
     * Pauses after a lost race and returns the count of losses in a row.
     *
     * @param losses races lost so far in this decision, from 0
     * @return {@code losses + 1}
     */
    static int backOff(int losses) {
        if (losses == 0) {
            for (int i = 0; i < SPINS; i++) {
                Thread.onSpinWait();
            }
        } else {
            LockSupport.parkNanos(1L);
        }
        return losses + 1;
    }
}

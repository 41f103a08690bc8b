package dev.levee.core;

import java.util.concurrent.TimeUnit;

/**
 * Synchronous waiting, injected so tests never really sleep. The only way Levee blocks a thread for
 * time.
 *
 * <p>{@link #system()} parks the thread ({@link TimeUnit#sleep}); on JDKs with virtual threads a
 * sleeping virtual thread releases its carrier. {@link ManualTicker} is a sleeper that advances
 * itself.
 */
@FunctionalInterface
public interface Sleeper {

    /**
     * Waits for {@code nanos}.
     *
     * @param nanos how long; zero or negative returns at once (after checking for interrupt)
     * @throws InterruptedException if the thread is interrupted; as usual the flag is then clear
     */
    void sleep(long nanos) throws InterruptedException;

    /**
     * Waits for {@code nanos} without a checked exception: if interrupted, restores the thread's
     * interrupt flag and returns false at once, so the interrupt is never lost.
     *
     * @param nanos how long
     * @return true if the whole wait elapsed, false if it was cut short by an interrupt
     */
    default boolean sleepRestoringInterrupt(long nanos) {
        try {
            sleep(nanos);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * The real sleeper.
     *
     * @return a sleeper that parks the current thread
     */
    static Sleeper system() {
        return SystemSleeper.INSTANCE;
    }
}

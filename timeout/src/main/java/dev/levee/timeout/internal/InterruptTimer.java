package dev.levee.timeout.internal;

/**
 * The timer of one caller-thread ({@code INTERRUPT} mode) call: at expiry it interrupts the caller,
 * unless the caller's interrupt flag is already set by someone else, which it then records instead
 * (so the caller knows afterwards not to clear a flag it did not set).
 *
 * <p>40 bytes: the wheel's 36 plus the thread reference.
 */
public final class InterruptTimer extends TimerWheel.Timer {
    private final Thread thread;

    /** @param thread the thread running the call */
    public InterruptTimer(Thread thread) {
        this.thread = thread;
    }

    @Override
    protected void expire() {
        if (thread.isInterrupted()) {
            mark(); // the flag is someone else's: leave it, and tell the caller not to clear it
        } else {
            thread.interrupt();
        }
    }

    /**
     * After a failed cancel and {@link #awaitExpired()}: whether the flag was already set when the timer
     * fired, so the interrupt is not the timer's.
     *
     * @return true if the timer found the thread interrupted and did not interrupt it
     */
    public boolean foundInterrupted() {
        return marked();
    }
}

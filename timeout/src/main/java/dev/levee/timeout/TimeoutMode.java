package dev.levee.timeout;

/**
 * How a {@link Timeout} bounds a synchronous call. Asynchronous calls ({@code executeAsync}) are
 * always bounded on the scheduler, whatever the mode.
 */
public enum TimeoutMode {
    /**
     * The call runs on a worker from the configured executor while the caller waits; at the deadline
     * the caller gets a {@link dev.levee.core.DeadlineExceededException} and the worker is
     * interrupted (unless {@code interruptOnTimeout(false)}). Bounds any call, even one that never
     * looks at the clock, at the cost of a thread hop per call. The default.
     */
    THREAD,
    /**
     * The call runs on the caller's thread with the deadline attached as the current
     * {@link dev.levee.core.Deadline}; the call checks it ({@link Timeout#checkpoint()}, or any Levee
     * policy inside it, or a client mapped from it). No extra thread, no allocation of a task; but a
     * call that never checks is not bounded.
     */
    COOPERATIVE,
    /**
     * The call runs on the caller's thread with the deadline attached, and a shared timer (a hashed
     * timer wheel, 1 ms ticks) interrupts the caller's thread at the deadline; the caller then gets a
     * {@link dev.levee.core.DeadlineExceededException}. No thread hop and about 100 bytes per call;
     * bounds every call that stops when interrupted (blocking I/O on interruptible channels, waits,
     * sleeps, {@code Future.get}, Levee's own waits). A call that ignores interrupts runs to its end
     * and is reported as timed out when it returns late; use {@link #THREAD} for those. The timer's
     * interrupt never leaks past the call: see {@link Timeout} for the exact rule.
     */
    INTERRUPT
}

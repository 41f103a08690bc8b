package dev.levee.core;

/**
 * One reading of how loaded something is, on one scale shared by every Levee module that reacts to
 * load: load shedders, degradation levels, health checks and watchdogs.
 *
 * <p><b>Scale.</b> {@code 0.0} means idle and {@code 1.0} means at capacity (CPU fully used, the heap
 * full after GC, every slot of a limit in use). A reading may exceed {@code 1.0} when the source can
 * tell that demand is above capacity (e.g. queued work); consumers clamp as their formula requires.
 * A reading is never negative and never NaN; an implementation that cannot tell returns {@code 0.0}
 * (it must not shed on missing data).
 *
 * <p><b>Cost.</b> {@link #load()} is called on hot paths, so implementations sample in the background
 * (on a {@link Scheduler}) and return a volatile field; they must not allocate or block.
 *
 * <pre>{@code
 * LoadSignal inflight = () -> limiter.inflight() / (double) limiter.limit();
 * }</pre>
 */
@FunctionalInterface
public interface LoadSignal {

    /**
     * The current load.
     *
     * @return a value {@code >= 0.0}: {@code 0.0} idle, {@code 1.0} at capacity
     */
    double load();

    /**
     * A signal that always reads the same value; for tests and static configuration.
     *
     * @param load the value to read, {@code >= 0.0}
     * @return the constant signal
     * @throws InvalidConfigException if {@code load} is negative or NaN
     */
    static LoadSignal constant(double load) {
        if (!(load >= 0.0)) {
            throw new InvalidConfigException("LoadSignal.constant", "load", ">= 0.0", load);
        }
        return () -> load;
    }
}

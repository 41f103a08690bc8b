package dev.levee.core;

/**
 * A monotonic time source in nanoseconds: the only way Levee reads time.
 *
 * <p>Readings are only meaningful relative to other readings of the same ticker (like
 * {@link System#nanoTime()}); they are not wall-clock time. Every policy takes its ticker from its
 * config, so tests drive time with a {@link ManualTicker} and never sleep.
 *
 * <p>Implementations must be thread-safe and cheap: a gate reads its ticker on every call.
 */
@FunctionalInterface
public interface Ticker {

    /**
     * Reads the ticker.
     *
     * @return the current time in nanoseconds, relative to an arbitrary fixed origin
     */
    long read();

    /**
     * The system's monotonic clock, {@link System#nanoTime()}.
     *
     * @return the shared system ticker
     */
    static Ticker system() {
        return SystemTicker.INSTANCE;
    }

    /**
     * The shared coarse ticker at the default 1 ms resolution: a volatile load per reading instead of a
     * {@code System.nanoTime()}, at most about 1 ms behind it. An explicit choice, never a default; see
     * {@link CoarseTicker} for the bound and where it fits (breakers, timeouts, limits of up to about
     * 1,000 per second; not sub-millisecond latency measurement).
     *
     * @return the shared coarse ticker for 1 ms (the same instance while it is in use)
     */
    static CoarseTicker coarse() {
        return CoarseTicker.shared(CoarseTicker.DEFAULT_RESOLUTION);
    }

    /**
     * The shared coarse ticker for {@code resolution}. Its daemon updater thread starts with the first
     * coarse ticker and stops once none is reachable.
     *
     * @param resolution how often the reading is updated; in [100 µs, 1 s]
     * @return the shared coarse ticker for this resolution (the same instance while it is in use)
     * @throws InvalidConfigException if the resolution is null or out of bounds
     */
    static CoarseTicker coarse(java.time.Duration resolution) {
        return CoarseTicker.shared(resolution);
    }
}

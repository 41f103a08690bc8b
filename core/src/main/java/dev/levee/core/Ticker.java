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
}

package dev.levee.health;

import dev.levee.core.InvalidConfigException;
import dev.levee.core.LoadSignal;
import java.util.Objects;

/**
 * One signal a {@link Watchdog} samples, with its threshold on the load scale: a sample
 * {@code >= threshold} is a breach.
 *
 * @param name the signal's name (logs, events, metrics)
 * @param signal the signal, e.g. {@link ResourceSignals#heapUsage()} or a {@link Heartbeat}
 * @param threshold the breach threshold, a fraction in (0, 1]
 */
public record WatchdogSignal(String name, LoadSignal signal, double threshold) {

    /**
     * Validates the signal.
     *
     * @param name the name
     * @param signal the signal
     * @param threshold the threshold
     * @throws InvalidConfigException if the name is blank, the signal null or the threshold outside (0, 1]
     */
    public WatchdogSignal {
        if (name == null || name.isBlank()) {
            throw new InvalidConfigException("WatchdogSignal", "name", "a non-blank string", name);
        }
        if (signal == null) {
            throw new InvalidConfigException("WatchdogSignal '" + name + "'", "signal", "set (not null)", null);
        }
        if (!(threshold > 0.0 && threshold <= 1.0)) {
            throw new InvalidConfigException("WatchdogSignal '" + name + "'", "threshold",
                    threshold > 1.0 && threshold <= 100.0
                            ? "a fraction in (0, 1] (" + threshold + " looks like a percent)"
                            : "a fraction in (0, 1]",
                    threshold);
        }
        Objects.requireNonNull(signal);
    }
}

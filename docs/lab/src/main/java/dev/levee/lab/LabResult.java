package dev.levee.lab;

import java.util.List;

/**
 * What a run recorded: per configuration, one {@link Second} per second of the script plus the drain.
 *
 * @param script the script that ran
 * @param settings the lab's numbers
 * @param environment "real" or "simulated"
 * @param series one per configuration, unprotected first
 */
record LabResult(Script script, LabSettings settings, String environment, List<Series> series) {

    /**
     * One configuration's seconds.
     *
     * @param config its name
     * @param seconds its per-second records
     */
    record Series(String config, List<Second> seconds) {}

    Series series(String config) {
        return series.stream().filter(s -> s.config().equals(config)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no configuration " + config));
    }
}

package dev.levee.lab;

import java.util.ArrayList;
import java.util.List;

/**
 * The numbers the report's table and the tests read: per phase and configuration, averages over the
 * phase's seconds; and the time to recover after the outage.
 */
final class Summary {
    /** Goodput counts as recovered at this share of the offered load. */
    static final double RECOVERED = 0.9;

    private Summary() {}

    /**
     * One phase of one configuration.
     *
     * @param phase the phase's key
     * @param config the configuration
     * @param offered requests offered per second
     * @param goodput requests answered within their deadline per second
     * @param capacityShare goodput over the downstream's capacity
     * @param offeredShare goodput over the offered load
     * @param amplification attempts sent per request offered
     * @param p99Millis p99 latency of the goodput, NaN when none
     * @param degraded fallback answers per second
     * @param shed downstream refusals per second
     */
    record PhaseStats(String phase, String config, double offered, double goodput, double capacityShare,
            double offeredShare, double amplification, double p99Millis, double degraded, double shed) {

        /** Requests answered per second, in time or by the fallback. */
        double answered() {
            return goodput + degraded;
        }
    }

    /** The outage and the recovery after it, as one episode. */
    static final String OUTAGE_EPISODE = "outage+recovery";

    static PhaseStats phase(LabResult result, String config, String phaseKey) {
        Script script = result.script();
        if (phaseKey.equals(OUTAGE_EPISODE)) {
            int from = script.startOf("outage");
            return window(result, config, phaseKey, from, script.startOf("recovery") + script.phase("recovery").seconds());
        }
        int from = script.startOf(phaseKey);
        return window(result, config, phaseKey, from, from + script.phase(phaseKey).seconds());
    }

    static PhaseStats window(LabResult result, String config, String phaseKey, int from, int to) {
        List<Second> seconds = result.series(config).seconds().subList(from, to);
        double n = seconds.size();
        double offered = seconds.stream().mapToInt(s -> s.offered).sum() / n;
        double good = seconds.stream().mapToInt(s -> s.good).sum() / n;
        double attempts = seconds.stream().mapToInt(s -> s.attempts).sum() / n;
        double degraded = seconds.stream().mapToInt(s -> s.degraded).sum() / n;
        double shed = seconds.stream().mapToInt(Second::shedTotal).sum() / n;
        List<Long> all = new ArrayList<>();
        for (Second s : seconds) {
            for (long l : s.latencies()) {
                all.add(l);
            }
        }
        double p99 = Second.quantileMillis(all.stream().mapToLong(Long::longValue).toArray(), 0.99);
        return new PhaseStats(phaseKey, config, offered, good, good / result.settings().capacity(),
                offered == 0 ? 0 : good / offered, offered == 0 ? 0 : attempts / offered, p99, degraded, shed);
    }

    static List<PhaseStats> all(LabResult result) {
        List<PhaseStats> out = new ArrayList<>();
        for (Phase p : result.script().phases()) {
            for (LabResult.Series s : result.series()) {
                out.add(phase(result, s.config(), p.key()));
            }
        }
        return out;
    }

    /**
     * Seconds from the end of the outage until goodput is at least {@value #RECOVERED} of the offered load
     * for that second and the two after it; -1 if that never happens before the recovery phase ends.
     */
    static int recoverySeconds(LabResult result, String config) {
        Script script = result.script();
        int from = script.startOf("recovery");
        int to = from + script.phase("recovery").seconds();
        List<Second> seconds = result.series(config).seconds();
        for (int t = from; t < to; t++) {
            boolean held = true;
            for (int k = t; k < Math.min(to, t + 3); k++) {
                Second s = seconds.get(k);
                if (s.good < RECOVERED * s.offered) {
                    held = false;
                    break;
                }
            }
            if (held) {
                return t - from;
            }
        }
        return -1;
    }

    /** Attempts sent per request offered over the whole run. */
    static double retriesPerRequest(LabResult result, String config) {
        List<Second> seconds = result.series(config).seconds();
        double offered = seconds.stream().mapToInt(s -> s.offered).sum();
        double attempts = seconds.stream().mapToInt(s -> s.attempts).sum();
        return offered == 0 ? 0 : (attempts - offered) / offered;
    }
}

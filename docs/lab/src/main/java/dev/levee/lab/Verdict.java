package dev.levee.lab;

import java.util.List;
import java.util.Locale;

/**
 * One of the lab's claims, checked on a run's numbers.
 *
 * @param claim what is claimed
 * @param pass whether the run shows it
 * @param measured what was measured
 */
record Verdict(String claim, boolean pass, String measured) {

    static List<Verdict> of(LabResult r) {
        double spikeLevee = Summary.phase(r, Lab.PROTECTED, "spike").capacityShare();
        double spikeNaive = Summary.phase(r, Lab.UNPROTECTED, "spike").capacityShare();
        int recovery = Summary.recoverySeconds(r, Lab.PROTECTED);
        double amplification = Summary.phase(r, Lab.UNPROTECTED, "recovery").amplification();
        return List.of(
                new Verdict("5x spike: Levee's goodput >= 90% of capacity", spikeLevee >= 0.9, percent(spikeLevee)),
                new Verdict("5x spike: the unprotected goodput <= 50% of capacity", spikeNaive <= 0.5, percent(spikeNaive)),
                new Verdict("after the outage: Levee back to >= 90% goodput within 5 s", recovery >= 0 && recovery <= 5,
                        recovery < 0 ? "not recovered" : recovery + " s"),
                new Verdict("after the outage: the unprotected retry amplification >= 2x", amplification >= 2,
                        String.format(Locale.ROOT, "%.1fx", amplification)));
    }

    private static String percent(double share) {
        return String.format(Locale.ROOT, "%.0f%% of capacity", 100 * share);
    }
}

package dev.levee.lab;

import java.util.Locale;

/** The live console line: one per second per configuration. */
final class Console {
    private Console() {}

    static String line(int second, Script script, String config, Second s) {
        double p99 = s.quantileMillis(0.99);
        String breaker = switch (s.breaker) {
            case 0 -> "closed";
            case 1 -> "half-open";
            case 2 -> "OPEN";
            default -> "-";
        };
        int progress = (int) Math.round(100.0 * (second + 1) / script.seconds());
        return String.format(Locale.ROOT,
                "[%3d%%] %3ds %-8s %-11s offered %4d/s  goodput %4d/s  p99 %5s ms  shed %4d/s  degraded %4d/s  "
                        + "breaker %-9s limit %3s  inside %4d  attempts %4.1fx",
                progress, second, script.phaseAt(second).key(), config, s.offered, s.good,
                Double.isNaN(p99) ? "-" : String.format(Locale.ROOT, "%.0f", p99), s.shedTotal(), s.degraded, breaker,
                s.limit < 0 ? "-" : Integer.toString(s.limit), s.inflight,
                s.offered == 0 ? 0.0 : (double) s.attempts / s.offered);
    }
}

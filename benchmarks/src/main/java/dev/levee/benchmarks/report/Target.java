package dev.levee.benchmarks.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A speed target of one issue, checked against every run: "Levee's methods whose name contains
 * {@code leveeKeyword}, in each benchmark class matching {@code classes}, at {@code threads} threads,
 * take at most {@code bound} × the time of {@code against}".
 *
 * <p>The divisor is one of: a named peer's fastest method whose name contains {@code peerKeyword}
 * (e.g. resilience4j's count-window breaker), the fastest peer, or the floor
 * ({@code FloorBenchmark.nanoTimeAndCas}) at the same thread count. Peer methods that measure the
 * same operation as the Levee method are preferred (see {@link ResultTable}). Labelled extras
 * ({@link Measurement#extra()}) are never checked and never divide.
 *
 * <p><b>Verdicts respect noise.</b> Each score comes with JMH's 99.9% confidence half-width; the
 * ratio's interval is taken conservatively as
 * {@code [(a − ea) / (b + eb), (a + ea) / (b − eb)]} for Levee {@code a ± ea} over divisor
 * {@code b ± eb}. A target ({@code ratio <= bound}, or {@code < bound} when strict) is <em>met</em> only
 * when the whole interval satisfies it, <em>not met</em> when the whole interval fails it, and
 * <em>within noise</em> (not shown, so not met) when the interval straddles the bound or a score has no
 * interval (too few iterations).
 *
 * <p>Targets are matched by the module's naming convention, never by exact method names, so a
 * benchmark that is renamed or not written yet makes the target <em>not measured</em> with the
 * reason, not a failed report.
 *
 * @param issue the issue that set the target
 * @param goal the target in words
 * @param classes which benchmark classes (simple names) it applies to
 * @param leveeKeyword the Levee methods it applies to (case-insensitive substring, or {@code |}-separated
 *     alternatives); empty for all
 * @param against what the Levee method is divided by
 * @param peer the peer, when {@code against} is {@link Against#PEER}
 * @param peerKeyword which of the peer's methods (case-insensitive substring); empty for all
 * @param threads the thread count
 * @param bound the largest ratio that meets the target
 * @param strict whether the ratio must be strictly below the bound
 */
record Target(
        String issue,
        String goal,
        Pattern classes,
        String leveeKeyword,
        Against against,
        Library peer,
        String peerKeyword,
        int threads,
        double bound,
        boolean strict) {

    /** The divisor of a target's ratio. */
    enum Against {
        /** One named peer. */
        PEER,
        /** The fastest peer of the class. */
        FASTEST_PEER,
        /** The floor at the same thread count. */
        FLOOR
    }

    /**
     * Checks this target.
     *
     * @param table the run's results
     * @return one check per matching Levee method, or one "not measured" check saying what is missing
     */
    List<TargetCheck> check(ResultTable table) {
        List<TargetCheck> checks = new ArrayList<>();
        List<Measurement> candidates = table.where(m -> classes.matcher(m.className()).matches()
                && m.library() == Library.LEVEE
                && !m.extra()
                && contains(m.method(), leveeKeyword));
        if (candidates.isEmpty()) {
            String what = leveeKeyword.isEmpty() ? "no levee* method" : "no levee* method containing '" + leveeKeyword + "'";
            checks.add(missing(classes.pattern(), what + " in a class matching " + classes.pattern()));
            return checks;
        }
        List<Measurement> atThreads = candidates.stream().filter(m -> m.threads() == threads).toList();
        if (atThreads.isEmpty()) {
            checks.add(missing(classes.pattern(), "not run at " + threads + " thread(s)"));
            return checks;
        }
        for (Measurement m : atThreads) {
            String subject = m.className() + "." + m.method();
            Optional<Measurement> divisor = divisor(table, m);
            if (divisor.isEmpty()) {
                checks.add(missing(subject, "no " + describeDivisor() + " in " + m.className() + " at " + threads + " thread(s)"));
                continue;
            }
            Measurement d = divisor.get();
            double ratio = m.score() / d.score();
            double low = (m.score() - m.error()) / (d.score() + d.error());
            double high = d.score() - d.error() > 0
                    ? (m.score() + m.error()) / (d.score() - d.error()) : Double.POSITIVE_INFINITY;
            String with = (d.library() == Library.FLOOR ? "floor " : "") + d.method()
                    + String.format(Locale.ROOT, " (%s ns %s)", Format.nanos(d.score()), Format.error(d.error()));
            Verdict verdict;
            String note = "";
            if (Double.isNaN(low) || Double.isNaN(high)) {
                low = Double.NaN;
                high = Double.NaN;
                verdict = within(ratio) ? Verdict.WITHIN_NOISE : Verdict.NOT_MET;
                note = "no confidence interval (too few iterations)";
            } else if (within(high)) {
                verdict = Verdict.MET;
            } else if (!within(low)) {
                verdict = Verdict.NOT_MET;
            } else {
                verdict = Verdict.WITHIN_NOISE;
                note = "the interval straddles " + Format.ratio(bound);
            }
            checks.add(new TargetCheck(issue, goal, threads, subject, with, ratio, low, high, verdict, note));
        }
        return checks;
    }

    /** Whether a ratio satisfies the bound. */
    private boolean within(double ratio) {
        return strict ? ratio < bound : ratio <= bound;
    }

    private Optional<Measurement> divisor(ResultTable table, Measurement m) {
        switch (against) {
            case FLOOR:
                return table.floor(m.threads());
            case FASTEST_PEER:
                return table.fastestComparable(m, p -> p.library().isPeer() && !p.extra());
            default:
                return table.fastestComparable(m, p -> p.library() == peer && !p.extra()
                        && contains(p.method(), peerKeyword));
        }
    }

    private String describeDivisor() {
        switch (against) {
            case FLOOR:
                return "floor (" + Library.FLOOR_CLASS + "." + Library.FLOOR_METHOD + ")";
            case FASTEST_PEER:
                return "peer method";
            default:
                return peer.name().toLowerCase(Locale.ROOT) + "* method"
                        + (peerKeyword.isEmpty() ? "" : " containing '" + peerKeyword + "'");
        }
    }

    private TargetCheck missing(String subject, String why) {
        return new TargetCheck(issue, goal, threads, subject, "", Double.NaN, Double.NaN, Double.NaN,
                Verdict.NOT_MEASURED, why);
    }

    /** Whether {@code method} contains the keyword, or one of its {@code |}-separated alternatives. */
    private static boolean contains(String method, String keyword) {
        if (keyword.isEmpty()) {
            return true;
        }
        String m = method.toLowerCase(Locale.ROOT);
        for (String k : keyword.split("\\|")) {
            if (m.contains(k.toLowerCase(Locale.ROOT))) {
                return true;
            }
        }
        return false;
    }
}

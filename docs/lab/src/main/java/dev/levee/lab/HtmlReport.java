package dev.levee.lab;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * The self-contained report: one HTML file, inline SVG charts, inline CSS, one small inline script that
 * only measures what the browser drew (for the headless check); no external scripts, fonts or images.
 */
final class HtmlReport {
    static final String NAIVE_COLOR = "#c0392b";
    static final String LEVEE_COLOR = "#1e8449";
    static final String OFFERED_COLOR = "#7f8c8d";
    private static final String[] PALETTE = {"#8e44ad", "#d35400", "#2471a3", "#b7950b", "#17a589", "#943126", "#5d6d7e",
        "#a04000", "#1abc9c", "#e74c3c"};

    private HtmlReport() {}

    static Path write(LabResult result, Path dir) throws IOException {
        Files.createDirectories(dir);
        Path file = dir.resolve("lab-report.html");
        Files.writeString(file, render(result), StandardCharsets.UTF_8);
        return file;
    }

    static List<Chart> charts(LabResult r) {
        Script script = r.script();
        LabResult.Series naive = r.series(Lab.UNPROTECTED);
        LabResult.Series levee = r.series(Lab.PROTECTED);
        List<Chart> charts = new ArrayList<>();
        charts.add(new Chart("goodput", "Goodput (answers within the deadline) vs offered load", "requests/s", script)
                .reference(r.settings().capacity())
                .add(new Chart.Series("offered", OFFERED_COLOR, true, values(levee, s -> s.offered)))
                .add(new Chart.Series("goodput, unprotected", NAIVE_COLOR, false, values(naive, s -> s.good)))
                .add(new Chart.Series("goodput, Levee", LEVEE_COLOR, false, values(levee, s -> s.good))));
        charts.add(new Chart("latency", "Latency of the goodput: p50 (dashed) and p99", "ms", script)
                .add(new Chart.Series("p50, unprotected", NAIVE_COLOR, true, values(naive, s -> s.quantileMillis(0.5))))
                .add(new Chart.Series("p99, unprotected", NAIVE_COLOR, false, values(naive, s -> s.quantileMillis(0.99))))
                .add(new Chart.Series("p50, Levee", LEVEE_COLOR, true, values(levee, s -> s.quantileMillis(0.5))))
                .add(new Chart.Series("p99, Levee", LEVEE_COLOR, false, values(levee, s -> s.quantileMillis(0.99)))));
        charts.add(causes("causes-unprotected", "Unprotected: requests not served in time, by cause", naive, script));
        charts.add(causes("causes-levee", "Levee: requests not served in time, by cause (degraded answers by the reason a fallback "
                + "was needed)", levee, script));
        charts.add(shed(r, script));
        charts.add(new Chart("breaker", "Levee client: circuit breaker state", "state", script).levels("closed", "half-open", "open")
                .add(new Chart.Series("breaker, Levee", LEVEE_COLOR, false, values(levee, s -> s.breaker < 0 ? Double.NaN : s.breaker))));
        charts.add(new Chart("limit", "Downstream: adaptive concurrency limit and requests inside (log scale)", "requests", script)
                .logScale()
                .add(new Chart.Series("adaptive limit, Levee", "#2471a3", true, values(levee, s -> s.limit < 0 ? Double.NaN : s.limit)))
                .add(new Chart.Series("inside, unprotected", NAIVE_COLOR, false, values(naive, s -> s.inflight)))
                .add(new Chart.Series("inside, Levee", LEVEE_COLOR, false, values(levee, s -> s.inflight))));
        charts.add(new Chart("amplification", "Retry amplification: attempts sent per request offered", "x", script)
                .add(new Chart.Series("unprotected", NAIVE_COLOR, false, values(naive, s -> ratio(s.attempts, s.offered))))
                .add(new Chart.Series("Levee", LEVEE_COLOR, false, values(levee, s -> ratio(s.attempts, s.offered)))));
        return charts;
    }

    private static Chart causes(String id, String title, LabResult.Series series, Script script) {
        Set<String> names = new LinkedHashSet<>();
        for (Second s : series.seconds()) {
            names.addAll(s.causes.keySet());
        }
        Chart chart = new Chart(id, title, "requests/s", script);
        int c = 0;
        for (String name : names) {
            chart.add(new Chart.Series(name, PALETTE[c++ % PALETTE.length], false,
                    values(series, s -> s.causes.getOrDefault(name, 0))));
        }
        return chart;
    }

    private static Chart shed(LabResult r, Script script) {
        Chart chart = new Chart("shed", "Downstream refusals (503) by reason", "requests/s", script);
        int c = 0;
        for (LabResult.Series series : r.series()) {
            Set<String> reasons = new LinkedHashSet<>();
            for (Second s : series.seconds()) {
                reasons.addAll(s.serverShed.keySet());
            }
            for (String reason : reasons) {
                chart.add(new Chart.Series(reason + ", " + label(series.config()), PALETTE[c++ % PALETTE.length],
                        series.config().equals(Lab.UNPROTECTED), values(series, s -> s.serverShed.getOrDefault(reason, 0L))));
            }
        }
        return chart;
    }

    static String label(String config) {
        return config.equals(Lab.PROTECTED) ? "Levee" : config;
    }

    private static double ratio(int a, int b) {
        return b == 0 ? Double.NaN : (double) a / b;
    }

    private static double[] values(LabResult.Series series, ToDoubleFunction<Second> f) {
        return series.seconds().stream().mapToDouble(f).toArray();
    }

    static String render(LabResult r) {
        LabSettings st = r.settings();
        StringBuilder b = new StringBuilder();
        b.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>Levee overload lab</title>\n<style>\n")
                .append("body{font-family:sans-serif;margin:24px;color:#222;max-width:1000px}")
                .append("h1{font-size:22px}h2{font-size:18px;margin-top:28px}")
                .append("table{border-collapse:collapse;font-size:12px;margin-bottom:8px}")
                .append("td,th{border:1px solid #ccc;padding:2px 5px;text-align:right}")
                .append("th:first-child,td:first-child{text-align:left}.ahead{background:#e8f6ee}.behind{background:#fbeaea}")
                .append(".pass{color:#1e8449;font-weight:bold}.fail{color:#c0392b;font-weight:bold}")
                .append("figure{margin:18px 0}figcaption{font-weight:bold;font-size:14px;margin-bottom:4px}")
                .append(".grid{stroke:#d5d8dc;stroke-width:1}.reference{stroke:#555;stroke-width:1;stroke-dasharray:2 3}")
                .append(".axis{font-size:11px;fill:#555}.phase-label{font-size:11px;fill:#34495e}")
                .append(".legend{font-size:12px}.legend span{margin-right:14px;white-space:nowrap}")
                .append(".legend i{display:inline-block;width:14px;height:4px;margin-right:4px;vertical-align:middle}")
                .append("</style></head><body>\n");
        b.append("<h1>Levee overload lab</h1>\n<p>").append(Html.escape(String.format(Locale.ROOT,
                "%s script, %s run. The downstream has %d workers of %d ms: a capacity of %.0f requests/s. The steady load is "
                        + "%.0f requests/s; every request carries a %d ms deadline, a priority and a tenant. Both configurations "
                        + "receive the same requests at the same instants, each against its own copy of the downstream.",
                r.script().name(), r.environment(), st.workers(), st.serviceNanos() / LabSettings.MS, st.capacity(), st.steadyRate(),
                st.deadlineNanos() / LabSettings.MS))).append("</p>\n");
        b.append("<p><b style=\"color:").append(NAIVE_COLOR).append("\">unprotected</b>: a 1 s timeout per attempt and up to 3 "
                + "immediate retries on any failure; the server queues everything (FIFO, 1000 deep). <b style=\"color:")
                .append(LEVEE_COLOR).append("\">Levee</b>: fallback, retry with a budget, circuit breaker, client throttle and a "
                        + "deadline-bound timeout on the client; deadline check, priority shedder, adaptive concurrency limit and "
                        + "CoDel queue on the server.</p>\n");
        b.append("<h2>Verdict</h2>\n<ul id=\"verdicts\">\n");
        for (Verdict v : Verdict.of(r)) {
            b.append("<li class=\"verdict ").append(v.pass() ? "pass" : "fail").append("\">").append(v.pass() ? "PASS " : "FAIL ")
                    .append(Html.escape(v.claim())).append(": ").append(Html.escape(v.measured())).append("</li>\n");
        }
        b.append("</ul>\n");
        summary(b, r);
        b.append("<h2>Over time</h2>\n<p>Shaded bands are the phases. Each point is one second.</p>\n");
        for (Chart c : charts(r)) {
            b.append(c.html());
        }
        b.append("<h2>Phases</h2>\n<ul>\n");
        for (Phase p : r.script().phases()) {
            b.append("<li><b>").append(Html.escape(p.key())).append("</b> (").append(p.seconds()).append(" s): ")
                    .append(Html.escape(p.shows())).append("</li>\n");
        }
        b.append("</ul>\n");
        // Measures what the browser actually drew, for the headless check (it reads these attributes).
        b.append("<script>\nfor (const svg of document.querySelectorAll('svg.chart')) {\n"
                + "  let drawn = 0;\n"
                + "  for (const p of svg.querySelectorAll('path.series')) {\n"
                + "    const length = p.getTotalLength();\n"
                + "    p.setAttribute('data-length', length.toFixed(1));\n"
                + "    if (length > 0) { drawn++; }\n"
                + "  }\n"
                + "  svg.setAttribute('data-drawn', String(drawn));\n"
                + "}\ndocument.body.setAttribute('data-measured', 'yes');\n</script>\n");
        b.append("</body></html>\n");
        return b.toString();
    }

    private static void summary(StringBuilder b, LabResult r) {
        b.append("<h2>Summary</h2>\n<p>Per phase, averages per second. Goodput: answered 200 within the deadline. Answered: "
                + "goodput plus degraded answers from the fallback. The last row takes the outage and the recovery after it as one "
                + "episode: during the outage itself the dependency is gone and nobody can serve a real answer.</p>\n"
                + "<table id=\"summary\"><tr><th>phase</th><th>offered/s</th>"
                + "<th>goodput/s unprot.</th><th>goodput/s Levee</th><th>% of cap. unprot.</th><th>% of cap. Levee</th>"
                + "<th>answered/s unprot.</th><th>answered/s Levee</th>"
                + "<th>p99 ms unprot.</th><th>p99 ms Levee</th><th>attempts/req. unprot.</th><th>attempts/req. Levee</th>"
                + "</tr>\n");
        List<String> rows = new ArrayList<>();
        r.script().phases().forEach(p -> rows.add(p.key()));
        rows.add(Summary.OUTAGE_EPISODE);
        for (String key : rows) {
            Summary.PhaseStats n = Summary.phase(r, Lab.UNPROTECTED, key);
            Summary.PhaseStats l = Summary.phase(r, Lab.PROTECTED, key);
            b.append(String.format(Locale.ROOT, "<tr class=\"phase-row\" data-phase=\"%s\" data-goodput-unprotected=\"%.3f\" "
                            + "data-goodput-levee=\"%.3f\" data-answered-unprotected=\"%.3f\" data-answered-levee=\"%.3f\">"
                            + "<td>%s</td><td>%.1f</td><td class=\"%s\">%.1f</td><td class=\"%s\">%.1f</td>"
                            + "<td>%.0f%%</td><td>%.0f%%</td><td>%.1f</td><td>%.1f</td><td>%s</td><td>%s</td><td>%.2f</td><td>%.2f</td></tr>%n",
                    key, n.goodput(), l.goodput(), n.answered(), l.answered(), key, n.offered(), compare(n.goodput(), l.goodput()),
                    n.goodput(), compare(l.goodput(), n.goodput()), l.goodput(), 100 * n.capacityShare(), 100 * l.capacityShare(),
                    n.answered(), l.answered(), ms(n.p99Millis()), ms(l.p99Millis()), n.amplification(), l.amplification()));
        }
        b.append("</table>\n");
        int rn = Summary.recoverySeconds(r, Lab.UNPROTECTED);
        int rl = Summary.recoverySeconds(r, Lab.PROTECTED);
        b.append(String.format(Locale.ROOT, "<table id=\"totals\"><tr><th>whole run</th><th>unprotected</th><th>Levee</th></tr>%n"
                        + "<tr><td>time to recover after the outage (goodput &ge; 90%% of offered for 3 s)</td><td>%s</td><td>%s</td></tr>%n"
                        + "<tr><td>retries per request</td><td>%.2f</td><td>%.2f</td></tr>%n</table>%n",
                rn < 0 ? "not recovered" : rn + " s", rl < 0 ? "not recovered" : rl + " s",
                Summary.retriesPerRequest(r, Lab.UNPROTECTED), Summary.retriesPerRequest(r, Lab.PROTECTED)));
    }

    private static String compare(double mine, double other) {
        return mine > other + 0.5 ? "ahead" : mine + 0.5 < other ? "behind" : "";
    }

    private static String ms(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.0f", v);
    }
}

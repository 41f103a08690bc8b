package dev.levee.benchmarks.report;

import java.util.List;
import java.util.Map;

/**
 * Renders the generated part of {@code docs/benchmarks.md}: the run's header (date, command, mode,
 * JDK, CPU, JMH settings), the per-issue targets with their verdicts, and one table per benchmark
 * class with every method at every thread count.
 *
 * <p>Each class table has the columns: threads, method, library, ns/op, ± error (99.9% confidence
 * interval half-width, as JMH reports it), B/op ({@code gc.alloc.rate.norm}), and for Levee rows the
 * ratio to the fastest peer of the same class and thread count and the ratio to the floor at the
 * same thread count (see {@link ResultTable} for the formulas).
 */
final class MarkdownReport {
    private final ResultTable table;
    private final RunSettings settings;
    private final RunContext context;
    private final Map<String, String> failures;

    MarkdownReport(ResultTable table, RunSettings settings, RunContext context) {
        this(table, settings, context, Map.of());
    }

    MarkdownReport(ResultTable table, RunSettings settings, RunContext context, Map<String, String> failures) {
        this.table = table;
        this.settings = settings;
        this.context = context;
        this.failures = failures;
    }

    /**
     * Renders the generated section (without the markers).
     *
     * @return markdown
     */
    String render() {
        StringBuilder md = new StringBuilder();
        md.append("## Results\n\n");
        if (!"full".equals(context.mode())) {
            md.append("> **These are `").append(context.mode()).append("`-mode figures: smoke figures, not the published table.** ")
                    .append("Few, short iterations on a shared machine: they show that every benchmark runs and what it ")
                    .append("allocates; the times and ratios are only indicative. The published table comes from ")
                    .append("`benchmarks/run` (full mode) on a quiet machine.\n\n");
        }
        header(md);
        failures(md);
        targets(md);
        for (String cls : table.classes()) {
            classTable(md, cls);
        }
        return md.toString();
    }

    private void header(StringBuilder md) {
        md.append("| Run | |\n|---|---|\n");
        row(md, "Date", context.date());
        row(md, "Command", "`" + context.command() + "`");
        row(md, "Mode", context.mode());
        if (settings == null) {
            row(md, "Results", "none: no result file was found");
            md.append('\n');
            return;
        }
        row(md, "JDK", settings.jdk());
        row(md, "CPU", context.cpu());
        row(md, "JMH", settings.jmhVersion() + "; mode avgt (ns/op); forks " + settings.forks() + "; warm-up "
                + settings.warmup() + "; measurement " + settings.measurement() + "; threads "
                + String.join(", ", settings.threads().stream().map(String::valueOf).toList())
                + "; profilers: " + settings.profilers()
                + (settings.jvmArgs().isEmpty() ? "" : "; JVM args `" + settings.jvmArgs() + "`"));
        md.append('\n');
    }

    private void failures(StringBuilder md) {
        if (failures.isEmpty()) {
            return;
        }
        md.append("### Benchmarks that failed in this run\n\n")
                .append("JMH carried on without them; they are missing from the tables, and the targets that need them ")
                .append("read *not measured*. The full stack traces are in the run's `t<threads>.log`.\n\n")
                .append("| Benchmark | Error |\n|---|---|\n");
        failures.forEach((benchmark, error) -> md.append("| `").append(benchmark).append("` | ")
                .append(error.replace("|", "\\|")).append(" |\n"));
        md.append('\n');
    }

    private void targets(StringBuilder md) {
        md.append("### Per-issue targets\n\n")
                .append("A target is *met* only when the whole confidence interval of the ratio clears it (JMH's 99.9% ")
                .append("intervals of both scores, combined conservatively; shown in brackets), *not met* when the whole ")
                .append("interval misses it, and *not shown (within noise)* when the interval straddles it. Every Levee row ")
                .append("checked runs on the user's path (`execute`, or the permit protocol with the gate reading its own ")
                .append("clock); rows ending in `Extra` (a reading supplied by hand, a fast path only some traffic takes) ")
                .append("are shown for context and never checked. ")
                .append("*Not measured* means the benchmark or method a target needs is absent from the run, with the reason.\n\n")
                .append("| Issue | Target | Threads | Levee method | Compared with | Ratio | Verdict | Note |\n")
                .append("|---|---|---|---|---|---|---|---|\n");
        for (TargetCheck c : Targets.check(table)) {
            md.append("| ").append(c.issue())
                    .append(" | ").append(c.goal())
                    .append(" | ").append(c.threads() == 0 ? "all" : String.valueOf(c.threads()))
                    .append(" | ").append(code(c.subject()))
                    .append(" | ").append(c.comparedWith().isEmpty() ? "–" : c.comparedWith())
                    .append(" | ").append(Format.ratio(c.ratio(), c.low(), c.high()))
                    .append(" | ").append(c.verdict().text())
                    .append(" | ").append(c.note())
                    .append(" |\n");
        }
        md.append('\n');
    }

    private void classTable(StringBuilder md, String cls) {
        md.append("### ").append(cls).append("\n\n");
        md.append("| Threads | Method | Library | ns/op | ± | B/op | × fastest peer | × floor |\n")
                .append("|---:|---|---|---:|---:|---:|---:|---:|\n");
        List<Measurement> rows = table.rowsOf(cls);
        for (Measurement m : rows) {
            boolean levee = m.library() == Library.LEVEE;
            String time = Format.nanos(m.score());
            if (!"ns/op".equals(m.unit())) {
                time += " " + m.unit();
            }
            md.append("| ").append(m.threads())
                    .append(" | ").append(levee ? "**" + m.method() + "**" : m.method())
                    .append(" | ").append(m.library().display()).append(m.extra() ? " (extra)" : "")
                    .append(" | ").append(time)
                    .append(" | ").append(Format.error(m.error()))
                    .append(" | ").append(Format.bytes(m.bytesPerOp()))
                    .append(" | ").append(levee ? Format.ratio(table.ratioToFastestPeer(m)) : "")
                    .append(" | ").append(levee || m.library() == Library.REFERENCE ? Format.ratio(table.ratioToFloor(m)) : "")
                    .append(" |\n");
        }
        md.append('\n');
    }

    private static void row(StringBuilder md, String key, String value) {
        md.append("| ").append(key).append(" | ").append(value.replace("|", "\\|")).append(" |\n");
    }

    private static String code(String s) {
        return s.isEmpty() ? "–" : "`" + s.replace("|", "\\|") + "`";
    }
}

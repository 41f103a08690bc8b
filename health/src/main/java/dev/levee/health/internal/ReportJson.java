package dev.levee.health.internal;

import dev.levee.health.CheckResult;
import dev.levee.health.HealthReport;

/** Writes a {@link HealthReport} as JSON; the shape is documented on {@link HealthReport#toJson}. */
public final class ReportJson {
    private ReportJson() {}

    /**
     * Writes the report.
     *
     * @param report the report
     * @param withDetails whether to include the checks, their messages and details
     * @return the JSON text, ASCII only
     */
    public static String write(HealthReport report, boolean withDetails) {
        StringBuilder out = new StringBuilder(withDetails ? 256 + 128 * report.checks().size() : 48);
        out.append("{\"level\":");
        Json.string(out, report.level().tag());
        out.append(",\"status\":");
        Json.string(out, report.status().tag());
        if (withDetails) {
            out.append(",\"timestamp\":");
            Json.string(out, report.timestamp().toString());
            out.append(",\"checks\":[");
            boolean first = true;
            for (CheckResult c : report.checks()) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                check(out, c);
            }
            out.append(']');
        }
        out.append('}');
        return out.toString();
    }

    private static void check(StringBuilder out, CheckResult c) {
        out.append("{\"name\":");
        Json.string(out, c.name());
        out.append(",\"status\":");
        Json.string(out, c.status().tag());
        out.append(",\"critical\":").append(c.critical());
        out.append(",\"latency_ms\":");
        Json.number(out, c.latencyNanos() / 1e6);
        out.append(",\"message\":");
        Json.value(out, c.message());
        out.append(",\"details\":");
        Json.value(out, c.details());
        out.append('}');
    }
}

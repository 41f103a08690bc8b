package dev.levee.benchmarks.report;

import java.util.Locale;

/** Number formatting for the report: fixed locale, so the page does not change with the machine's. */
final class Format {
    private Format() {}

    /**
     * A time in ns: one decimal below 100, none above.
     *
     * @param nanos the time
     * @return the text; {@code n/a} for NaN
     */
    static String nanos(double nanos) {
        if (Double.isNaN(nanos)) {
            return "n/a";
        }
        return String.format(Locale.ROOT, nanos < 100 ? "%.1f" : "%.0f", nanos);
    }

    /**
     * A JMH error: {@code ± x}, or a dash when JMH had too few iterations to compute it.
     *
     * @param error the half-width of the confidence interval
     * @return the text
     */
    static String error(double error) {
        return Double.isNaN(error) ? "–" : "± " + nanos(error);
    }

    /**
     * Bytes per operation, always to two decimals, so an allocation every few hundred calls (0.05 B/op)
     * cannot print as 0: {@code 0.00} below {@link Measurement#ZERO_BYTES} (harness noise).
     *
     * @param bytes the figure
     * @return the text; {@code n/a} when not measured
     */
    static String bytes(double bytes) {
        if (Double.isNaN(bytes)) {
            return "n/a";
        }
        return String.format(Locale.ROOT, "%.2f", bytes < Measurement.ZERO_BYTES ? 0.0 : bytes);
    }

    /**
     * A ratio with its confidence interval: {@code 0.42× [0.38–0.47]}; the bare ratio when the interval
     * is unknown.
     *
     * @param ratio the point ratio
     * @param low the interval's low end, NaN if unknown
     * @param high the interval's high end, NaN if unknown (infinite if the divisor's interval reaches 0)
     * @return the text
     */
    static String ratio(double ratio, double low, double high) {
        if (Double.isNaN(low) || Double.isNaN(high)) {
            return ratio(ratio);
        }
        String hi = Double.isInfinite(high) ? "∞" : String.format(Locale.ROOT, "%.2f", high);
        return ratio(ratio) + String.format(Locale.ROOT, " [%.2f–%s]", low, hi);
    }

    /**
     * A ratio: {@code 0.42×}; a dash when not computable.
     *
     * @param ratio the ratio
     * @return the text
     */
    static String ratio(double ratio) {
        return Double.isNaN(ratio) || Double.isInfinite(ratio) ? "–" : String.format(Locale.ROOT, "%.2f×", ratio);
    }
}

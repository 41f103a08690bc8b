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
     * Bytes per operation: {@code 0} below {@link Measurement#ZERO_BYTES} (harness noise), otherwise
     * rounded.
     *
     * @param bytes the figure
     * @return the text; {@code n/a} when not measured
     */
    static String bytes(double bytes) {
        if (Double.isNaN(bytes)) {
            return "n/a";
        }
        if (bytes < Measurement.ZERO_BYTES) {
            return "0";
        }
        return String.format(Locale.ROOT, bytes < 10 ? "%.1f" : "%.0f", bytes);
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

package dev.levee.lab;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleUnaryOperator;

/**
 * One inline-SVG line chart over the run's seconds, with the script's phases drawn as bands. Every
 * series is one {@code <path class="series">}; a NaN value breaks the line. The chart declares how many
 * series it holds ({@code data-series}) so the browser check can compare with what was drawn.
 */
final class Chart {
    static final int WIDTH = 960;
    static final int HEIGHT = 230;
    private static final int LEFT = 56;
    private static final int RIGHT = 12;
    private static final int TOP = 22;
    private static final int BOTTOM = 26;

    /**
     * One line.
     *
     * @param name its legend
     * @param color its stroke colour
     * @param dashed whether it is drawn dashed (reference lines such as the offered load)
     * @param values one value per second; NaN for none
     */
    record Series(String name, String color, boolean dashed, double[] values) {}

    private final String id;
    private final String title;
    private final String unit;
    private final Script script;
    private final List<Series> series = new ArrayList<>();
    private final List<double[]> references = new ArrayList<>();
    private boolean logScale;
    private String[] levelNames;

    Chart(String id, String title, String unit, Script script) {
        this.id = id;
        this.title = title;
        this.unit = unit;
        this.script = script;
    }

    Chart add(Series s) {
        series.add(s);
        return this;
    }

    /** A horizontal reference line (not a series), e.g. the capacity. */
    Chart reference(double value) {
        references.add(new double[] {value});
        return this;
    }

    Chart logScale() {
        this.logScale = true;
        return this;
    }

    /** Names for the integer levels 0..n-1 (the breaker's states). */
    Chart levels(String... names) {
        this.levelNames = names.clone();
        return this;
    }

    int seriesCount() {
        return series.size();
    }

    String html() {
        int seconds = script.seconds();
        double max = 1;
        for (Series s : series) {
            for (int i = 0; i < Math.min(seconds, s.values().length); i++) {
                if (!Double.isNaN(s.values()[i])) {
                    max = Math.max(max, s.values()[i]);
                }
            }
        }
        for (double[] r : references) {
            max = Math.max(max, r[0]);
        }
        if (levelNames != null) {
            max = levelNames.length - 1;
        }
        double top = logScale ? Math.pow(10, Math.ceil(Math.log10(max + 1))) : niceCeiling(max * 1.05);
        DoubleUnaryOperator y = logScale
                ? v -> TOP + (HEIGHT - TOP - BOTTOM) * (1 - Math.log10(1 + Math.max(0, v)) / Math.log10(1 + top))
                : v -> TOP + (HEIGHT - TOP - BOTTOM) * (1 - v / top);
        double plotWidth = WIDTH - LEFT - RIGHT;
        DoubleUnaryOperator x = t -> LEFT + plotWidth * t / seconds;
        StringBuilder b = new StringBuilder();
        b.append("<figure class=\"figure\"><figcaption>").append(Html.escape(title)).append("</figcaption>\n");
        b.append(String.format(Locale.ROOT, "<svg class=\"chart\" id=\"chart-%s\" data-series=\"%d\" viewBox=\"0 0 %d %d\" "
                + "width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"%s\">%n", id, series.size(), WIDTH, HEIGHT, WIDTH,
                HEIGHT, Html.escape(title)));
        // Phase bands and labels.
        int t = 0;
        int index = 0;
        for (Phase p : script.phases()) {
            double x0 = x.applyAsDouble(t);
            double x1 = x.applyAsDouble(t + p.seconds());
            b.append(String.format(Locale.ROOT, "<rect class=\"phase\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>%n",
                    x0, TOP, x1 - x0, HEIGHT - TOP - BOTTOM, index % 2 == 0 ? "#f4f6f8" : "#e9edf1"));
            b.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" class=\"phase-label\">%s</text>%n",
                    x0 + 3, TOP - 6, Html.escape(p.key())));
            t += p.seconds();
            index++;
        }
        // Axes and grid.
        int ticks = levelNames != null ? levelNames.length - 1 : 4;
        for (int k = 0; k <= ticks; k++) {
            double v = logScale ? (k == 0 ? 0 : Math.pow(10, Math.log10(top) * k / ticks)) : top * k / ticks;
            double yy = y.applyAsDouble(v);
            String label = levelNames != null ? levelNames[k] : format(v);
            b.append(String.format(Locale.ROOT, "<line class=\"grid\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>"
                    + "<text class=\"axis\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n",
                    LEFT, WIDTH - RIGHT, yy, yy, LEFT - 4, yy + 4, label));
        }
        for (int s = 0; s <= seconds; s += seconds > 60 ? 20 : 5) {
            double xx = x.applyAsDouble(s);
            b.append(String.format(Locale.ROOT, "<text class=\"axis\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%ds</text>%n",
                    xx, HEIGHT - 8, s));
        }
        b.append(String.format(Locale.ROOT, "<text class=\"axis\" x=\"4\" y=\"12\">%s</text>%n", Html.escape(unit)));
        for (double[] r : references) {
            double yy = y.applyAsDouble(r[0]);
            b.append(String.format(Locale.ROOT, "<line class=\"reference\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>"
                    + "<text class=\"axis\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">capacity</text>%n",
                    LEFT, WIDTH - RIGHT, yy, yy, WIDTH - RIGHT - 2, yy - 3));
        }
        // Series: each point at the middle of its second.
        for (Series s : series) {
            StringBuilder d = new StringBuilder();
            boolean pen = false;
            for (int i = 0; i < Math.min(seconds, s.values().length); i++) {
                double v = s.values()[i];
                if (Double.isNaN(v)) {
                    pen = false;
                    continue;
                }
                if (levelNames != null) {
                    // A state holds for the whole second: draw steps, not slopes.
                    d.append(pen ? " L" : (d.length() == 0 ? "M" : " M"));
                    d.append(String.format(Locale.ROOT, "%.1f %.1f L%.1f %.1f", x.applyAsDouble(i), y.applyAsDouble(v),
                            x.applyAsDouble(i + 1), y.applyAsDouble(v)));
                    pen = true;
                    continue;
                }
                d.append(pen ? " L" : (d.length() == 0 ? "M" : " M"));
                d.append(String.format(Locale.ROOT, "%.1f %.1f", x.applyAsDouble(i + 0.5), y.applyAsDouble(v)));
                pen = true;
            }
            b.append(String.format(Locale.ROOT, "<path class=\"series\" data-name=\"%s\" fill=\"none\" stroke=\"%s\" "
                    + "stroke-width=\"2\"%s d=\"%s\"><title>%s</title></path>%n", Html.escape(s.name()), s.color(),
                    s.dashed() ? " stroke-dasharray=\"5 4\"" : "", d, Html.escape(s.name())));
        }
        b.append("</svg>\n<div class=\"legend\">");
        for (Series s : series) {
            b.append(String.format(Locale.ROOT, "<span><i style=\"background:%s\"></i>%s</span>", s.color(), Html.escape(s.name())));
        }
        b.append("</div></figure>\n");
        return b.toString();
    }

    private static double niceCeiling(double v) {
        double magnitude = Math.pow(10, Math.floor(Math.log10(v)));
        for (double step : new double[] {1, 2, 2.5, 5, 10}) {
            if (step * magnitude >= v) {
                return step * magnitude;
            }
        }
        return 10 * magnitude;
    }

    private static String format(double v) {
        return v >= 100 || v == Math.rint(v) ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.1f", v);
    }
}

package dev.levee.benchmarks.report;

/** The outcome of checking one target against one run. */
enum Verdict {
    /** The whole confidence interval of the ratio is within the bound. */
    MET("met"),
    /** The whole confidence interval of the ratio is outside the bound. */
    NOT_MET("**not met**"),
    /**
     * Not shown: the ratio's confidence interval straddles the bound (or there is no interval, with too
     * few iterations), so the run cannot tell. Counts as not met.
     */
    WITHIN_NOISE("**not shown** (within noise)"),
    /** The benchmark or a method the target needs is absent from the run. */
    NOT_MEASURED("not measured");

    private final String text;

    Verdict(String text) {
        this.text = text;
    }

    /**
     * The text shown in the report.
     *
     * @return the text
     */
    String text() {
        return text;
    }
}

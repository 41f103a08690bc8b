package dev.levee.benchmarks.report;

/** The outcome of checking one target against one run. */
enum Verdict {
    /** The measured ratio is within the bound. */
    MET("met"),
    /** The measured ratio is outside the bound. */
    NOT_MET("**not met**"),
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

package dev.levee.lab;

/** What the downstream's own dependencies are doing in a phase. */
enum ServerMode {
    /** Every request takes the base service time. */
    NORMAL,
    /** Every request takes {@link LabSettings#slowFactor()} times longer. */
    SLOW,
    /** A share of requests fails fast with a 500. */
    FAILING,
    /** The dependency is gone: every request hangs, then fails with a 500. */
    OUTAGE
}

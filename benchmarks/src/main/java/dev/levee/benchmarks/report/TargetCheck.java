package dev.levee.benchmarks.report;

/**
 * One line of the targets table: one target checked on one Levee method at one thread count.
 *
 * @param issue the issue that set the target, e.g. {@code #3 circuit breaker}
 * @param goal the target in words, e.g. {@code ≤ 0.6× resilience4j count window}
 * @param threads the thread count checked
 * @param subject what was measured, e.g. {@code CircuitBreakerClosedBenchmark.leveeCountWindow}, or
 *     the class pattern when nothing matched
 * @param comparedWith the divisor, e.g. {@code resilience4jCountWindow (41.2 ns)}
 * @param ratio the measured ratio; NaN when not measured
 * @param low the low end of the ratio's confidence interval; NaN when unknown
 * @param high the high end of the ratio's confidence interval; NaN when unknown
 * @param verdict met, not met, within noise, or not measured
 * @param note why a target is not measured, or which methods allocate; empty otherwise
 */
record TargetCheck(
        String issue,
        String goal,
        int threads,
        String subject,
        String comparedWith,
        double ratio,
        double low,
        double high,
        Verdict verdict,
        String note) {}

package dev.levee.benchmarks.report;

/**
 * What the JMH results do not record about a run, passed in by {@code benchmarks/run}.
 *
 * @param mode {@code full}, {@code quick} or {@code smoke}; anything but {@code full} is marked as
 *     smoke figures in the report
 * @param command the exact command that produced the results
 * @param date when the run was made, e.g. {@code 2025-01-31 14:02 UTC}
 * @param cpu the CPU it ran on
 */
record RunContext(String mode, String command, String date, String cpu) {}

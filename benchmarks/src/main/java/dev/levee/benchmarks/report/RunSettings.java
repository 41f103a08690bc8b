package dev.levee.benchmarks.report;

import java.util.SortedSet;

/**
 * How the results were produced, as JMH recorded it in each result: shown in the report's header so
 * every figure can be traced to its settings.
 *
 * @param jmhVersion JMH's version
 * @param jdk the JDK version and VM, e.g. {@code 17.0.15 (OpenJDK 64-Bit Server VM 17.0.15+6)}
 * @param jvmArgs the forked JVM's extra arguments, space-separated; empty when none
 * @param forks forks per benchmark
 * @param warmup warm-up iterations and time, e.g. {@code 1 × 1 s}
 * @param measurement measurement iterations and time, e.g. {@code 2 × 1 s}
 * @param threads the thread counts present in the results
 * @param profilers what the secondary metrics say was profiled, e.g. {@code gc}
 */
record RunSettings(
        String jmhVersion,
        String jdk,
        String jvmArgs,
        int forks,
        String warmup,
        String measurement,
        SortedSet<Integer> threads,
        String profilers) {}

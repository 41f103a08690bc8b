package dev.levee.examples;

import java.io.PrintStream;

/**
 * A chaos test of a pipeline, as {@code docs/chaos.md} writes it: hypothesis, injection, measurement.
 * Deterministic (seeded injection, manual time).
 */
public final class ChaosDemo {
    private ChaosDemo() {}

    /**
     * Runs the demo.
     *
     * @param out where to print
     */
    public static void run(PrintStream out) {
        out.println("hypothesis: with prices failing 30% of the time, retry (3 attempts) keeps >= 97% of calls successful");
        ChaosExamples.Experiment e = ChaosExamples.chaosTestOfAPipeline(sku -> 1999L);
        out.printf("injected %d faults into %d calls; %d succeeded (%.2f%%): hypothesis %s%n", e.injected(), e.calls(),
                e.succeeded(), 100 * e.successRate(), e.successRate() >= 0.97 ? "holds" : "REFUTED");
    }
}

package dev.levee.benchmarks.report;

/**
 * One JMH result: one benchmark method at one thread count.
 *
 * @param className the benchmark class's simple name, e.g. {@code FloorBenchmark}
 * @param method the method name, e.g. {@code nanoTimeAndCas}
 * @param threads the number of benchmark threads ({@code -t})
 * @param score the average time per operation
 * @param error the half-width of JMH's 99.9% confidence interval; NaN with too few iterations
 * @param unit the score's unit, normally {@code ns/op}
 * @param bytesPerOp {@code gc.alloc.rate.norm}; NaN when the run had no {@code -prof gc}
 */
record Measurement(
        String className, String method, int threads, double score, double error, String unit, double bytesPerOp) {

    /** Below this many bytes per operation JMH's figure is harness noise: the method allocates nothing. */
    static final double ZERO_BYTES = 0.1;

    /**
     * The library this method measures, from its name.
     *
     * @return the kind
     */
    Library library() {
        return Library.of(className, method);
    }

    /**
     * Whether the method allocates nothing per operation.
     *
     * @return true when B/op was measured and is below {@link #ZERO_BYTES}
     */
    boolean allocatesNothing() {
        return !Double.isNaN(bytesPerOp) && bytesPerOp < ZERO_BYTES;
    }
}

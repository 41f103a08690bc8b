package dev.levee.benchmarks.report;

import java.util.Locale;

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

    /**
     * Below this many bytes per operation JMH's figure is harness noise: the method allocates nothing.
     * JMH's own bookkeeping shows up as 10⁻⁵ to 10⁻³ B/op on the fast rows (a few hundred bytes per
     * iteration spread over millions of calls); one 16-byte object every 1,600 calls (0.01 B/op) still
     * counts as an allocation, and prints as {@code 0.01}.
     */
    static final double ZERO_BYTES = 0.01;

    /** A method whose name ends with this is a labelled extra (see {@link #extra()}). */
    static final String EXTRA_SUFFIX = "Extra";

    /** A method whose name ends with this has no peer (see {@link #peerless()}). */
    static final String PEERLESS_SUFFIX = "Peerless";

    /**
     * The library this method measures, from its name.
     *
     * @return the kind
     */
    Library library() {
        return Library.of(className, method);
    }

    /**
     * The operation this method measures: its name without the library prefix, lower case, e.g.
     * {@code tryacquirerelease} for {@code leveeTryAcquireRelease} and
     * {@code resilience4jTryAcquireRelease}.
     *
     * @return the operation, possibly empty (a method named just {@code guava})
     */
    String operation() {
        String m = method.toLowerCase(Locale.ROOT);
        Library library = library();
        String prefix = library == Library.LEVEE || library.isPeer() ? library.name().toLowerCase(Locale.ROOT) : "";
        return m.startsWith(prefix) ? m.substring(prefix.length()) : m;
    }

    /**
     * Whether {@code other} measures the same operation as this method, by the naming convention:
     * one operation name starts or ends with the other ({@code tryAcquire} ~ {@code tryAcquirePermission},
     * {@code acquireRelease} ~ {@code tryAcquireRelease}); an empty operation matches every one.
     *
     * @param other another measurement of the same class
     * @return true if they are comparable operations
     */
    boolean sameOperation(Measurement other) {
        String a = operation();
        String b = other.operation();
        return a.startsWith(b) || b.startsWith(a) || a.endsWith(b) || b.endsWith(a);
    }

    /**
     * Whether this row is a labelled extra: a Levee row measured off the user's path (a reading supplied
     * by hand, a fast path only some traffic takes), or any row kept for context. Extras are shown,
     * marked, and never checked against a target nor used as a target's divisor.
     *
     * @return true when the method's name ends with {@value #EXTRA_SUFFIX}
     */
    boolean extra() {
        return method.endsWith(EXTRA_SUFFIX);
    }

    /**
     * Whether this Levee row measures a guarantee no peer offers (a cooperative timeout, which never
     * interrupts the call), so it is never divided by a peer's figure: its "× fastest peer" is a dash.
     *
     * @return true when the method's name ends with {@value #PEERLESS_SUFFIX}
     */
    boolean peerless() {
        return method.endsWith(PEERLESS_SUFFIX);
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

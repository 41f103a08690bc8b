package dev.levee.benchmarks.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The measurements of one run, with the look-ups the report needs: the floor at a thread count, the
 * fastest peer of a class at a thread count, and the ratios of a Levee method to both.
 *
 * <p>Ratios are of point estimates (JMH's score), never of interval bounds:
 * {@code × fastest peer = levee / min(peer scores of the same class, thread count and operation)} and
 * {@code × floor = levee / FloorBenchmark.nanoTimeAndCas at the same thread count}. Both are NaN when
 * the divisor was not measured in this run: a ratio across runs would compare two machines' moods.
 *
 * <p><b>Same operation.</b> A class may measure several operations (a bulkhead's bare permit and its
 * {@code execute}); a Levee method is compared with the peer methods that measure the same operation
 * by name ({@link Measurement#sameOperation}), and with every peer method of the class only when no
 * peer method's name matches.
 */
final class ResultTable {
    private final List<Measurement> all;

    ResultTable(List<Measurement> all) {
        this.all = List.copyOf(all);
    }

    /**
     * Every measurement.
     *
     * @return the measurements
     */
    List<Measurement> all() {
        return all;
    }

    /**
     * The benchmark classes present, the floor first, then alphabetical.
     *
     * @return the class names
     */
    List<String> classes() {
        TreeSet<String> names = all.stream().map(Measurement::className).collect(Collectors.toCollection(TreeSet::new));
        List<String> ordered = new ArrayList<>();
        if (names.remove(Library.FLOOR_CLASS)) {
            ordered.add(Library.FLOOR_CLASS);
        }
        ordered.addAll(names);
        return ordered;
    }

    /**
     * The measurements of one class, by thread count, then Levee first, then peers, then the rest,
     * then by name.
     *
     * @param className the class
     * @return its rows
     */
    List<Measurement> rowsOf(String className) {
        return all.stream()
                .filter(m -> m.className().equals(className))
                .sorted(Comparator.comparingInt(Measurement::threads)
                        .thenComparing(m -> m.library().ordinal())
                        .thenComparing(Measurement::method))
                .collect(Collectors.toList());
    }

    /**
     * Measurements matching a filter.
     *
     * @param filter the filter
     * @return the matching measurements, in run order
     */
    List<Measurement> where(Predicate<Measurement> filter) {
        return all.stream().filter(filter).collect(Collectors.toList());
    }

    /**
     * The floor ({@code FloorBenchmark.nanoTimeAndCas}) at a thread count.
     *
     * @param threads the thread count
     * @return its measurement, if measured
     */
    Optional<Measurement> floor(int threads) {
        return all.stream()
                .filter(m -> m.className().equals(Library.FLOOR_CLASS)
                        && m.method().equals(Library.FLOOR_METHOD)
                        && m.threads() == threads)
                .findFirst();
    }

    /**
     * The fastest peer method measuring the same operation as {@code m} (same class and thread count),
     * or, when no peer method matches the operation, the fastest peer method of the class.
     *
     * @param m a measurement, normally of Levee
     * @return the fastest peer's measurement, if any peer was measured
     */
    Optional<Measurement> fastestPeer(Measurement m) {
        return fastestComparable(m, p -> p.library().isPeer());
    }

    /**
     * The fastest measurement of {@code m}'s class and thread count accepted by {@code filter},
     * preferring those that measure the same operation as {@code m}.
     *
     * @param m the measurement to compare
     * @param filter which methods may be compared with it
     * @return the fastest comparable measurement, if any
     */
    Optional<Measurement> fastestComparable(Measurement m, Predicate<Measurement> filter) {
        Predicate<Measurement> candidates = p -> p.className().equals(m.className()) && p.threads() == m.threads()
                && filter.test(p);
        Optional<Measurement> same = fastest(candidates.and(m::sameOperation));
        return same.isPresent() ? same : fastest(candidates);
    }

    /**
     * The fastest measurement matching a filter (ignoring scores JMH could not compute).
     *
     * @param filter the filter
     * @return the fastest, if any matched
     */
    Optional<Measurement> fastest(Predicate<Measurement> filter) {
        return all.stream()
                .filter(filter)
                .filter(m -> !Double.isNaN(m.score()))
                .min(Comparator.comparingDouble(Measurement::score));
    }

    /**
     * {@code m / fastest peer of its class and thread count}.
     *
     * @param m a measurement
     * @return the ratio, NaN when no peer was measured
     */
    double ratioToFastestPeer(Measurement m) {
        if (m.peerless()) {
            return Double.NaN;
        }
        return fastestPeer(m).map(p -> m.score() / p.score()).orElse(Double.NaN);
    }

    /**
     * {@code m / floor at its thread count}.
     *
     * @param m a measurement
     * @return the ratio, NaN when the floor was not measured
     */
    double ratioToFloor(Measurement m) {
        return floor(m.threads()).map(f -> m.score() / f.score()).orElse(Double.NaN);
    }
}

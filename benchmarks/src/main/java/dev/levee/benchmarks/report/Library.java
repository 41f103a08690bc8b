package dev.levee.benchmarks.report;

import java.util.List;
import java.util.Locale;

/**
 * Which library a benchmark method measures, read from the naming convention of this module:
 * <ul>
 *   <li>a name starting with {@code levee} measures Levee;</li>
 *   <li>a name starting with a peer's name ({@code resilience4j}, {@code bucket4j}, {@code guava},
 *       {@code failsafe}, {@code netflix}) measures that peer;</li>
 *   <li>every method of {@code FloorBenchmark} is the floor;</li>
 *   <li>anything else (e.g. {@code baselineDirectCall}) is a reference row: shown, never compared.</li>
 * </ul>
 */
enum Library {
    /** Levee itself. */
    LEVEE("Levee"),
    /** resilience4j 2.x. */
    RESILIENCE4J("resilience4j"),
    /** bucket4j. */
    BUCKET4J("bucket4j"),
    /** Guava's RateLimiter. */
    GUAVA("Guava"),
    /** Failsafe 3.x. */
    FAILSAFE("Failsafe"),
    /** Netflix concurrency-limits. */
    NETFLIX("Netflix concurrency-limits"),
    /** A method of {@code FloorBenchmark}. */
    FLOOR("floor"),
    /** A baseline or any method outside the convention. */
    REFERENCE("reference");

    /** The peers, in the order the convention lists them. */
    static final List<Library> PEERS = List.of(RESILIENCE4J, BUCKET4J, GUAVA, FAILSAFE, NETFLIX);

    /** The benchmark class holding the floor. */
    static final String FLOOR_CLASS = "FloorBenchmark";
    /** The floor method every ratio "× floor" divides by: a clock reading plus an uncontended CAS. */
    static final String FLOOR_METHOD = "nanoTimeAndCas";

    private final String display;

    Library(String display) {
        this.display = display;
    }

    /**
     * The name shown in the report.
     *
     * @return the display name
     */
    String display() {
        return display;
    }

    /**
     * Whether this is one of the peers Levee is compared with.
     *
     * @return true for a peer
     */
    boolean isPeer() {
        return PEERS.contains(this);
    }

    /**
     * Classifies a method.
     *
     * @param className the simple class name
     * @param method the method name
     * @return its library
     */
    static Library of(String className, String method) {
        if (FLOOR_CLASS.equals(className)) {
            return FLOOR;
        }
        String m = method.toLowerCase(Locale.ROOT);
        if (m.startsWith("levee")) {
            return LEVEE;
        }
        for (Library peer : PEERS) {
            if (m.startsWith(peer.name().toLowerCase(Locale.ROOT))) {
                return peer;
            }
        }
        return REFERENCE;
    }
}

package dev.levee.lab;

import java.util.ArrayList;
import java.util.List;

/**
 * The scripted phases every configuration runs: steady, slow, failing, outage, recovery, a 5x spike and a
 * cool-down. The long script is the same with every phase four times longer.
 *
 * @param name short or long
 * @param phases the phases in order
 */
record Script(String name, List<Phase> phases) {

    static Script shortRun() {
        return scaled("short", 1);
    }

    static Script longRun() {
        return scaled("long", 4);
    }

    /** A few seconds at low load on throwaway servers, so class loading and the JIT do not land in the first phase. */
    static Script warmup() {
        return new Script("warm-up", List.of(new Phase("warm-up", 4, 1, ServerMode.NORMAL, "warming up the JVM")));
    }

    static Script scaled(String name, int factor) {
        List<Phase> p = new ArrayList<>();
        p.add(new Phase("steady", 6 * factor, 1, ServerMode.NORMAL,
                "half of capacity: both configurations serve everything"));
        p.add(new Phase("slow", 5 * factor, 1, ServerMode.SLOW,
                "every request 1.6x slower: capacity falls to 25/s, still above the load"));
        p.add(new Phase("failing", 5 * factor, 1, ServerMode.FAILING,
                "40% of requests fail fast: naive retries add load, budgeted retries do not"));
        p.add(new Phase("outage", 5 * factor, 1, ServerMode.OUTAGE,
                "the dependency is gone: requests hang 2 s, then fail"));
        p.add(new Phase("recovery", 8 * factor, 1, ServerMode.NORMAL,
                "the dependency is back: how fast does goodput return?"));
        p.add(new Phase("spike", 8 * factor, 5, ServerMode.NORMAL,
                "5x traffic, 2.5x capacity: keep serving capacity or collapse?"));
        p.add(new Phase("cooldown", 6 * factor, 1, ServerMode.NORMAL,
                "back to half of capacity"));
        return new Script(name, List.copyOf(p));
    }

    int seconds() {
        return phases.stream().mapToInt(Phase::seconds).sum();
    }

    /** The phase running during second {@code second} (0-based); the last phase after the end. */
    Phase phaseAt(int second) {
        int t = 0;
        for (Phase p : phases) {
            t += p.seconds();
            if (second < t) {
                return p;
            }
        }
        return phases.get(phases.size() - 1);
    }

    /** The first second of the phase named {@code key}. */
    int startOf(String key) {
        int t = 0;
        for (Phase p : phases) {
            if (p.key().equals(key)) {
                return t;
            }
            t += p.seconds();
        }
        throw new IllegalArgumentException("no phase " + key);
    }

    Phase phase(String key) {
        return phases.stream().filter(p -> p.key().equals(key)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no phase " + key));
    }
}

package dev.levee.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The lab's claims, asserted on its recorded numbers. The runs are on virtual time
 * ({@link SimEnvironment}): the same downstream, clients and Levee policies as the real run, with a
 * manual clock and a simulated wire, so the verdict does not depend on how fast this (shared, loaded)
 * machine is, and a failure reproduces from its seed.
 */
class LabSimulationTest {

    /** One run per seed, shared by the tests (a run is deterministic for its seed). */
    private static final Map<Long, LabResult> RUNS = new HashMap<>();

    static synchronized LabResult shortRun(long seed) throws Exception {
        LabResult cached = RUNS.get(seed);
        if (cached == null) {
            cached = freshRun(seed);
            RUNS.put(seed, cached);
        }
        return cached;
    }

    static LabResult freshRun(long seed) throws Exception {
        return run(Script.shortRun(), seed);
    }

    static LabResult run(Script script, long seed) throws Exception {
        LabSettings settings = LabSettings.defaults();
        try (SimEnvironment env = new SimEnvironment(settings)) {
            return Lab.run(script, settings, env, seed, new PrintStream(OutputStream.nullOutputStream()));
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {42, 7, 2024})
    void inTheSpikeLeveeServesCapacityAndTheUnprotectedServiceCollapses(long seed) throws Exception {
        LabResult result = shortRun(seed);

        assertThat(Summary.phase(result, Lab.PROTECTED, "spike").capacityShare()).isGreaterThanOrEqualTo(0.9);
        assertThat(Summary.phase(result, Lab.UNPROTECTED, "spike").capacityShare()).isLessThanOrEqualTo(0.5);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {42, 7, 2024})
    void afterTheOutageLeveeRecoversWithinFiveSecondsAndNaiveRetriesAmplify(long seed) throws Exception {
        LabResult result = shortRun(seed);

        assertThat(Summary.recoverySeconds(result, Lab.PROTECTED)).isBetween(0, 5);
        assertThat(Summary.phase(result, Lab.UNPROTECTED, "recovery").amplification()).isGreaterThanOrEqualTo(2.0);
    }

    @Test
    void aRunIsDeterministicForItsSeed() throws Exception {
        LabResult a = shortRun(42);
        LabResult b = freshRun(42);

        for (String config : new String[] {Lab.UNPROTECTED, Lab.PROTECTED}) {
            assertThat(b.series(config).seconds().stream().mapToInt(s -> s.good).toArray())
                    .containsExactly(a.series(config).seconds().stream().mapToInt(s -> s.good).toArray());
            assertThat(b.series(config).seconds().stream().mapToInt(s -> s.attempts).toArray())
                    .containsExactly(a.series(config).seconds().stream().mapToInt(s -> s.attempts).toArray());
        }
    }

    @Test
    void theLoadIsBoundedByTheScript() throws Exception {
        LabResult result = shortRun(42);
        Script script = result.script();
        int expected = script.phases().stream().mapToInt(p -> (int) Math.round(p.seconds() * 20 * p.load())).sum();

        for (LabResult.Series series : result.series()) {
            assertThat(series.seconds().stream().mapToInt(s -> s.offered).sum()).isEqualTo(expected);
            assertThat(series.seconds().stream().mapToInt(s -> s.attempts).sum()).isLessThanOrEqualTo(4 * expected);
        }
    }

    @Test
    void theLongScriptShowsTheSame() throws Exception {
        LabResult result = run(Script.longRun(), 42);

        assertThat(Verdict.of(result)).allMatch(Verdict::pass);
        assertThat(result.script().seconds()).isEqualTo(4 * Script.shortRun().seconds());
    }
}

package dev.levee.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.io.PrintStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The lab's claims, asserted on its recorded numbers. The runs are on virtual time
 * ({@link SimEnvironment}): the same downstream, clients and Levee policies as the real run, with a
 * manual clock and a simulated wire, so the verdict does not depend on how fast this (shared, loaded)
 * machine is, and a failure reproduces from its seed.
 */
class LabSimulationTest {

    static LabResult shortRun(long seed) throws Exception {
        LabSettings settings = LabSettings.defaults();
        try (SimEnvironment env = new SimEnvironment(settings)) {
            return Lab.run(Script.shortRun(), settings, env, seed, new PrintStream(OutputStream.nullOutputStream()));
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
}

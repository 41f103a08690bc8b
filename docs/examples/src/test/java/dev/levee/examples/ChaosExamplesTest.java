package dev.levee.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.chaos.Chaos;
import dev.levee.chaos.ChaosKind;
import java.net.ConnectException;
import org.junit.jupiter.api.Test;

class ChaosExamplesTest {

    @Test
    void theThreeKindsAreBuiltAsDocumented() {
        Chaos[] kinds = ChaosExamples.kinds();
        assertThat(kinds).extracting(c -> c.config().kind())
                .containsExactly(ChaosKind.LATENCY, ChaosKind.FAULT, ChaosKind.RESULT);
    }

    @Test
    void theGameDayPolicyInjectsOnlyForTheSelectedTenant() throws Exception {
        boolean[] testTenant = {false};
        Chaos chaos = ChaosExamples.switchable(() -> testTenant[0]);
        for (int i = 0; i < 100; i++) {
            assertThat(chaos.<String, Exception>execute(() -> "ok")).isEqualTo("ok");
        }
        testTenant[0] = true;
        int failed = 0;
        for (int i = 0; i < 100; i++) {
            try {
                chaos.<String, Exception>execute(() -> "ok");
            } catch (ConnectException e) {
                failed++;
            }
        }
        assertThat(failed).isBetween(30, 70);
    }

    @Test
    void theHypothesisHoldsAndTheExperimentReplaysExactly() {
        ChaosExamples.Experiment first = ChaosExamples.chaosTestOfAPipeline(sku -> 1999L);
        assertThat(first.successRate()).isGreaterThanOrEqualTo(0.97);
        assertThat(first.injected()).isBetween(3_000, 5_000); // ~0.3 of ~13,000 attempts
        assertThat(ChaosExamples.chaosTestOfAPipeline(sku -> 1999L)).isEqualTo(first);
    }
}

package dev.levee.loadshed.limit;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Seed 002's AIMD, number for number. */
class LatencyAimdLimitTest {
    private static final long MS = 1_000_000L;

    /** Feeds samples one after another, each admitted after the previous one completed. */
    private static final class Script {
        final LatencyAimdLimit aimd;
        long now = 1_000_000 * MS;

        Script(LatencyAimdLimit aimd) {
            this.aimd = aimd;
        }

        int complete(long rttMs) {
            now += rttMs * MS + 1;
            return aimd.update(now, rttMs * MS, 50, false);
        }
    }

    @Test
    void defaultsAreSeed002() {
        assertThat(LatencyAimdLimit.DEFAULT_INITIAL_LIMIT).isEqualTo(100);
        assertThat(LatencyAimdLimit.DEFAULT_MAX_LIMIT).isEqualTo(100);
        assertThat(LatencyAimdLimit.DEFAULT_MIN_LIMIT).isEqualTo(10);
        assertThat(LatencyAimdLimit.DEFAULT_TARGET).isEqualTo(Duration.ofMillis(100));
        assertThat(LatencyAimdLimit.DEFAULT_BACKOFF_RATIO).isEqualTo(0.75);
        assertThat(LatencyAimdLimit.DEFAULT_DECREASE_THRESHOLD).isEqualTo(2.0);
        LatencyAimdLimit d = LatencyAimdLimit.defaults();
        assertThat(d.initialLimit()).isEqualTo(100);
        assertThat(d.minLimit()).isEqualTo(10);
        assertThat(d.maxLimit()).isEqualTo(100);
    }

    @Test
    void scriptedSequenceMatchesTheSeedExactly() {
        Script s = new Script(LatencyAimdLimit.builder().maxLimit(1000).build());
        assertThat(s.complete(50)).as("fast: +1").isEqualTo(101);
        assertThat(s.complete(99)).as("fast: +1").isEqualTo(102);
        assertThat(s.complete(100)).as("exactly the target: hold").isEqualTo(102);
        assertThat(s.complete(150)).as("between target and 2x target: hold").isEqualTo(102);
        assertThat(s.complete(200)).as("exactly 2x target: hold").isEqualTo(102);
        assertThat(s.complete(201)).as("above 2x: int(102 * 0.75)").isEqualTo(76);
        assertThat(s.complete(10)).isEqualTo(77);
        assertThat(s.complete(10)).isEqualTo(78);
        assertThat(s.complete(10)).isEqualTo(79);
        assertThat(s.complete(10)).isEqualTo(80);
        assertThat(s.complete(10)).isEqualTo(81);
        // 81 → 60 → 45 → 33 → 24 → 18 → 13 → int(9.75) = 9, held at the floor 10 → 10.
        int[] expected = {60, 45, 33, 24, 18, 13, 10, 10, 10};
        for (int e : expected) {
            assertThat(s.complete(500)).isEqualTo(e);
        }
    }

    @Test
    void theIssuesExampleHundredToHundredOneToSeventyFive() {
        Script s = new Script(LatencyAimdLimit.builder().maxLimit(1000).build());
        assertThat(s.complete(1)).isEqualTo(101);
        assertThat(s.complete(250)).isEqualTo(75);
    }

    @Test
    void withTheSeedsCeilingTheLimitStartsAtItsMaximum() {
        Script s = new Script(LatencyAimdLimit.defaults());
        assertThat(s.complete(1)).isEqualTo(100);
        assertThat(s.complete(300)).isEqualTo(75);
        assertThat(s.complete(1)).isEqualTo(76);
    }

    @Test
    void aDropCountsAsASlowCompletion() {
        LatencyAimdLimit aimd = LatencyAimdLimit.defaults();
        assertThat(aimd.update(10 * MS, 5 * MS, 1, true)).isEqualTo(75);
    }

    @Test
    void onceperRttIgnoresCompletionsAdmittedBeforeTheLastChange() {
        LatencyAimdLimit aimd = LatencyAimdLimit.defaults();
        long now = 10_000 * MS;
        // Three slow completions of requests all admitted at the same instant, before the first cut.
        assertThat(aimd.update(now, 300 * MS, 1, false)).isEqualTo(75);
        assertThat(aimd.update(now + 1, 300 * MS, 1, false)).isEqualTo(75);
        assertThat(aimd.update(now + 2, 300 * MS, 1, false)).isEqualTo(75);
        // A request admitted after the cut may move it again.
        assertThat(aimd.update(now + 400 * MS, 300 * MS, 1, false)).isEqualTo(56);
    }

    @Test
    void literalSeedRuleCutsOnEveryCompletion() {
        LatencyAimdLimit aimd = LatencyAimdLimit.builder().oncePerRtt(false).build();
        long now = 10_000 * MS;
        assertThat(aimd.update(now, 300 * MS, 1, false)).isEqualTo(75);
        assertThat(aimd.update(now + 1, 300 * MS, 1, false)).isEqualTo(56);
        assertThat(aimd.update(now + 2, 300 * MS, 1, false)).isEqualTo(42);
        assertThat(aimd.update(now + 3, 1 * MS, 1, false)).isEqualTo(43);
    }
}

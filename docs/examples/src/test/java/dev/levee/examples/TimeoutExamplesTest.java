package dev.levee.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.timeout.DeadlinePropagation;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The snippets of docs/timeout.md that need no network or database. */
class TimeoutExamplesTest {

    @Test
    void requestsWithLessThan100MsLeftAreAnsweredAt504WithoutRunningTheHandler() {
        DeadlinePropagation propagation = DeadlinePropagation.builder().build();
        AtomicBoolean ran = new AtomicBoolean();
        assertThat(TimeoutDemo.acceptIncoming("50m", propagation, () -> ran.set(true))).isEqualTo(504);
        assertThat(ran).isFalse();
        assertThat(TimeoutDemo.acceptIncoming("2S", propagation, () -> ran.set(true))).isEqualTo(200);
        assertThat(ran).isTrue();
    }

    @Test
    void theRetriesOfTheExampleDoNotFit() {
        assertThat(TimeoutDemo.retriesFitTheCallersTimeout()).isFalse();
    }
}

package dev.levee.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.loadshed.ShedDecision;
import org.junit.jupiter.api.Test;

/** The compiled examples of docs/loadshed.md Part II do what the page says. */
class SheddingExamplesTest {

    @Test
    void codelExecutorRunsTheTasks() throws Exception {
        assertThat(SheddingExamples.codelExecutor()).contains(0, 1, 4, 9);
    }

    @Test
    void deadlineQueueServesByPriorityAndDropsWhatCannotFinish() {
        assertThat(SheddingExamples.deadlineQueue()).containsExactly(
                "dropped export (low_priority_shed)",
                "dropped checkout (deadline)",
                "served payment",
                "served search");
    }

    @Test
    void pipelineAndChannel() throws Exception {
        assertThat(SheddingExamples.channelPipeline()).isEqualTo(100);
        assertThat(SheddingExamples.boundedChannel()).containsExactly(0.75, 0.5);
    }

    @Test
    void shedders() {
        assertThat(SheddingExamples.pidShedder()).isEqualTo(1.0);
        assertThat(SheddingExamples.priorityShedder()).containsExactly(8, 9, 10);
        assertThat(SheddingExamples.adaptiveShedder()).containsEntry("Retry-After", "5")
                .containsEntry("X-Shed-Reason", "cpu_high").containsEntry("body", "cpu_high:0.93");
        assertThat(SheddingExamples.headers()).isEqualTo(ShedDecision.UPSTREAM_LOAD);
        assertThat(SheddingExamples.goodputAndMetrics()).isEqualTo(0.5);
    }
}

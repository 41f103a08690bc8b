package dev.levee.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.DeadlineExceededException;
import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import dev.levee.timeout.DeadlinePropagation;
import dev.levee.timeout.Timeout;
import java.time.Duration;
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
    void theCallerThreadTimeoutInterruptsABlockedCallAndLeavesNoInterruptBehind() throws Exception {
        ManualTicker ticker = new ManualTicker();
        ManualScheduler scheduler = new ManualScheduler(ticker);
        Timeout timeout = TimeoutDemo.callerThreadTimeout(ticker, scheduler);
        assertThat(timeout.execute(() -> "in stock")).isEqualTo("in stock");
        assertThatThrownBy(() -> timeout.execute(() -> {
            scheduler.advance(Duration.ofMillis(800)); // the lookup takes the whole timeout
            return "late";
        })).isInstanceOf(DeadlineExceededException.class);
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }

    @Test
    void theRetriesOfTheExampleDoNotFit() {
        assertThat(TimeoutDemo.retriesFitTheCallersTimeout()).isFalse();
    }
}

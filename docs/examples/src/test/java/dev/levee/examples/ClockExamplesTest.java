package dev.levee.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.ManualTicker;
import dev.levee.core.Pipeline;
import dev.levee.core.Ticker;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ClockExamplesTest {

    @Test
    void aClosedBreakerWithoutASlowCallRuleAndABulkheadReadNoClock() throws Exception {
        ManualTicker time = new ManualTicker();
        AtomicInteger reads = new AtomicInteger();
        Ticker recording = () -> {
            reads.incrementAndGet();
            return time.read();
        };
        Pipeline pipeline = ClockExamples.noClockPipeline(recording);
        reads.set(0); // building the breaker read the clock once, for its initial state
        for (int i = 0; i < 1_000; i++) {
            assertThat(pipeline.execute(() -> "ok")).isEqualTo("ok");
        }
        assertThatThrownBy(() -> pipeline.execute(() -> {
            throw new IOException("one failure");
        })).isInstanceOf(IOException.class);
        assertThat(reads.get()).isZero();
    }

    @Test
    void theCoarsePipelineRuns() throws Exception {
        assertThat(ClockExamples.coarsePipeline().execute(() -> "paid")).isEqualTo("paid");
    }
}

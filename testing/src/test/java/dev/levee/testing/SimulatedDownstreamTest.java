package dev.levee.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.ManualTicker;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SimulatedDownstreamTest {

    @Test
    void aCallTakesItsLatencyAndIsCounted() throws IOException {
        ManualTicker ticker = new ManualTicker();
        SimulatedDownstream server = SimulatedDownstream.builder(ticker).latencyNanos(5_000).build();
        assertThat(server.call()).isEqualTo("ok");
        assertThat(ticker.read()).isEqualTo(5_000);
        assertThat(server.calls()).isEqualTo(1);
        assertThat(server.failures()).isZero();
        assertThat(server.inFlight()).isZero();
        assertThat(server.maxInFlight()).isEqualTo(1);
    }

    @Test
    void theFailureRateIsSeededAndReproducible() {
        long first = failuresOf(SimulatedDownstream.builder(new ManualTicker()).failureRate(0.3).seed(7).build());
        long again = failuresOf(SimulatedDownstream.builder(new ManualTicker()).failureRate(0.3).seed(7).build());
        assertThat(first).isEqualTo(again).isBetween(250L, 350L);
    }

    @Test
    void anOutageFailsEveryCall() {
        SimulatedDownstream server = SimulatedDownstream.builder(new ManualTicker()).build();
        server.down(true);
        assertThatThrownBy(server::call).isInstanceOf(IOException.class);
        server.down(false);
        assertThat(failuresOf(server)).isZero();
    }

    @Test
    void manyThreadsAreCountedExactly() throws InterruptedException {
        SimulatedDownstream server = SimulatedDownstream.builder(new ManualTicker()).capacity(4).build();
        AtomicLong ok = new AtomicLong();
        Concurrently.run(thread -> {
            for (int i = 0; i < 1_000; i++) {
                server.call();
                ok.incrementAndGet();
            }
        });
        assertThat(server.calls()).isEqualTo(ok.get()).isEqualTo(16_000L);
        assertThat(server.inFlight()).isZero();
        assertThat(server.maxInFlight()).isBetween(1, 16);
    }

    @Test
    void concurrentlyReportsEveryFailingThread() {
        assertThatThrownBy(() -> Concurrently.run(4, thread -> {
            if (thread % 2 == 0) {
                throw new IllegalStateException("thread " + thread);
            }
        })).isInstanceOf(AssertionError.class).hasMessage("2 of 4 threads failed");
    }

    private static long failuresOf(SimulatedDownstream server) {
        long failures = 0;
        for (int i = 0; i < 1_000; i++) {
            try {
                server.call();
            } catch (IOException e) {
                failures++;
            }
        }
        return failures;
    }
}

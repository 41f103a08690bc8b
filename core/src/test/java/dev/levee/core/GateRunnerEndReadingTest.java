package dev.levee.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The end reading a gate's completion is given ({@code onResultAt}/{@code onFailureAt}'s first argument),
 * for every run length (1: the gate's own protocol; 2 and 3: the unrolled forms; 4 and 5: the loop): a
 * reading that was not taken is {@link Gate#NO_READING}, never a number a time-bucketing gate could file
 * an outcome under; and two completions throwing one exception instance leave the caller's outcome alone.
 */
class GateRunnerEndReadingTest {
    private final ManualTicker ticker = new ManualTicker(1_000);
    private final List<String> journal = Collections.synchronizedList(new ArrayList<>());

    /** Records the end reading and latency of its last completion. */
    private final class EndGate extends RecordingGate {
        final TimeNeed need;
        volatile long lastEnd = 42;

        EndGate(String name, TimeNeed need) {
            super(name, ticker, journal);
            this.need = need;
        }

        @Override
        public TimeNeed timeNeed() {
            return need;
        }

        @Override
        public void onResultAt(long endNanos, long latencyNanos, Object result) {
            lastEnd = endNanos;
            onSuccess(latencyNanos);
        }

        @Override
        public void onFailureAt(long endNanos, long latencyNanos, Throwable error) {
            lastEnd = endNanos;
            onFailure(latencyNanos, error);
        }
    }

    private Pipeline pipelineOf(EndGate[] gates) {
        return Pipeline.of((Policy[]) gates);
    }

    private EndGate[] gates(int size, TimeNeed need) {
        EndGate[] gates = new EndGate[size];
        for (int i = 0; i < size; i++) {
            gates[i] = new EndGate("g" + i, need);
        }
        return gates;
    }

    private void assertEnds(EndGate[] gates, long end, long latency) {
        for (EndGate g : gates) {
            assertThat(g.lastEnd).as("end reading of %s", g.name()).isEqualTo(end);
            assertThat(g.lastLatency).as("latency of %s", g.name()).isEqualTo(latency);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5})
    void gatesNeedingNoTimeGetNoEndReading(int size) throws Exception {
        EndGate[] gates = gates(size, TimeNeed.NONE);
        Pipeline pipeline = pipelineOf(gates);

        assertThat(pipeline.execute(() -> "ok")).isEqualTo("ok");
        assertEnds(gates, Gate.NO_READING, Gate.NO_READING);

        gates[0].lastEnd = 42;
        assertThatThrownBy(() -> pipeline.execute(() -> {
            throw new IOException("boom");
        })).isInstanceOf(IOException.class);
        assertEnds(gates, Gate.NO_READING, Gate.NO_READING);

        gates[0].lastEnd = 42;
        assertThat(pipeline.executeAsync(() -> CompletableFuture.completedFuture("ok")).toCompletableFuture().join())
                .isEqualTo("ok");
        assertEnds(gates, Gate.NO_READING, Gate.NO_READING);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5})
    void gatesNeedingOnlyTheStartGetNoEndReading(int size) throws Exception {
        EndGate[] gates = gates(size, TimeNeed.START);
        Pipeline pipeline = pipelineOf(gates);

        assertThat(pipeline.execute(() -> {
            ticker.advance(500);
            return "ok";
        })).isEqualTo("ok");
        assertEnds(gates, Gate.NO_READING, Gate.NO_READING);

        gates[0].lastEnd = 42;
        assertThatThrownBy(() -> pipeline.execute(() -> {
            throw new IOException("boom");
        })).isInstanceOf(IOException.class);
        assertEnds(gates, Gate.NO_READING, Gate.NO_READING);

        gates[0].lastEnd = 42;
        assertThat(pipeline.executeAsync(() -> CompletableFuture.completedFuture("ok")).toCompletableFuture().join())
                .isEqualTo("ok");
        assertEnds(gates, Gate.NO_READING, Gate.NO_READING);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5})
    void oneGateNeedingTheLatencyGivesEveryGateTheSameEndReading(int size) throws Exception {
        EndGate[] gates = gates(size, TimeNeed.NONE);
        gates[size / 2] = new EndGate("latency", TimeNeed.LATENCY);
        Pipeline pipeline = pipelineOf(gates);

        assertThat(pipeline.execute(() -> {
            ticker.advance(500);
            return "ok";
        })).isEqualTo("ok");
        assertEnds(gates, 1_500, 500);

        assertThatThrownBy(() -> pipeline.execute(() -> {
            ticker.advance(250);
            throw new IOException("boom");
        })).isInstanceOf(IOException.class);
        assertEnds(gates, 1_750, 250);
    }

    /** Each gate's completion throws the one instance {@code boom}: it is not suppressed on itself. */
    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4})
    void completionsThrowingTheSameExceptionLeaveTheOutcomeAlone(int size) throws Exception {
        RuntimeException boom = new IllegalStateException("shared classifier threw");
        Policy[] gates = new Policy[size];
        for (int i = 0; i < size; i++) {
            gates[i] = new RecordingGate("g" + i, ticker, journal) {
                @Override
                public void onResult(long latencyNanos, Object result) {
                    super.onSuccess(latencyNanos);
                    throw boom;
                }

                @Override
                public void onFailure(long latencyNanos, Throwable error) {
                    super.onFailure(latencyNanos, error);
                    throw boom;
                }
            };
        }
        Pipeline pipeline = Pipeline.of(gates);

        assertThat(pipeline.execute(() -> "ok")).isEqualTo("ok");
        assertThat(boom.getSuppressed()).isEmpty();

        IOException failure = new IOException("call failed");
        assertThatThrownBy(() -> pipeline.execute(() -> {
            throw failure;
        })).isSameAs(failure);
        assertThat(failure.getSuppressed()).containsExactly(boom);
        assertThat(boom.getSuppressed()).isEmpty();
    }

    @Test
    void anErrorFromOneCompletionAndTheSameErrorFromAnotherIsThrownOnce() {
        AssertionError fatal = new AssertionError("fatal");
        Policy[] gates = new Policy[2];
        for (int i = 0; i < 2; i++) {
            gates[i] = new RecordingGate("g" + i, ticker, journal) {
                @Override
                public void onResult(long latencyNanos, Object result) {
                    throw fatal;
                }
            };
        }
        assertThatThrownBy(() -> Pipeline.of(gates).execute(() -> "ok")).isSameAs(fatal);
        assertThat(fatal.getSuppressed()).isEmpty();
    }
}

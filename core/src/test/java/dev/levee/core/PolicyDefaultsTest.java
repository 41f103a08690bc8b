package dev.levee.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** The default methods of the policy SPI and the end of every chain. */
class PolicyDefaultsTest {
    private final List<String> journal = new ArrayList<>();
    private final ManualTicker ticker = new ManualTicker(40);

    @Test
    void decoratedCheckedCallsRunThroughThePolicyAndKeepTheirResultAndException() throws Exception {
        Policy policy = new RecordingWrapper("w", journal);
        CheckedSupplier<String, IOException> supplier = policy.decorateChecked((CheckedSupplier<String, IOException>) () -> "value");
        assertThat(journal).isEmpty();
        assertThat(supplier.get()).isEqualTo("value");
        assertThat(journal).containsExactly("w.enter", "w.exit");

        journal.clear();
        List<String> ran = new ArrayList<>();
        CheckedRunnable<IOException> runnable = policy.decorateChecked((CheckedRunnable<IOException>) () -> ran.add("ran"));
        assertThat(ran).isEmpty();
        runnable.run();
        assertThat(ran).containsExactly("ran");
        assertThat(journal).containsExactly("w.enter", "w.exit");

        IOException down = new IOException("down");
        CheckedRunnable<IOException> failing = policy.decorateChecked((CheckedRunnable<IOException>) () -> {
            throw down;
        });
        assertThatThrownBy(failing::run).isSameAs(down);
    }

    @Test
    void theDirectChainRunsTheAsyncCallAndTurnsItsFailuresIntoAFailedStage() {
        Chain direct = Chain.direct();
        CompletableFuture<String> stage = CompletableFuture.completedFuture("x");
        assertThat(direct.proceedAsync(() -> stage)).isSameAs(stage);
        IllegalStateException thrown = new IllegalStateException("thrown by the call");
        assertThat(direct.<String>proceedAsync(() -> {
            throw thrown;
        }).toCompletableFuture().handle((r, e) -> e).join()).isSameAs(thrown);
        assertThat(direct.<String>proceedAsync(() -> null).toCompletableFuture().handle((r, e) -> e).join())
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    void aPipelineInsideAnotherChainContinuesIntoThatChain() throws Exception {
        RecordingGate a = new RecordingGate("a", ticker, journal);
        RecordingGate b = new RecordingGate("b", ticker, journal);
        Pipeline inner = Pipeline.of(new RecordingWrapper("w", journal), a, b);
        Chain outerRest = new Chain() {
            @Override
            public <T, E extends Throwable> T proceed(CheckedSupplier<T, E> call) throws E {
                journal.add("rest");
                return call.get();
            }

            @Override
            public <T> CompletionStage<T> proceedAsync(Supplier<? extends CompletionStage<T>> call) {
                journal.add("rest");
                return call.get();
            }
        };
        assertThat(inner.executeAsync(outerRest, () -> CompletableFuture.completedFuture("ok"))
                .toCompletableFuture().join()).isEqualTo("ok");
        assertThat(journal).contains("rest");
        journal.clear();
        assertThat(inner.execute(outerRest, () -> "ok")).isEqualTo("ok");
        assertThat(journal).contains("rest");
    }

    @Test
    void tryAcquireWithoutAReadingReadsTheGatesTicker() {
        RecordingGate gate = new RecordingGate("g", ticker, journal);
        assertThat(gate.tryAcquire()).isTrue();
        gate.permit = false;
        assertThat(gate.tryAcquire()).isFalse();
        assertThat(journal).containsExactly("g.acquire@40", "g.acquire@40(refused)");
    }
}

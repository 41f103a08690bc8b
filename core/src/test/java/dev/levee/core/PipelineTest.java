package dev.levee.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PipelineTest {
    private final List<String> journal = Collections.synchronizedList(new ArrayList<>());
    private final ManualTicker ticker = new ManualTicker(1_000);

    @Test
    void firstPolicyIsOutermost() {
        Policy a = new RecordingWrapper("a", journal);
        Policy b = new RecordingWrapper("b", journal);
        Policy c = new RecordingWrapper("c", journal);

        String result = Pipeline.of(a, b, c).execute(() -> {
            journal.add("call");
            return "ok";
        });

        assertThat(result).isEqualTo("ok");
        assertThat(journal).containsExactly("a.enter", "b.enter", "c.enter", "call", "c.exit", "b.exit", "a.exit");
    }

    @Test
    void everyOrderOfWrapperAndGatesIsObservable() {
        RecordingGate g1 = new RecordingGate("g1", ticker, journal);
        RecordingWrapper w = new RecordingWrapper("w", journal);
        RecordingGate g2 = new RecordingGate("g2", ticker, journal);

        Pipeline.of(w, g1, g2).execute(() -> journal.add("call"));
        assertThat(journal).containsExactly(
                "w.enter", "g1.acquire@1000", "g2.acquire@1000", "call", "g2.success(0)", "g1.success(0)", "w.exit");

        journal.clear();
        Pipeline.of(g1, w, g2).execute(() -> journal.add("call"));
        assertThat(journal).containsExactly(
                "g1.acquire@1000", "w.enter", "g2.acquire@1000", "call", "g2.success(0)", "w.exit", "g1.success(0)");

        journal.clear();
        Pipeline.of(g2, g1, w).execute(() -> journal.add("call"));
        assertThat(journal).containsExactly(
                "g2.acquire@1000", "g1.acquire@1000", "w.enter", "call", "w.exit", "g1.success(0)", "g2.success(0)");
    }

    @Test
    void consecutiveGatesShareTwoClockReadingsAndTheLatency() {
        AtomicInteger reads = new AtomicInteger();
        Ticker counting = () -> {
            reads.incrementAndGet();
            return ticker.read();
        };
        RecordingGate g1 = new RecordingGate("g1", counting, journal);
        RecordingGate g2 = new RecordingGate("g2", counting, journal);
        RecordingGate g3 = new RecordingGate("g3", counting, journal);
        Pipeline pipeline = Pipeline.of(g1, g2, g3);

        pipeline.execute(() -> ticker.advance(250));

        assertThat(reads.get()).isEqualTo(2);
        assertThat(g1.lastLatency).isEqualTo(250);
        assertThat(g2.lastLatency).isEqualTo(250);
        assertThat(g3.lastLatency).isEqualTo(250);
    }

    @Test
    void gatesWithDifferentTickersAreNotFusedButStillWork() {
        ManualTicker other = new ManualTicker(5);
        RecordingGate g1 = new RecordingGate("g1", ticker, journal);
        RecordingGate g2 = new RecordingGate("g2", other, journal);

        Pipeline.of(g1, g2).execute(() -> "x");

        assertThat(journal).containsExactly("g1.acquire@1000", "g2.acquire@5", "g2.success(0)", "g1.success(0)");
    }

    @Test
    void laterGateRefusalReleasesEarlierGatesAsIgnored() {
        RecordingGate g1 = new RecordingGate("g1", ticker, journal);
        RecordingGate g2 = new RecordingGate("g2", ticker, journal);
        RecordingGate g3 = new RecordingGate("g3", ticker, journal);
        g3.permit = false;
        AtomicInteger calls = new AtomicInteger();

        assertThatThrownBy(() -> Pipeline.of(g1, g2, g3).execute(calls::incrementAndGet))
                .isInstanceOf(BulkheadFullException.class)
                .hasMessage("g3 refused");

        assertThat(calls).hasValue(0);
        assertThat(journal).containsExactly(
                "g1.acquire@1000", "g2.acquire@1000", "g3.acquire@1000(refused)", "g2.ignored", "g1.ignored");
    }

    @Test
    void failuresAreReportedToEveryGateAndRethrownUnchanged() {
        RecordingGate g1 = new RecordingGate("g1", ticker, journal);
        RecordingGate g2 = new RecordingGate("g2", ticker, journal);
        IOException boom = new IOException("boom");

        assertThatThrownBy(() -> Pipeline.of(g1, g2).execute(() -> {
                    throw boom;
                }))
                .isSameAs(boom);
        assertThat(journal).containsExactly(
                "g1.acquire@1000", "g2.acquire@1000", "g2.failure(IOException)", "g1.failure(IOException)");
    }

    @Test
    void nestedPipelinesAreFlattened() {
        Policy a = new RecordingWrapper("a", journal);
        Policy b = new RecordingWrapper("b", journal);
        Policy c = new RecordingWrapper("c", journal);

        Pipeline nested = Pipeline.of(a, Pipeline.of(b, c));

        assertThat(nested.policies()).containsExactly(a, b, c);
        assertThat(nested.name()).isEqualTo("pipeline(a,b,c)");
    }

    @Test
    void aPipelineCanBeUsedAsAPolicyInsideACustomChain() {
        Policy inner = Pipeline.of(new RecordingWrapper("in", journal));
        Policy outer = new RecordingWrapper("out", journal);

        // Calls the pipeline through a non-direct chain: the pipeline must continue into it.
        Chain tail = new Chain() {
            @Override
            public <T, E extends Throwable> T proceed(CheckedSupplier<T, E> call) throws E {
                journal.add("tail");
                return call.get();
            }

            @Override
            public <T> java.util.concurrent.CompletionStage<T> proceedAsync(
                    java.util.function.Supplier<? extends java.util.concurrent.CompletionStage<T>> call) {
                return call.get();
            }
        };
        String r = outer.execute(Chain.direct(), () -> inner.execute(tail, () -> "v"));

        assertThat(r).isEqualTo("v");
        assertThat(journal).containsExactly("out.enter", "in.enter", "tail", "in.exit", "out.exit");
    }

    @Test
    void asyncPathRunsTheSameOrderAndReleasesOnCompletion() {
        RecordingGate g1 = new RecordingGate("g1", ticker, journal);
        RecordingWrapper w = new RecordingWrapper("w", journal);
        CompletableFuture<String> future = new CompletableFuture<>();

        CompletableFuture<String> result =
                Pipeline.of(w, g1).executeAsync(() -> future).toCompletableFuture();

        assertThat(journal).containsExactly("w.enter", "g1.acquire@1000");
        ticker.advance(40);
        future.complete("done");
        assertThat(result.join()).isEqualTo("done");
        assertThat(journal).containsExactly("w.enter", "g1.acquire@1000", "g1.success(40)", "w.exit");
    }

    @Test
    void asyncRejectionArrivesThroughTheStage() {
        RecordingGate g1 = new RecordingGate("g1", ticker, journal);
        RecordingGate g2 = new RecordingGate("g2", ticker, journal);
        g2.permit = false;

        CompletableFuture<Object> result = Pipeline.of(g1, g2)
                .executeAsync(() -> CompletableFuture.completedFuture((Object) "x"))
                .toCompletableFuture();

        assertThatThrownBy(result::join)
                .isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(BulkheadFullException.class);
        assertThat(journal).contains("g1.ignored");
    }

    @Test
    void asyncFailureIsUnwrappedForGates() {
        RecordingGate g1 = new RecordingGate("g1", ticker, journal);
        IllegalStateException boom = new IllegalStateException("boom");

        CompletableFuture<Object> result = g1.executeAsync(() -> CompletableFuture.failedFuture(boom))
                .toCompletableFuture();

        assertThatThrownBy(result::join).hasCause(boom);
        assertThat(journal).contains("g1.failure(IllegalStateException)");
    }

    @Test
    void asyncCallThatThrowsWhileCreatingTheStageFailsTheStage() {
        IllegalStateException boom = new IllegalStateException("boom");
        Policy p = new RecordingWrapper("w", journal);

        CompletableFuture<Object> result = p.executeAsync(() -> {
                    throw boom;
                })
                .toCompletableFuture();

        assertThatThrownBy(result::join).hasCause(boom);
    }

    @Test
    void decoratorsRunThroughThePolicy() throws Exception {
        Policy w = new RecordingWrapper("w", journal);
        java.util.function.Supplier<String> s = () -> "s";
        java.util.concurrent.Callable<String> c = () -> "c";
        Runnable r = () -> journal.add("r");
        java.util.function.Function<Integer, Integer> f = x -> x + 1;
        CheckedFunction<Integer, Integer, IOException> cf = x -> x * 2;

        assertThat(w.decorate(s).get()).isEqualTo("s");
        assertThat(w.decorate(c).call()).isEqualTo("c");
        w.decorate(r).run();
        assertThat(w.decorate(f).apply(1)).isEqualTo(2);
        assertThat(w.decorateChecked(cf).apply(3)).isEqualTo(6);
        assertThat(w.<String>decorateAsync(() -> CompletableFuture.completedFuture("a")).get()
                        .toCompletableFuture().join())
                .isEqualTo("a");
        assertThat(journal).containsSubsequence("w.enter", "w.exit", "w.enter", "w.exit", "w.enter", "r", "w.exit");
    }

    @Test
    void rejectsEmptyAndNullPolicies() {
        assertThatThrownBy(() -> Pipeline.of())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Pipeline: policies must hold at least 1 policy but held 0");
        assertThatThrownBy(() -> Pipeline.of(new RecordingWrapper("a", journal), null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("Pipeline: policies[1] must not be null");
    }

    @Test
    void completionsCarryTheEndReading() {
        long[] seen = new long[2];
        RecordingGate g = new RecordingGate("g", ticker, journal) {
            @Override
            public void onResultAt(long endNanos, long latencyNanos, Object result) {
                seen[0] = endNanos;
                seen[1] = latencyNanos;
                super.onResultAt(endNanos, latencyNanos, result);
            }
        };
        Pipeline.of(g, new RecordingGate("h", ticker, journal)).execute(() -> ticker.advance(30));
        assertThat(seen).containsExactly(1_030, 30);
        journal.clear();
        g.execute(() -> ticker.advance(5));
        assertThat(seen).containsExactly(1_035, 5);
    }

    @Test
    void everyRunLengthRefusesAndReleasesInOrder() {
        for (int length = 1; length <= 5; length++) {
            for (int refusing = 0; refusing < length; refusing++) {
                journal.clear();
                RecordingGate[] gates = new RecordingGate[length];
                for (int i = 0; i < length; i++) {
                    gates[i] = new RecordingGate("g" + i, ticker, journal);
                }
                gates[refusing].permit = false;
                assertThatThrownBy(() -> Pipeline.of(gates).execute(() -> "x"))
                        .isInstanceOf(BulkheadFullException.class);
                List<String> expected = new ArrayList<>();
                for (int i = 0; i <= refusing; i++) {
                    expected.add("g" + i + ".acquire@1000" + (i == refusing ? "(refused)" : ""));
                }
                for (int i = refusing - 1; i >= 0; i--) {
                    expected.add("g" + i + ".ignored");
                }
                assertThat(journal).as("run of %d, gate %d refuses", length, refusing).isEqualTo(expected);
            }
        }
    }

    @Test
    void everyRunLengthReportsSuccessAndFailureInnermostFirst() {
        for (int length = 1; length <= 5; length++) {
            RecordingGate[] gates = new RecordingGate[length];
            for (int i = 0; i < length; i++) {
                gates[i] = new RecordingGate("g" + i, ticker, journal);
            }
            Pipeline pipeline = Pipeline.of(gates);
            journal.clear();
            pipeline.execute(() -> ticker.advance(3));
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < length; i++) {
                expected.add("g" + i + ".acquire@" + (ticker.read() - 3));
            }
            for (int i = length - 1; i >= 0; i--) {
                expected.add("g" + i + ".success(3)");
            }
            assertThat(journal).isEqualTo(expected);

            journal.clear();
            IOException boom = new IOException();
            assertThatThrownBy(() -> pipeline.execute(() -> {
                        throw boom;
                    }))
                    .isSameAs(boom);
            assertThat(journal.subList(length, journal.size()))
                    .allMatch(line -> line.endsWith(".failure(IOException)"))
                    .hasSize(length);
            assertThat(journal.get(length)).startsWith("g" + (length - 1));
        }
    }
}

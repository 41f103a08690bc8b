package dev.levee.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The asynchronous protocol of a gate and of fused gate runs when a gate's permit is not granted at once:
 * it waits (a pending stage), refuses later, or throws. Readings come from one {@link ManualTicker}, so every
 * reading a gate is given, and every latency, is exact.
 */
class GateRunnerAsyncTest {
    private final ManualTicker ticker = new ManualTicker(100);
    private final List<String> journal = new ArrayList<>();

    /** A gate whose asynchronous acquire is scripted, recording the readings of every protocol call. */
    final class ScriptedGate implements Gate {
        final String name;
        Supplier<CompletionStage<Void>> acquire = Gate::granted;
        RuntimeException onIgnore;
        Throwable onResult;

        ScriptedGate(String name) {
            this.name = name;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public Ticker ticker() {
            return ticker;
        }

        @Override
        public boolean tryAcquire(long nowNanos) {
            throw new AssertionError("the asynchronous path must not call tryAcquire");
        }

        @Override
        public CompletionStage<Void> acquireAsync(long nowNanos) {
            journal.add(name + ".acquire@" + nowNanos);
            return acquire.get();
        }

        @Override
        public RejectedException rejection(long nowNanos) {
            return new BulkheadFullException(name, "full", 0);
        }

        @Override
        public void onSuccess(long latencyNanos) {
            journal.add(name + ".success(" + latencyNanos + ")");
        }

        @Override
        public void onResultAt(long endNanos, long latencyNanos, Object result) {
            journal.add(name + ".success@" + endNanos + "(" + latencyNanos + ")");
            if (onResult instanceof RuntimeException) {
                throw (RuntimeException) onResult;
            }
            if (onResult instanceof Error) {
                throw (Error) onResult;
            }
        }

        @Override
        public void onFailure(long latencyNanos, Throwable error) {
            journal.add(name + ".failure(" + latencyNanos + "," + error.getClass().getSimpleName() + ")");
        }

        @Override
        public void onIgnored() {
            throw new AssertionError("the runner passes the reading: onIgnoredAt");
        }

        @Override
        public void onIgnoredAt(long startNanos) {
            journal.add(name + ".ignored@" + startNanos);
            if (onIgnore != null) {
                throw onIgnore;
            }
        }
    }

    private static Throwable failureOf(CompletionStage<?> stage) {
        return stage.toCompletableFuture().handle((r, e) -> e).join();
    }

    private CompletableFuture<String> pendingCall(AtomicInteger calls, CompletableFuture<String> result) {
        calls.incrementAndGet();
        journal.add("call@" + ticker.read());
        return result;
    }

    // --- one gate ---

    @Test
    void aWaitingGateStartsTheCallWhenThePermitArrivesAndTimesItFromTheGrant() {
        ScriptedGate gate = new ScriptedGate("g");
        CompletableFuture<Void> permit = new CompletableFuture<>();
        gate.acquire = () -> permit;
        AtomicInteger calls = new AtomicInteger();
        CompletableFuture<String> result = new CompletableFuture<>();

        CompletionStage<String> out = gate.executeAsync(() -> pendingCall(calls, result));
        assertThat(calls).hasValue(0);
        ticker.advance(50);
        permit.complete(null);
        assertThat(calls).hasValue(1);
        ticker.advance(20);
        result.complete("ok");

        assertThat(out.toCompletableFuture().join()).isEqualTo("ok");
        assertThat(journal).containsExactly("g.acquire@100", "call@150", "g.success@170(20)");
    }

    @Test
    void aWaitingGateThatRefusesLaterFailsTheStageWithTheBareRejectionAndNeverCalls() {
        ScriptedGate gate = new ScriptedGate("g");
        CompletableFuture<Void> permit = new CompletableFuture<>();
        gate.acquire = () -> permit;
        AtomicInteger calls = new AtomicInteger();
        CompletionStage<String> out = gate.executeAsync(() -> pendingCall(calls, new CompletableFuture<>()));
        RejectedException refused = gate.rejection(0);
        permit.completeExceptionally(new CompletionException(refused));
        assertThat(failureOf(out)).isSameAs(refused);
        assertThat(calls).hasValue(0);
    }

    @Test
    void aGateWhoseAsyncAcquireThrowsFailsTheStage() {
        ScriptedGate gate = new ScriptedGate("g");
        IllegalStateException broken = new IllegalStateException("broken gate");
        gate.acquire = () -> {
            throw broken;
        };
        AtomicInteger calls = new AtomicInteger();
        assertThat(failureOf(gate.executeAsync(() -> pendingCall(calls, new CompletableFuture<>())))).isSameAs(broken);
        assertThat(calls).hasValue(0);
    }

    @Test
    void aCallFailingAfterAWaitIsRelayedUnwrapped() {
        ScriptedGate gate = new ScriptedGate("g");
        CompletableFuture<Void> permit = new CompletableFuture<>();
        gate.acquire = () -> permit;
        IllegalArgumentException boom = new IllegalArgumentException("call failed");
        CompletionStage<String> out = gate.executeAsync(() -> CompletableFuture.failedFuture(new CompletionException(boom)));
        permit.complete(null);
        assertThat(failureOf(out)).isSameAs(boom);
        assertThat(journal).containsExactly("g.acquire@100", "g.failure(0,IllegalArgumentException)");
    }

    // --- fused runs ---

    @Test
    void aLaterGateThatWaitsThenRefusesReleasesTheEarlierOnesAtTheirOwnReading() {
        ScriptedGate a = new ScriptedGate("a");
        ScriptedGate b = new ScriptedGate("b");
        ScriptedGate c = new ScriptedGate("c");
        CompletableFuture<Void> permit = new CompletableFuture<>();
        c.acquire = () -> permit;
        AtomicInteger calls = new AtomicInteger();
        CompletionStage<String> out = Pipeline.of(a, b, c).executeAsync(() -> pendingCall(calls, new CompletableFuture<>()));
        ticker.advance(30);
        RejectedException refused = c.rejection(0);
        permit.completeExceptionally(refused);

        assertThat(failureOf(out)).isSameAs(refused);
        assertThat(calls).hasValue(0);
        assertThat(journal).containsExactly("a.acquire@100", "b.acquire@100", "c.acquire@100",
                "b.ignored@100", "a.ignored@100");
    }

    @Test
    void gatesAfterAWaitAreAskedAtTheGrantAndEachGateTimesTheCallFromItsOwnReading() {
        ScriptedGate a = new ScriptedGate("a");
        ScriptedGate b = new ScriptedGate("b");
        ScriptedGate c = new ScriptedGate("c");
        CompletableFuture<Void> first = new CompletableFuture<>();
        CompletableFuture<Void> second = new CompletableFuture<>();
        a.acquire = () -> first;
        b.acquire = () -> second;
        AtomicInteger calls = new AtomicInteger();
        CompletableFuture<String> result = new CompletableFuture<>();
        CompletionStage<String> out = Pipeline.of(a, b, c).executeAsync(() -> pendingCall(calls, result));

        ticker.advance(10);
        first.complete(null);                       // b is asked at 110 and waits too
        ticker.advance(10);
        second.complete(null);                      // c is asked at 120 and grants
        assertThat(calls).hasValue(1);
        ticker.advance(5);
        result.complete("ok");

        assertThat(out.toCompletableFuture().join()).isEqualTo("ok");
        assertThat(journal).containsExactly("a.acquire@100", "b.acquire@110", "c.acquire@120", "call@120",
                "c.success@125(5)", "b.success@125(15)", "a.success@125(25)");
    }

    @Test
    void aGateThatThrowsAfterAWaitReleasesTheGatesBeforeIt() {
        ScriptedGate a = new ScriptedGate("a");
        ScriptedGate b = new ScriptedGate("b");
        ScriptedGate c = new ScriptedGate("c");
        CompletableFuture<Void> permit = new CompletableFuture<>();
        a.acquire = () -> permit;
        IllegalStateException broken = new IllegalStateException("broken gate");
        c.acquire = () -> {
            throw broken;
        };
        AtomicInteger calls = new AtomicInteger();
        CompletionStage<String> out = Pipeline.of(a, b, c).executeAsync(() -> pendingCall(calls, new CompletableFuture<>()));
        ticker.advance(10);
        permit.complete(null);

        assertThat(failureOf(out)).isSameAs(broken);
        assertThat(calls).hasValue(0);
        assertThat(journal).containsExactly("a.acquire@100", "b.acquire@110", "c.acquire@110",
                "b.ignored@110", "a.ignored@100");
    }

    @Test
    void aGateThatThrowsAtOnceReleasesTheGatesBeforeIt() {
        ScriptedGate a = new ScriptedGate("a");
        ScriptedGate b = new ScriptedGate("b");
        IllegalStateException broken = new IllegalStateException("broken gate");
        b.acquire = () -> {
            throw broken;
        };
        AtomicInteger calls = new AtomicInteger();
        CompletionStage<String> out = Pipeline.of(a, b).executeAsync(() -> pendingCall(calls, new CompletableFuture<>()));
        assertThat(failureOf(out)).isSameAs(broken);
        assertThat(journal).containsExactly("a.acquire@100", "b.acquire@100", "a.ignored@100");
    }

    @Test
    void aReleaseThatThrowsIsSuppressedOnTheRefusalUnlessItIsTheRefusal() {
        ScriptedGate a = new ScriptedGate("a");
        ScriptedGate b = new ScriptedGate("b");
        ScriptedGate c = new ScriptedGate("c");
        IllegalStateException releaseFailed = new IllegalStateException("release failed");
        a.onIgnore = releaseFailed;
        // A plain exception: rejections are stackless and carry no suppressed exceptions.
        IllegalStateException refused = new IllegalStateException("refused");
        b.onIgnore = refused;                       // throws the very refusal: not suppressed on itself
        c.acquire = () -> CompletableFuture.failedFuture(refused);
        CompletionStage<String> out = Pipeline.of(a, b, c).executeAsync(() -> CompletableFuture.completedFuture("x"));

        assertThat(failureOf(out)).isSameAs(refused);
        assertThat(refused.getSuppressed()).containsExactly(releaseFailed);
        assertThat(journal).containsExactly("a.acquire@100", "b.acquire@100", "c.acquire@100",
                "b.ignored@100", "a.ignored@100");
    }

    @Test
    void completionFailuresKeepTheFirstAndAnErrorWins() {
        ScriptedGate a = new ScriptedGate("a");
        ScriptedGate b = new ScriptedGate("b");
        ScriptedGate c = new ScriptedGate("c");
        IllegalStateException inner = new IllegalStateException("c failed");
        IllegalArgumentException outer = new IllegalArgumentException("a failed");
        c.onResult = inner;
        a.onResult = outer;
        // Completed innermost first: c's exception is kept, a's suppressed on it; the result stands.
        assertThat(Pipeline.of(a, b, c).executeAsync(() -> CompletableFuture.completedFuture("ok"))
                .toCompletableFuture().join()).isEqualTo("ok");
        assertThat(inner.getSuppressed()).containsExactly(outer);

        journal.clear();
        ScriptedGate d = new ScriptedGate("d");
        ScriptedGate e = new ScriptedGate("e");
        IllegalStateException exception = new IllegalStateException("e failed");
        AssertionError error = new AssertionError("d failed");
        e.onResult = exception;
        d.onResult = error;
        CompletionStage<String> out = Pipeline.of(d, e).executeAsync(() -> CompletableFuture.completedFuture("ok"));
        assertThat(failureOf(out)).isSameAs(error);
        assertThat(error.getSuppressed()).containsExactly(exception);
        assertThat(journal).containsExactly("d.acquire@100", "e.acquire@100", "e.success@100(0)", "d.success@100(0)");

        // The same throwable from two completions is kept once, not suppressed on itself.
        journal.clear();
        ScriptedGate f = new ScriptedGate("f");
        ScriptedGate g = new ScriptedGate("g");
        IllegalStateException shared = new IllegalStateException("shared");
        f.onResult = shared;
        g.onResult = shared;
        assertThat(Pipeline.of(f, g).executeAsync(() -> CompletableFuture.completedFuture("ok"))
                .toCompletableFuture().join()).isEqualTo("ok");
        assertThat(shared.getSuppressed()).isEmpty();
    }
}

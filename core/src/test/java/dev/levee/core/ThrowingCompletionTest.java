package dev.levee.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.internal.Exceptions;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 12, bug 11: a gate's completion that throws (a user classifier predicate inside a breaker) must
 * not leave the other gates of a fused run uncompleted, and the caller gets the call's own outcome.
 */
class ThrowingCompletionTest {
    private final List<String> journal = Collections.synchronizedList(new ArrayList<>());
    private final ManualTicker ticker = new ManualTicker(1_000);

    /** A gate whose completions run a "classifier" that throws. */
    private class ThrowingGate extends RecordingGate {
        final RuntimeException boom = new IllegalStateException("classifier predicate threw");

        ThrowingGate(String name) {
            super(name, ticker, journal);
        }

        @Override
        public void onFailure(long latencyNanos, Throwable error) {
            super.onFailure(latencyNanos, error);
            throw boom;
        }

        @Override
        public void onResult(long latencyNanos, Object result) {
            super.onSuccess(latencyNanos);
            throw boom;
        }
    }

    /** The throwing gate sits innermost, so every other gate of the run completes after it. */
    private Policy pipeline(int gates, ThrowingGate thrower) {
        if (gates == 1) {
            return thrower;
        }
        List<Policy> list = new ArrayList<>();
        for (int i = 0; i < gates - 1; i++) {
            list.add(new RecordingGate("g" + i, ticker, journal));
        }
        list.add(thrower);
        return Pipeline.of(list);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4})
    void aThrowingFailureCompletionStillCompletesEveryGateAndTheCallersFailureStands(int gates) {
        ThrowingGate thrower = new ThrowingGate("t");
        IOException callFailure = new IOException("the call failed");

        assertThatThrownBy(() -> pipeline(gates, thrower).execute(() -> {
            throw callFailure;
        })).isSameAs(callFailure);

        assertThat(callFailure.getSuppressed()).containsExactly(thrower.boom);
        for (int i = 0; i < gates - 1; i++) {
            assertThat(journal).contains("g" + i + ".failure(IOException)");
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4})
    void aThrowingResultCompletionStillCompletesEveryGateAndTheResultIsReturned(int gates) {
        ThrowingGate thrower = new ThrowingGate("t");

        String result = pipeline(gates, thrower).execute(() -> "ok");

        assertThat(result).isEqualTo("ok");
        for (int i = 0; i < gates - 1; i++) {
            assertThat(journal).contains("g" + i + ".success(0)");
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void asynchronousCallsKeepTheirOutcomeToo(int gates) throws Exception {
        ThrowingGate thrower = new ThrowingGate("t");
        IOException callFailure = new IOException("the call failed");

        CompletableFuture<Object> failed = pipeline(gates, thrower)
                .executeAsync(() -> CompletableFuture.failedFuture(callFailure)).toCompletableFuture();
        assertThatThrownBy(failed::get).isInstanceOf(ExecutionException.class).cause().isSameAs(callFailure);
        assertThat(callFailure.getSuppressed()).containsExactly(thrower.boom);

        String ok = pipeline(gates, thrower).executeAsync(() -> CompletableFuture.completedFuture("ok"))
                .toCompletableFuture().get();
        assertThat(ok).isEqualTo("ok");
        for (int i = 0; i < gates - 1; i++) {
            assertThat(journal).contains("g" + i + ".failure(IOException)", "g" + i + ".success(0)");
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4})
    void anErrorFromACompletionIsNeverSwallowedButTheOtherGatesStillComplete(int gates) {
        OutOfMemoryError error = new OutOfMemoryError("from a completion");
        ThrowingGate thrower = new ThrowingGate("t") {
            @Override
            public void onResult(long latencyNanos, Object result) {
                throw error;
            }
        };

        assertThatThrownBy(() -> pipeline(gates, thrower).execute(() -> "ok")).isSameAs(error);
        for (int i = 0; i < gates - 1; i++) {
            assertThat(journal).contains("g" + i + ".success(0)");
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4})
    void anErrorFromAFailureCompletionIsThrownWithTheCallsFailureSuppressed(int gates) {
        OutOfMemoryError error = new OutOfMemoryError("from a failure completion");
        ThrowingGate thrower = new ThrowingGate("t") {
            @Override
            public void onFailure(long latencyNanos, Throwable failure) {
                throw error;
            }
        };
        IOException callFailure = new IOException("the call failed");
        assertThatThrownBy(() -> pipeline(gates, thrower).execute(() -> {
            throw callFailure;
        })).isSameAs(error);
        assertThat(error.getSuppressed()).containsExactly(callFailure);
        assertThat(callFailure.getSuppressed()).isEmpty();
        for (int i = 0; i < gates - 1; i++) {
            assertThat(journal).contains("g" + i + ".failure(IOException)");
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4})
    void aCompletionRethrowingTheCallsOwnFailureIsNotSuppressedOnItself(int gates) {
        IOException callFailure = new IOException("the call failed");
        ThrowingGate thrower = new ThrowingGate("t") {
            @Override
            public void onFailure(long latencyNanos, Throwable failure) {
                throw Exceptions.sneakyThrow(failure);
            }
        };
        assertThatThrownBy(() -> pipeline(gates, thrower).execute(() -> {
            throw callFailure;
        })).isSameAs(callFailure);
        assertThat(callFailure.getSuppressed()).isEmpty();
    }
}

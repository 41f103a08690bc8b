package dev.levee.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A call throwing two checked exceptions runs in one line through {@link Policy#throwing} and each
 * exception comes out unchanged, with its own type (the compile of this file is half the test: the
 * {@code catch} clauses below name exactly the two types).
 */
class ThrowingTest {
    private static final List<String> JOURNAL = Collections.synchronizedList(new ArrayList<>());

    static Stream<Policy> policies() {
        ManualTicker ticker = new ManualTicker();
        return Stream.of(
                new RecordingWrapper("wrapper", JOURNAL),
                new RecordingGate("gate", ticker, JOURNAL),
                Pipeline.of(new RecordingWrapper("w", JOURNAL), new RecordingGate("g", ticker, JOURNAL)));
    }

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    /** The shape of {@code HttpClient.send}. */
    private static String send(Throwable toThrow) throws IOException, InterruptedException {
        if (toThrow instanceof IOException io) {
            throw io;
        }
        if (toThrow instanceof InterruptedException interrupted) {
            throw interrupted;
        }
        if (toThrow instanceof RuntimeException unchecked) {
            throw unchecked;
        }
        if (toThrow instanceof Error error) {
            throw error;
        }
        return "ok";
    }

    private static Throwable outcomeOf(Policy policy, Throwable toThrow) {
        try {
            String result = policy.throwing(IOException.class, InterruptedException.class).execute(() -> send(toThrow));
            return new AssertionError("returned " + result);
        } catch (IOException e) {
            return e;
        } catch (InterruptedException e) {
            return e;
        }
    }

    @ParameterizedTest
    @MethodSource("policies")
    void resultComesBack(Policy policy) throws IOException, InterruptedException {
        assertThat(policy.throwing(IOException.class, InterruptedException.class).execute(() -> send(new Exception("none"))))
                .isEqualTo("ok");
    }

    @ParameterizedTest
    @MethodSource("policies")
    void eachCheckedExceptionIsTheSameInstance(Policy policy) {
        IOException io = new IOException("reset");
        InterruptedException interrupted = new InterruptedException("stop");
        assertThat(outcomeOf(policy, io)).isSameAs(io);
        assertThat(outcomeOf(policy, interrupted)).isSameAs(interrupted);
    }

    @ParameterizedTest
    @MethodSource("policies")
    void uncheckedAndErrorPassThrough(Policy policy) {
        IllegalStateException unchecked = new IllegalStateException("state");
        StackOverflowError error = new StackOverflowError("deep");
        assertThatThrownBy(() -> outcomeOf(policy, unchecked)).isSameAs(unchecked);
        assertThatThrownBy(() -> outcomeOf(policy, error)).isSameAs(error);
    }

    @Test
    void refusalIsTheGatesRejection() {
        RecordingGate gate = new RecordingGate("closed", new ManualTicker(), JOURNAL);
        gate.permit = false;
        assertThatThrownBy(() -> gate.throwing(ExecutionException.class, InterruptedException.class).execute(() -> "never"))
                .isInstanceOf(BulkheadFullException.class);
    }

    @Test
    void viewKeepsItsPolicy() {
        RecordingWrapper wrapper = new RecordingWrapper("w", JOURNAL);
        assertThat(wrapper.throwing(IOException.class, InterruptedException.class).policy()).isSameAs(wrapper);
        assertThatThrownBy(() -> wrapper.throwing(null, InterruptedException.class)).isInstanceOf(NullPointerException.class);
    }
}

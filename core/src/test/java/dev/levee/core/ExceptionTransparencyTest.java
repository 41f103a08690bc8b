package dev.levee.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** What the call throws comes out unchanged, through any policy shape. */
class ExceptionTransparencyTest {
    private static final List<String> JOURNAL = Collections.synchronizedList(new ArrayList<>());

    static Stream<Policy> policies() {
        ManualTicker ticker = new ManualTicker();
        return Stream.of(
                new RecordingWrapper("wrapper", JOURNAL),
                new RecordingGate("gate", ticker, JOURNAL),
                Pipeline.of(new RecordingGate("g1", ticker, JOURNAL), new RecordingGate("g2", ticker, JOURNAL)),
                Pipeline.of(new RecordingWrapper("w", JOURNAL), new RecordingGate("g", ticker, JOURNAL)));
    }

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    @ParameterizedTest
    @MethodSource("policies")
    void checkedExceptionIsTheSameInstance(Policy policy) {
        IOException thrown = new IOException("disk");
        assertThatThrownBy(() -> policy.execute(() -> {
                    throw thrown;
                }))
                .isSameAs(thrown);
    }

    @ParameterizedTest
    @MethodSource("policies")
    void uncheckedExceptionIsTheSameInstance(Policy policy) {
        IllegalStateException thrown = new IllegalStateException("state");
        assertThatThrownBy(() -> policy.execute(() -> {
                    throw thrown;
                }))
                .isSameAs(thrown);
    }

    @ParameterizedTest
    @MethodSource("policies")
    void errorIsNeverSwallowed(Policy policy) {
        StackOverflowError thrown = new StackOverflowError("deep");
        assertThatThrownBy(() -> policy.execute(() -> {
                    throw thrown;
                }))
                .isSameAs(thrown);
    }

    @ParameterizedTest
    @MethodSource("policies")
    void interruptedExceptionComesOutWithTheFlagAsTheCallLeftIt(Policy policy) {
        InterruptedException thrown = new InterruptedException("stop");
        assertThatThrownBy(() -> policy.execute(() -> {
                    Thread.currentThread().interrupt();
                    throw thrown;
                }))
                .isSameAs(thrown);
        assertThat(Thread.currentThread().isInterrupted()).isTrue();
    }

    @ParameterizedTest
    @MethodSource("policies")
    void nullResultPassesThrough(Policy policy) {
        assertThat(policy.execute(() -> (Object) null)).isNull();
    }

    @ParameterizedTest
    @MethodSource("policies")
    void runnableFormIsTransparentToo(Policy policy) {
        IOException thrown = new IOException("x");
        assertThatThrownBy(() -> policy.run(() -> {
                    throw thrown;
                }))
                .isSameAs(thrown);
    }

    @org.junit.jupiter.api.Test
    void sleeperRestoresTheInterruptFlag() {
        Thread.currentThread().interrupt();
        boolean completed = Sleeper.system().sleepRestoringInterrupt(1_000_000_000L);
        assertThat(completed).isFalse();
        assertThat(Thread.currentThread().isInterrupted()).isTrue();

        Thread.interrupted();
        ManualTicker ticker = new ManualTicker();
        Thread.currentThread().interrupt();
        assertThat(ticker.sleepRestoringInterrupt(5)).isFalse();
        assertThat(Thread.currentThread().isInterrupted()).isTrue();
        assertThat(ticker.read()).isZero();
    }
}

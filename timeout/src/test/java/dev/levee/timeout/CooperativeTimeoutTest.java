package dev.levee.timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.ContextScope;
import dev.levee.core.Deadline;
import dev.levee.core.DeadlineExceededException;
import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** COOPERATIVE mode and the effective-timeout rules, all on the manual ticker. */
@SuppressWarnings("try")
class CooperativeTimeoutTest {
    private static final long MS = 1_000_000L;

    private final ManualTicker ticker = new ManualTicker(1_000_000_000_000L);
    private final ManualScheduler scheduler = new ManualScheduler(ticker);

    private Timeout cooperative(Duration timeout) {
        return Timeout.of("coop", TimeoutConfig.builder().timeout(timeout).mode(TimeoutMode.COOPERATIVE)
                .ticker(ticker).scheduler(scheduler).build());
    }

    @Test
    void throwsAtTheFirstCheckpointPastTheDeadline() {
        Timeout timeout = cooperative(Duration.ofMillis(100));
        List<Integer> stepsDone = new ArrayList<>();
        assertThatThrownBy(() -> timeout.execute(() -> {
            for (int step = 0; step < 10; step++) {
                Timeout.checkpoint();
                stepsDone.add(step);
                ticker.advance(30 * MS); // each step takes 30 ms
            }
            return "done";
        })).isInstanceOf(DeadlineExceededException.class);
        // Steps start at 0, 30, 60, 90 ms; the check at 120 ms is the first past the 100 ms deadline.
        assertThat(stepsDone).containsExactly(0, 1, 2, 3);
        assertThat(timeout.timeoutCount()).isEqualTo(1);
        assertThat(timeout.failureCount()).isZero();
    }

    @Test
    void callSeesItsDeadlineAsCurrentAndTheScopeIsClosedAfterwards() throws Exception {
        Timeout timeout = cooperative(Duration.ofMillis(100));
        long remaining = timeout.execute(() -> Deadline.currentOrNull().remainingNanos());
        assertThat(remaining).isEqualTo(100 * MS);
        assertThat(Deadline.currentOrNull()).isNull();
    }

    @Test
    void lateResultIsReturnedNotDiscarded() throws Exception {
        Timeout timeout = cooperative(Duration.ofMillis(100));
        String result = timeout.execute(() -> {
            ticker.advance(500 * MS); // never checks
            return "late";
        });
        assertThat(result).isEqualTo("late");
        assertThat(timeout.successCount()).isEqualTo(1);
    }

    @Test
    void exceptionsComeOutUnchanged() {
        Timeout timeout = cooperative(Duration.ofMillis(100));
        IOException checked = new IOException("boom");
        assertThatThrownBy(() -> timeout.execute(() -> {
            throw checked;
        })).isSameAs(checked);
        StackOverflowError error = new StackOverflowError();
        assertThatThrownBy(() -> timeout.execute(() -> {
            throw error;
        })).isSameAs(error);
        assertThat(timeout.failureCount()).isEqualTo(2);
    }

    @Test
    void innerDeadlineRejectionBeforeOurDeadlineIsAFailureNotATimeout() {
        Timeout timeout = cooperative(Duration.ofMillis(100));
        DeadlineExceededException inner = new DeadlineExceededException("inner", "inner policy", 0);
        assertThatThrownBy(() -> timeout.execute(() -> {
            throw inner;
        })).isSameAs(inner);
        assertThat(timeout.failureCount()).isEqualTo(1);
        assertThat(timeout.timeoutCount()).isZero();
    }

    @Test
    void effectiveTimeoutIsTheConfiguredOneWithoutACurrentDeadline() {
        assertThat(cooperative(Duration.ofMillis(100)).effectiveTimeoutNanos()).isEqualTo(100 * MS);
    }

    @Test
    void effectiveTimeoutIsShortenedByTheCurrentDeadlineMinusTheReserve() throws Exception {
        Timeout timeout = Timeout.of("t", TimeoutConfig.builder().timeout(Duration.ofMillis(500))
                .reserve(Duration.ofMillis(20)).mode(TimeoutMode.COOPERATIVE).ticker(ticker).build());
        try (ContextScope outer = Deadline.afterNanos(300 * MS, ticker).attach()) {
            assertThat(timeout.effectiveTimeoutNanos()).isEqualTo(280 * MS);
            try (ContextScope inner = Deadline.afterNanos(200 * MS, ticker).attach()) {
                assertThat(timeout.effectiveTimeoutNanos()).isEqualTo(180 * MS);
                long seen = timeout.execute(() -> Deadline.currentOrNull().remainingNanos());
                assertThat(seen).isEqualTo(180 * MS);
            }
            // The longer inner scope cannot extend the outer deadline.
            try (ContextScope inner = Deadline.afterNanos(900 * MS, ticker).attach()) {
                assertThat(timeout.effectiveTimeoutNanos()).isEqualTo(280 * MS);
            }
            ticker.advance(100 * MS);
            assertThat(timeout.effectiveTimeoutNanos()).isEqualTo(180 * MS);
        }
        assertThat(timeout.effectiveTimeoutNanos()).isEqualTo(500 * MS);
    }

    @Test
    void aBindingCurrentDeadlineIsReusedNotReattached() throws Exception {
        Timeout timeout = cooperative(Duration.ofSeconds(1));
        Deadline request = Deadline.afterNanos(200 * MS, ticker);
        try (ContextScope scope = request.attach()) {
            assertThat(timeout.execute(Deadline::currentOrNull)).isSameAs(request);
            assertThat(Deadline.currentOrNull()).isSameAs(request);
        }
        Deadline loose = Deadline.afterNanos(5_000 * MS, ticker);
        try (ContextScope scope = loose.attach()) {
            Deadline seen = timeout.execute(Deadline::currentOrNull);
            assertThat(seen).isNotSameAs(loose);
            assertThat(seen.remainingNanos()).isEqualTo(1_000 * MS);
            assertThat(Deadline.currentOrNull()).isSameAs(loose);
        }
    }

    @Test
    void aDeadlineOnAnotherTickerIsReadOnItsOwnTicker() {
        ManualTicker other = new ManualTicker(-5_000L);
        Timeout timeout = cooperative(Duration.ofSeconds(1));
        try (ContextScope scope = Deadline.afterNanos(250 * MS, other).attach()) {
            ticker.advance(10_000 * MS); // our ticker moving does not consume the other one's deadline
            assertThat(timeout.effectiveTimeoutNanos()).isEqualTo(250 * MS);
        }
    }

    @Test
    void failsBeforeStartingWhenLessThanTheMinimumRemains() {
        Timeout timeout = Timeout.of("t", TimeoutConfig.builder().timeout(Duration.ofSeconds(1))
                .minimumRemaining(Duration.ofMillis(50)).reserve(Duration.ofMillis(10))
                .mode(TimeoutMode.COOPERATIVE).ticker(ticker).build());
        List<TimeoutEvent> events = new ArrayList<>();
        timeout.onEvent(events::add);
        boolean[] ran = {false};
        try (ContextScope scope = Deadline.afterNanos(59 * MS, ticker).attach()) {
            assertThatThrownBy(() -> timeout.execute(() -> ran[0] = true))
                    .isInstanceOf(DeadlineExceededException.class)
                    .hasMessageContaining("not started");
        }
        assertThat(ran[0]).isFalse();
        assertThat(timeout.rejectedCount()).isEqualTo(1);
        assertThat(events).singleElement().satisfies(e -> {
            assertThat(e).isInstanceOf(TimeoutEvent.Rejected.class);
            assertThat(e.effectiveTimeoutNanos()).isEqualTo(49 * MS);
        });
        // With exactly the minimum left, the call starts.
        try (ContextScope scope = Deadline.afterNanos(60 * MS, ticker).attach()) {
            timeout.run(() -> ran[0] = true);
        }
        assertThat(ran[0]).isTrue();
    }

    @Test
    void anExpiredDeadlineAlwaysFailsBeforeStartEvenWithZeroMinimum() {
        Timeout timeout = Timeout.of("t", TimeoutConfig.builder().minimumRemaining(Duration.ZERO)
                .mode(TimeoutMode.COOPERATIVE).ticker(ticker).build());
        try (ContextScope scope = Deadline.afterNanos(0, ticker).attach()) {
            assertThatThrownBy(() -> timeout.execute(() -> "x")).isInstanceOf(DeadlineExceededException.class);
        }
    }

    @Test
    void eventsReportSuccessFailureAndTimeoutWithLatency() throws Exception {
        Timeout timeout = cooperative(Duration.ofMillis(100));
        List<TimeoutEvent> events = new ArrayList<>();
        timeout.onEvent(events::add);
        timeout.execute(() -> ticker.advance(7 * MS));
        assertThatThrownBy(() -> timeout.execute(() -> {
            throw new IllegalStateException();
        }));
        assertThatThrownBy(() -> timeout.execute(() -> {
            ticker.advance(100 * MS);
            Timeout.checkpoint();
            return 1;
        }));
        assertThat(events).extracting(e -> e.getClass().getSimpleName())
                .containsExactly("Succeeded", "Failed", "TimedOut");
        assertThat(events.get(0).elapsedNanos()).isEqualTo(7 * MS);
        assertThat(events.get(0).policyName()).isEqualTo("coop");
        assertThat(events.get(2).elapsedNanos()).isEqualTo(100 * MS);
    }

    @Test
    void checkpointWithoutADeadlineDoesNothing() {
        Timeout.checkpoint();
    }

    @Test
    void adaptiveTimeoutSuppliesTheConfiguredTimeoutAndLearnsFromCalls() throws Exception {
        AdaptiveTimeout adaptive = AdaptiveTimeout.of("adaptive", AdaptiveTimeoutConfig.builder().percentile(0.5).factor(2.0)
                .minTimeout(Duration.ofMillis(1)).maxTimeout(Duration.ofSeconds(2)).minSamples(16).windowSize(1000).build());
        Timeout timeout = Timeout.of("adaptive", TimeoutConfig.builder().adaptive(adaptive)
                .mode(TimeoutMode.COOPERATIVE).ticker(ticker).build());
        assertThat(timeout.effectiveTimeoutNanos()).isEqualTo(2_000 * MS);
        for (int i = 0; i < 16; i++) {
            timeout.execute(() -> ticker.advance(10 * MS));
        }
        assertThat(adaptive.sampleCount()).isEqualTo(16);
        // p50 of 10 ms (within the histogram's 3 %) times 2
        assertThat(timeout.effectiveTimeoutNanos()).isBetween(19 * MS, 21 * MS);
        assertThat(timeout.lastEffectiveTimeoutNanos()).isEqualTo(2_000 * MS); // the last call started before
    }
}

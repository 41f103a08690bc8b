package dev.levee.timeout;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ContextScope;
import dev.levee.core.Deadline;
import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Small contracts of the timeout: its metrics total, the static effective-timeout rule, deadline reuse, events. */
@SuppressWarnings("try")
class TimeoutEdgesTest {
    private static final long MS = 1_000_000L;
    private final ManualTicker ticker = new ManualTicker(1_000_000_000_000L);
    private final ManualScheduler scheduler = new ManualScheduler(ticker);

    private Timeout cooperative(Duration timeout) {
        return Timeout.of("coop", TimeoutConfig.builder().timeout(timeout).mode(TimeoutMode.COOPERATIVE)
                .ticker(ticker).scheduler(scheduler).build());
    }

    @Test
    void beforeAnyCallTheLastEffectiveTimeoutIsTheConfiguredOne() {
        assertThat(cooperative(Duration.ofMillis(70)).lastEffectiveTimeoutNanos()).isEqualTo(70 * MS);
        assertThat(cooperative(Duration.ofMillis(70)).metrics().lastEffectiveTimeoutNanos()).isEqualTo(70 * MS);
    }

    @Test
    void callsIsTheSumOfEveryOutcome() {
        assertThat(new TimeoutMetrics(1, 2, 4, 8, 16, 32, 99).calls()).isEqualTo(63);
    }

    @Test
    void withoutACurrentDeadlineTheEffectiveTimeoutIsTheConfiguredOne() {
        assertThat(Timeout.effectiveTimeoutNanos(100 * MS, null, 0L, 10 * MS)).isEqualTo(100 * MS);
        Deadline in50 = Deadline.at(ticker.read() + 50 * MS, ticker);
        assertThat(Timeout.effectiveTimeoutNanos(100 * MS, in50, ticker.read(), 10 * MS)).isEqualTo(40 * MS);
    }

    @Test
    void aCallerDeadlineNoLaterThanTheTimeoutIsTheOneTheCallSees() throws Exception {
        Timeout timeout = cooperative(Duration.ofMillis(100));
        Deadline exactlyAtTheTimeout = Deadline.at(ticker.read() + 100 * MS, ticker);
        try (ContextScope ignored = exactlyAtTheTimeout.attach()) {
            assertThat(timeout.execute(Deadline::currentOrNull)).isSameAs(exactlyAtTheTimeout);
        }
        Deadline earlier = Deadline.at(ticker.read() + 30 * MS, ticker);
        try (ContextScope ignored = earlier.attach()) {
            assertThat(timeout.execute(Deadline::currentOrNull)).isSameAs(earlier);
        }
        Deadline later = Deadline.at(ticker.read() + 300 * MS, ticker);
        try (ContextScope ignored = later.attach()) {
            Deadline seen = timeout.execute(Deadline::currentOrNull);
            assertThat(seen).isNotSameAs(later);
            assertThat(seen.instantNanos()).isEqualTo(ticker.read() + 100 * MS);
        }
    }

    @Test
    void anUnsubscribedListenerHearsNothing() throws Exception {
        Timeout timeout = cooperative(Duration.ofMillis(100));
        List<TimeoutEvent> heard = new ArrayList<>();
        List<TimeoutEvent> kept = new ArrayList<>();
        timeout.onEvent(heard::add).close();
        timeout.onEvent(kept::add);
        timeout.execute(() -> "x");
        assertThat(heard).isEmpty();
        assertThat(kept).hasSize(1);
    }

    @Test
    void theLastEffectiveTimeoutIsWrittenOnlyWhenItMovesByMoreThanASixtyFourth() throws Exception {
        Timeout timeout = cooperative(Duration.ofMillis(100));
        long deadline = ticker.read() + 64 * MS;
        try (ContextScope ignored = Deadline.at(deadline, ticker).attach()) {
            timeout.execute(() -> "x");
            assertThat(timeout.lastEffectiveTimeoutNanos()).isEqualTo(64 * MS);
            ticker.advance(MS); // 63 ms left: moved by exactly 1/64, kept
            timeout.execute(() -> "x");
            assertThat(timeout.lastEffectiveTimeoutNanos()).isEqualTo(64 * MS);
            ticker.advance(1); // moved by more than 1/64: written
            timeout.execute(() -> "x");
            assertThat(timeout.lastEffectiveTimeoutNanos()).isEqualTo(63 * MS - 1);
        }
    }

    @Test
    void theLastEffectiveTimeoutFollowsTheCallersDeadline() throws Exception {
        Timeout timeout = cooperative(Duration.ofMillis(100));
        try (ContextScope ignored = Deadline.at(ticker.read() + 30 * MS, ticker).attach()) {
            timeout.execute(() -> "x");
        }
        assertThat(timeout.lastEffectiveTimeoutNanos()).isEqualTo(30 * MS);
    }

    @Test
    void aThreadModeCallThatEndsInTimeLeavesNoTimerBehind() {
        Timeout timeout = Timeout.of("thread", TimeoutConfig.builder().timeout(Duration.ofMillis(100))
                .mode(TimeoutMode.THREAD).executor(Runnable::run).ticker(ticker).scheduler(scheduler).build());
        assertThat(timeout.execute(() -> "ok")).isEqualTo("ok");
        assertThat(scheduler.pending()).as("disarmed on success").isZero();
        IllegalStateException boom = new IllegalStateException("boom");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> timeout.execute(() -> {
            throw boom;
        })).isSameAs(boom);
        assertThat(scheduler.pending()).as("disarmed on failure").isZero();
    }
}

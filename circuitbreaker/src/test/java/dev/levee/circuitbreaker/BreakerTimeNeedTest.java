package dev.levee.circuitbreaker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.CircuitOpenException;
import dev.levee.core.Gate;
import dev.levee.core.ManualTicker;
import dev.levee.core.Pipeline;
import dev.levee.core.Ticker;
import dev.levee.core.TimeNeed;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The breaker reads the clock only when its state needs it, and copes with {@link Gate#NO_READING} when its
 * state moved on after the caller asked.
 */
class BreakerTimeNeedTest {
    private static final long WAIT = Duration.ofSeconds(30).toNanos();
    private final ManualTicker time = new ManualTicker(7_000_000_000L);
    private final AtomicInteger reads = new AtomicInteger();
    private final Ticker counting = () -> {
        reads.incrementAndGet();
        return time.read();
    };

    private CircuitBreakerConfig.Builder base() {
        return CircuitBreakerConfig.builder().ticker(counting).countWindow(10).minimumNumberOfCalls(4)
                .failureRateThreshold(0.5).waitDurationInOpen(Duration.ofSeconds(30)).permittedCallsInHalfOpen(2);
    }

    @Test
    void aClosedCountWindowWithoutASlowCallRuleReadsNoClock() throws Exception {
        CircuitBreaker breaker = CircuitBreaker.of("b", base().noSlowCallRule().build());
        Pipeline pipeline = Pipeline.of(breaker, CircuitBreaker.of("c", base().noSlowCallRule().build()));
        assertThat(breaker.timeNeed()).isEqualTo(TimeNeed.NONE);
        reads.set(0); // creating a breaker reads the clock once, for its initial state
        for (int i = 0; i < 100; i++) {
            assertThat(breaker.execute(() -> "ok")).isEqualTo("ok");
            assertThat(breaker.tryAcquire()).isTrue();
            breaker.onSuccess(breaker.latencySince(breaker.readStart()));
        }
        assertThat(pipeline.execute(() -> 1)).isEqualTo(1);
        // A failure that trips nothing reads no clock either (only a rule that trips needs the time).
        assertThatThrownBy(() -> breaker.execute(() -> {
            throw new IOException("one of many");
        })).isInstanceOf(IOException.class);
        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
        assertThat(reads.get()).isZero();
    }

    @Test
    void theDefaultSlowCallRuleAndTimeWindowsNeedTheLatency() {
        assertThat(CircuitBreaker.of("d", base().build()).timeNeed()).isEqualTo(TimeNeed.LATENCY);
        assertThat(CircuitBreaker.of("t", base().timeWindow(10, 10).noSlowCallRule().build()).timeNeed())
                .isEqualTo(TimeNeed.LATENCY);
        assertThat(CircuitBreakerConfig.builder().noSlowCallRule().build().slowCallDurationThreshold())
                .isEqualTo(CircuitBreakerConfig.NO_SLOW_CALLS);
    }

    @Test
    void failuresWithoutReadingsStillOpenTheBreakerAtTheRightTime() {
        CircuitBreaker breaker = CircuitBreaker.of("b", base().noSlowCallRule().build());
        for (int i = 0; i < 4; i++) {
            assertThatThrownBy(() -> breaker.execute(() -> {
                throw new IOException("down");
            })).isInstanceOf(IOException.class);
        }
        assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
        assertThat(breaker.timeNeed()).isEqualTo(TimeNeed.START);
        assertThat(breaker.tryAcquire(Gate.NO_READING)).as("reads its own clock in OPEN").isFalse();
        CircuitOpenException rejection = (CircuitOpenException) breaker.rejection(Gate.NO_READING);
        assertThat(rejection.retryAfterNanos()).isEqualTo(WAIT);
        time.advance(WAIT - 1);
        assertThat(breaker.tryAcquire()).isFalse();
        time.advance(1);
        assertThat(breaker.tryAcquire()).as("the wait is measured from the opening").isTrue();
        assertThat(breaker.state()).isEqualTo(CircuitState.HALF_OPEN);
    }

    @Test
    void halfOpenRefusesAProbeOfferedNoReadingAndNeverCountsAnUnmeasuredCompletion() {
        CircuitBreaker breaker = CircuitBreaker.of("b", base().noSlowCallRule().build());
        // A call admitted while CLOSED without readings, still out when the breaker opens and half-opens.
        assertThat(breaker.tryAcquire(Gate.NO_READING)).isTrue();
        breaker.transitionToOpen();
        time.advance(WAIT);
        // Handed NO_READING (the caller asked while CLOSED): moves to HALF_OPEN but admits no probe.
        assertThat(breaker.tryAcquire(Gate.NO_READING)).isFalse();
        assertThat(breaker.state()).isEqualTo(CircuitState.HALF_OPEN);
        assertThat(breaker.timeNeed()).isEqualTo(TimeNeed.LATENCY);
        time.advance(1);
        long start = breaker.readStart();
        assertThat(breaker.tryAcquire(start)).isTrue();
        assertThat(breaker.tryAcquire(start)).isTrue();
        assertThat(breaker.tryAcquire(start)).as("two probes").isFalse();
        // The straggler from CLOSED completes without readings: neither a probe's outcome nor a freed probe.
        breaker.onFailureAt(Gate.NO_READING, Gate.NO_READING, new IOException("late"));
        breaker.onIgnoredAt(Gate.NO_READING);
        assertThat(breaker.state()).isEqualTo(CircuitState.HALF_OPEN);
        assertThat(breaker.tryAcquire(breaker.readStart())).as("no probe was freed").isFalse();
        // The two real probes succeed: the breaker closes.
        time.advance(1_000);
        breaker.onSuccess(breaker.latencySince(start));
        breaker.onResultAt(time.read(), time.read() - start, "ok");
        assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
        assertThat(breaker.timeNeed()).isEqualTo(TimeNeed.NONE);
    }

    @Test
    void forcedOpenAndDisabledNeedNoTime() {
        CircuitBreaker breaker = CircuitBreaker.of("b", base().build());
        breaker.transitionToForcedOpen();
        assertThat(breaker.timeNeed()).isEqualTo(TimeNeed.NONE);
        reads.set(0);
        assertThat(breaker.tryAcquire(Gate.NO_READING)).isFalse();
        assertThat(breaker.rejection(Gate.NO_READING).retryAfterNanos()).isZero();
        assertThat(reads.get()).isZero();
        breaker.transitionToDisabled();
        assertThat(breaker.timeNeed()).isEqualTo(TimeNeed.NONE);
        assertThat(breaker.tryAcquire(Gate.NO_READING)).isTrue();
        breaker.onSuccess(Gate.NO_READING);
    }
}

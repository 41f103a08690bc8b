package dev.levee.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ContextScope;
import dev.levee.core.Deadline;
import dev.levee.core.ManualTicker;
import dev.levee.core.Ticker;
import org.junit.jupiter.api.Test;

class WaitsTest {

    @Test
    void withoutADeadlineAWaitEndsAfterItsMaximum() {
        ManualTicker ticker = new ManualTicker(1_000);
        assertThat(Waits.waitEnd(ticker, 1_000, 500)).isEqualTo(1_500);
        assertThat(Waits.waitEnd(ticker, 1_000, Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void anEarlierDeadlineOnTheSameTickerEndsTheWaitAtTheDeadline() {
        ManualTicker ticker = new ManualTicker(1_000);
        try (ContextScope ignored = Deadline.at(1_200, ticker).attach()) {
            // Measured at the caller's reading (1,100), not the ticker's (1,000): 100 ns left.
            assertThat(Waits.waitEnd(ticker, 1_100, 500)).isEqualTo(1_200);
            assertThat(Waits.waitEnd(ticker, 1_000, 100)).isEqualTo(1_100);
        }
    }

    @Test
    void aDeadlineOnAnotherTickerIsMeasuredOnItsOwnClock() {
        ManualTicker ours = new ManualTicker(1_000);
        ManualTicker theirs = new ManualTicker(50);
        try (ContextScope ignored = Deadline.at(80, theirs).attach()) {
            assertThat(Waits.waitEnd(ours, 1_000, 500)).isEqualTo(1_030);
        }
    }

    @Test
    void parksTheWholeRemainderOnlyOnTheSystemTicker() {
        assertThat(Waits.parkNanos(Ticker.system(), 5_000_000)).isEqualTo(5_000_000);
        ManualTicker manual = new ManualTicker();
        assertThat(Waits.parkNanos(manual, 5_000_000)).isEqualTo(Waits.FOREIGN_TICKER_RECHECK_NANOS);
        assertThat(Waits.parkNanos(manual, 10)).isEqualTo(10);
    }
}

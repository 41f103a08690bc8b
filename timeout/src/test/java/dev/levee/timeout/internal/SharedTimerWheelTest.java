package dev.levee.timeout.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import dev.levee.core.Scheduler;
import dev.levee.core.Ticker;
import org.junit.jupiter.api.Test;

class SharedTimerWheelTest {

    @Test
    void theSystemClockPairSharesOneWheel() {
        TimerWheel shared = SharedTimerWheel.forClock(Ticker.system(), Scheduler.system());
        assertThat(SharedTimerWheel.forClock(Ticker.system(), Scheduler.system())).isSameAs(shared);
        assertThat(shared.ticker()).isSameAs(Ticker.system());
    }

    @Test
    void anyOtherPairGetsAWheelOfItsOwn() {
        ManualTicker ticker = new ManualTicker();
        ManualScheduler scheduler = new ManualScheduler(ticker);
        TimerWheel first = SharedTimerWheel.forClock(ticker, scheduler);
        TimerWheel second = SharedTimerWheel.forClock(ticker, scheduler);
        assertThat(first).isNotSameAs(second);
        assertThat(first.ticker()).isSameAs(ticker);
        // half a pair is not the system pair either
        assertThat(SharedTimerWheel.forClock(Ticker.system(), scheduler))
                .isNotSameAs(SharedTimerWheel.forClock(Ticker.system(), Scheduler.system()));
    }
}

package dev.levee.timeout.internal;

import dev.levee.core.Scheduler;
import dev.levee.core.Ticker;

/**
 * The one {@link TimerWheel} every caller-thread timeout on the system ticker and scheduler shares,
 * created on first use (its tick task runs on the shared {@code levee-scheduler} thread, and only
 * while a timer is pending).
 */
public final class SharedTimerWheel {
    private SharedTimerWheel() {}

    /**
     * The wheel for {@code ticker} and {@code scheduler}: the shared one for the system pair, else a
     * new one (tests on manual time get a wheel of their own).
     *
     * @param ticker the ticker
     * @param scheduler the scheduler
     * @return the wheel
     */
    public static TimerWheel forClock(Ticker ticker, Scheduler scheduler) {
        if (ticker == Ticker.system() && scheduler == Scheduler.system()) {
            return Holder.SYSTEM;
        }
        return new TimerWheel(ticker, scheduler);
    }

    private static final class Holder {
        static final TimerWheel SYSTEM = new TimerWheel(Ticker.system(), Scheduler.system());
    }
}

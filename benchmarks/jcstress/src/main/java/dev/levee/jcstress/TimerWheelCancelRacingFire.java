package dev.levee.jcstress;

import dev.levee.core.ManualTicker;
import dev.levee.timeout.internal.TimerWheel;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZI_Result;

/**
 * A timeout's timer wheel (1 ms ticks), one timer armed for 1 ms and the clock at 1 ms: its deadline
 * has come. One actor runs the wheel's tick task (the scheduler's thread), the other cancels the
 * timer. The cancel may land before the tick files the timer, between filing and the sweep, or after
 * the expiry: exactly one of {fired, cancelled} wins, and a timer whose cancel succeeded never fires.
 */
@JCStressTest
@Description("TimerWheel: cancel racing expiry, exactly one of {fired, cancelled} wins")
@Outcome(id = "true, 0", expect = Expect.ACCEPTABLE, desc = "cancelled in time: never fires")
@Outcome(id = "false, 1", expect = Expect.ACCEPTABLE, desc = "fired once: the cancel reports it too late")
@Outcome(expect = Expect.FORBIDDEN, desc = "fired after a successful cancel, neither won, or fired twice")
@State
public class TimerWheelCancelRacingFire {
    private static final long TICK = TimerWheel.DEFAULT_RESOLUTION_NANOS;
    private final ManualTicker ticker = new ManualTicker(0L);
    private final OneSlotScheduler scheduler = new OneSlotScheduler();
    private final TimerWheel wheel = new TimerWheel(ticker, scheduler, TICK, 8);
    private final WheelTimer timer = new WheelTimer();

    public TimerWheelCancelRacingFire() {
        wheel.schedule(timer, TICK);
        ticker.advance(TICK);
    }

    @Actor
    public void tick() {
        scheduler.runNext();
    }

    @Actor
    public void cancel(ZI_Result r) {
        r.r1 = wheel.cancel(timer);
    }

    @Arbiter
    public void fired(ZI_Result r) {
        scheduler.drain(4); // any later run must not fire it either
        r.r2 = timer.fired.get();
    }
}

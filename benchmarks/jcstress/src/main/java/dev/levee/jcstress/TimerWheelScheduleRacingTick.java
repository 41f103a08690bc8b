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
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * A timer wheel (1 ms ticks) with timer A due at 1 ms and the clock at 1 ms. One actor runs the tick
 * task, which fires A and may find the wheel empty and stop; the other arms timer B for 2 ms at the
 * same moment. B is never fired early (the clock says 1 ms), never stranded on a stopped wheel (the
 * arbiter moves the clock to 2 ms and runs whatever the wheel scheduled: B fires exactly once), and
 * the wheel never runs two tick chains at once.
 */
@JCStressTest
@Description("TimerWheel: arming racing the tick task, never early, never stranded, one tick chain")
@Outcome(id = "1, 0, 1, 0", expect = Expect.ACCEPTABLE, desc = "A fired, B waited for its deadline and then fired once")
@Outcome(expect = Expect.FORBIDDEN, desc = "a timer fired early, twice or never, or two tick chains ran")
@State
public class TimerWheelScheduleRacingTick {
    private static final long TICK = TimerWheel.DEFAULT_RESOLUTION_NANOS;
    private final ManualTicker ticker = new ManualTicker(0L);
    private final OneSlotScheduler scheduler = new OneSlotScheduler();
    private final TimerWheel wheel = new TimerWheel(ticker, scheduler, TICK, 8);
    private final WheelTimer a = new WheelTimer();
    private final WheelTimer b = new WheelTimer();

    public TimerWheelScheduleRacingTick() {
        wheel.schedule(a, TICK);
        ticker.advance(TICK);
    }

    @Actor
    public void tick() {
        scheduler.runNext();
    }

    @Actor
    public void arm() {
        wheel.schedule(b, 2 * TICK);
    }

    @Arbiter
    public void fired(IIII_Result r) {
        r.r1 = a.fired.get();
        r.r2 = b.fired.get();
        ticker.advance(TICK);
        scheduler.drain(4);
        r.r3 = b.fired.get();
        r.r4 = scheduler.overlapped ? 1 : 0;
    }
}

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
 * A timer wheel (1 ms ticks) with timer A due at 1 ms and the clock at 1 ms. One actor arms timer B for
 * 2 ms and cancels it at once, so the cancel may pop B off the actor's armed stack while it is still
 * the head; the other runs the tick task, which drains every armed stack at the same moment. B never
 * fires, whichever got it first (the pop, or the drain that then drops or files it and the cancel that
 * takes it back out); A fires once; after the arbiter moves the clock past B's deadline and runs the
 * ticks, no timer is left pending.
 */
@JCStressTest
@Description("TimerWheel: a cancel popping its timer off the armed stack racing the tick task's drain")
@Outcome(id = "1, 0, 1, 0", expect = Expect.ACCEPTABLE, desc = "B cancelled and never fired, A fired once, nothing left")
@Outcome(expect = Expect.FORBIDDEN, desc = "B fired or its cancel failed, A fired twice or never, a timer was left, or two tick chains ran")
@State
public class TimerWheelCancelPopRacingTick {
    private static final long TICK = TimerWheel.DEFAULT_RESOLUTION_NANOS;
    private final ManualTicker ticker = new ManualTicker(0L);
    private final OneSlotScheduler scheduler = new OneSlotScheduler();
    private final TimerWheel wheel = new TimerWheel(ticker, scheduler, TICK, 8);
    private final WheelTimer a = new WheelTimer();
    private final WheelTimer b = new WheelTimer();
    private boolean cancelled;

    public TimerWheelCancelPopRacingTick() {
        wheel.schedule(a, TICK);
        ticker.advance(TICK);
    }

    @Actor
    public void armAndCancel() {
        wheel.schedule(b, 2 * TICK);
        cancelled = wheel.cancel(b);
    }

    @Actor
    public void tick() {
        scheduler.runNext();
    }

    @Arbiter
    public void outcome(IIII_Result r) {
        r.r1 = cancelled ? 1 : 0;
        ticker.advance(2 * TICK);
        scheduler.drain(4);
        r.r2 = b.fired.get();
        r.r3 = a.fired.get();
        r.r4 = (int) wheel.pending() + (scheduler.overlapped ? 10 : 0);
    }
}

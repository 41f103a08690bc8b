package dev.levee.jcstress;

import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import dev.levee.loadshed.CoDelGate;
import dev.levee.loadshed.ConcurrencyLimiter;
import dev.levee.loadshed.queue.CoDelQueueConfig;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * A CoDel gate over a concurrency limiter of 1, held, with one asynchronous waiter (maxWait 5 s on a
 * manual clock that never moves, inline executor). One actor completes the held request (its dispatch
 * takes the inner permit for the waiter under the gate's lock, then completes the waiter's stage after
 * it); the other cancels the waiter's stage. Either the cancel wins (the waiter leaves, or its stage is
 * found cancelled at completion and the permit goes back) and nothing is held, or the grant wins and
 * the waiter holds the permit in the inner limiter and in the gate. Codes: r1 = 1 if the cancel took,
 * r2 = the inner limiter's in flight, r3 = the gate's, r4 = waiters left.
 */
@JCStressTest
@Description("CoDelGate async waiter: a hand-off racing the cancel of its stage never leaks the inner permit")
@Outcome(id = "1, 0, 0, 0", expect = Expect.ACCEPTABLE, desc = "cancelled first: nothing held, nobody waiting")
@Outcome(id = "0, 1, 1, 0", expect = Expect.ACCEPTABLE, desc = "granted first: the cancel came too late, the waiter holds the permit")
@Outcome(id = "1, 1, .*", expect = Expect.FORBIDDEN, desc = "the cancelled waiter's permit was never given back: leaked for good")
@Outcome(expect = Expect.FORBIDDEN, desc = "the waiter is still counted, or the gate's count drifted from the inner limiter's")
@State
public class CoDelGateAsyncGrantRacingCancel {
    private final ManualScheduler scheduler = new ManualScheduler(new ManualTicker(0L));
    private final ConcurrencyLimiter inner = CoDelGates.limiterOfOne(scheduler);
    private final CoDelGate gate = CoDelGates.heldOne(inner, scheduler, CoDelQueueConfig.defaults().interval(),
            Duration.ofSeconds(5));
    private final CompletionStage<Void> permit = gate.acquireAsync(gate.ticker().read()); // the gate's own clock

    @Actor
    public void release() {
        gate.onSuccess(1_000L);
    }

    @Actor
    public void cancel(IIII_Result r) {
        r.r1 = permit.toCompletableFuture().cancel(false) ? 1 : 0;
    }

    @Arbiter
    public void check(IIII_Result r) {
        r.r2 = inner.inflight();
        r.r3 = gate.inFlight();
        r.r4 = gate.waitingCount();
    }
}

package dev.levee.jcstress;

import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import dev.levee.loadshed.CoDelGate;
import dev.levee.loadshed.ConcurrencyLimiter;
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
 * A CoDel gate over a concurrency limiter of 1, held, with one asynchronous waiter (maxWait 1 s, an
 * interval of 1 s so its only timer is the expiry, manual clock, inline executor). One actor completes
 * the held request (its dispatch hands the inner permit to the waiter); the other moves the clock to
 * the waiter's expiry, whose timer refuses it with {@code queue_timeout}. Exactly one wins the waiter:
 * granted with the permit held, or refused with the permit back in the inner limiter. Codes: r1 = the
 * stage's outcome ({@link AsyncOutcomes}), r2 = the inner limiter's in flight, r3 = the gate's, r4 =
 * waiters left.
 */
@JCStressTest
@Description("CoDelGate async waiter: a hand-off racing the waiter's expiry grants or refuses it exactly once, no permit leaked")
@Outcome(id = "1, 1, 1, 0", expect = Expect.ACCEPTABLE, desc = "granted: the waiter holds the freed permit")
@Outcome(id = "2, 0, 0, 0", expect = Expect.ACCEPTABLE, desc = "refused at its expiry: the freed permit is back in the inner limiter")
@Outcome(id = "2, 1, .*", expect = Expect.FORBIDDEN, desc = "refused, yet the permit is held: leaked")
@Outcome(expect = Expect.FORBIDDEN, desc = "pending, granted without its permit, or the counts drifted")
@State
public class CoDelGateAsyncGrantRacingExpiry {
    private final ManualScheduler scheduler = new ManualScheduler(new ManualTicker(0L));
    private final ConcurrencyLimiter inner = CoDelGates.limiterOfOne(scheduler);
    private final CoDelGate gate = CoDelGates.heldOne(inner, scheduler, Duration.ofSeconds(1), Duration.ofSeconds(1));
    private final CompletionStage<Void> permit = gate.acquireAsync(gate.ticker().read()); // the gate's own clock

    @Actor
    public void release() {
        gate.onSuccess(1_000L);
    }

    @Actor
    public void expire() {
        scheduler.advance(Duration.ofSeconds(1));
    }

    @Arbiter
    public void check(IIII_Result r) {
        r.r1 = AsyncOutcomes.of(permit);
        r.r2 = inner.inflight();
        r.r3 = gate.inFlight();
        r.r4 = gate.waitingCount();
    }
}

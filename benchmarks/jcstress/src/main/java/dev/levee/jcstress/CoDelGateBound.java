package dev.levee.jcstress;

import dev.levee.core.ManualTicker;
import dev.levee.loadshed.CoDelGate;
import dev.levee.loadshed.ConcurrencyLimiter;
import dev.levee.loadshed.ConcurrencyLimiterConfig;
import dev.levee.loadshed.limit.FixedLimit;
import dev.levee.loadshed.queue.CoDelQueueConfig;
import java.time.Duration;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * A CoDel gate over a concurrency limiter of 2, one request in flight. One actor completes it while
 * the other tries twice: the freed slot and the free one give at most 2 entries and at least 1, and
 * the gate's in-flight count matches the inner limiter's and the entries exactly (1 held − 1 completed
 * + entries). Codes: r1 = entries, r2 = the gate's in flight, r3 = the inner limiter's in flight.
 *
 * <p>Correctness only, no timing: clock readings are handed in on a manual ticker so the race is the
 * only variable (see the package documentation).
 */
@JCStressTest
@Description("CoDelGate: in flight exact and within the inner bound when a completion races admissions")
@Outcome(id = {"1, 1, 1", "2, 2, 2"}, expect = Expect.ACCEPTABLE, desc = "the freed slot taken or not yet; counts agree")
@Outcome(expect = Expect.FORBIDDEN, desc = "over the bound, or the gate's count drifted from the inner gate's")
@State
public class CoDelGateBound {
    private final ManualTicker ticker = new ManualTicker(0L);
    private final ConcurrencyLimiter inner = ConcurrencyLimiter.of("jcstress", ConcurrencyLimiterConfig.builder()
            .algorithm(() -> FixedLimit.of(2))
            .ticker(ticker)
            .build());
    private final CoDelGate gate = CoDelGate.of("jcstress", CoDelQueueConfig.defaults(), Duration.ZERO, inner);

    public CoDelGateBound() {
        gate.tryAcquire(0L);
    }

    @Actor
    public void complete() {
        gate.onSuccess(1_000L);
    }

    @Actor
    public void twoTries(III_Result r) {
        int entered = 0;
        if (gate.tryAcquire(0L)) {
            entered++;
        }
        if (gate.tryAcquire(0L)) {
            entered++;
        }
        r.r1 = entered;
    }

    @Arbiter
    public void counts(III_Result r) {
        r.r2 = gate.inFlight();
        r.r3 = inner.inflight();
    }
}

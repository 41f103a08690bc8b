package dev.levee.jcstress;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IL_Result;

/**
 * Half-open with 2 probes, both out. The two probes complete at once (a success and a onSuccess); the
 * round makes exactly one decision: one transition, to the state the outcomes call for.
 */
@JCStressTest
@Description("CircuitBreaker: concurrent probe completions make exactly one decision")
@Outcome(id = "1, CLOSED", expect = Expect.ACCEPTABLE, desc = "one transition: closed")
@Outcome(expect = Expect.FORBIDDEN, desc = "no decision, two decisions, or the wrong one")
@State
public class HalfOpenProbesSuccessMakeOneDecision {
    private final Breakers b = new Breakers(2);

    public HalfOpenProbesSuccessMakeOneDecision() {
        b.breaker.tryAcquire(Breakers.ERA + 1);
        b.breaker.tryAcquire(Breakers.ERA + 1);
        b.ticker.advance(10L); // completions read the ticker: they end after the era began, so they count
    }

    @Actor
    public void probe1() {
        b.breaker.onSuccess(0L);
    }

    @Actor
    public void probe2() {
        b.breaker.onSuccess(0L);
    }

    @Arbiter
    public void decision(IL_Result r) {
        r.r1 = b.transitions.get();
        r.r2 = b.breaker.state();
    }
}

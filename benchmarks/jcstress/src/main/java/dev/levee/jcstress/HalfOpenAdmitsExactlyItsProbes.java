package dev.levee.jcstress;

import dev.levee.circuitbreaker.CircuitBreaker;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/** Half-open with 2 probes: two actors try twice each; exactly 2 are admitted. */
@JCStressTest
@Description("CircuitBreaker: HALF_OPEN admits exactly its probe count under contention")
@Outcome(id = {"0, 2", "1, 1", "2, 0"}, expect = Expect.ACCEPTABLE, desc = "exactly the probes admitted")
@Outcome(expect = Expect.FORBIDDEN, desc = "more probes than permitted, or a probe lost")
@State
public class HalfOpenAdmitsExactlyItsProbes {
    private final CircuitBreaker breaker = new Breakers(2).breaker;

    private int twoTries() {
        int admitted = 0;
        if (breaker.tryAcquire(Breakers.ERA + 1)) {
            admitted++;
        }
        if (breaker.tryAcquire(Breakers.ERA + 1)) {
            admitted++;
        }
        return admitted;
    }

    @Actor
    public void actor1(II_Result r) {
        r.r1 = twoTries();
    }

    @Actor
    public void actor2(II_Result r) {
        r.r2 = twoTries();
    }
}

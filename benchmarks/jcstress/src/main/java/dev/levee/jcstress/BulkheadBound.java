package dev.levee.jcstress;

import dev.levee.bulkhead.Bulkhead;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/** Semaphore bulkhead of 2: two actors try twice each, never releasing; exactly 2 enter. */
@JCStressTest
@Description("Bulkhead: never more than maxConcurrentCalls inside, no slot lost")
@Outcome(id = {"0, 2", "1, 1", "2, 0"}, expect = Expect.ACCEPTABLE, desc = "exactly the bound")
@Outcome(expect = Expect.FORBIDDEN, desc = "over the bound, or a slot lost")
@State
public class BulkheadBound {
    private final Bulkhead bulkhead = Bulkhead.of("jcstress", 2);

    private int twoTries() {
        int entered = 0;
        if (bulkhead.tryAcquire(0L)) {
            entered++;
        }
        if (bulkhead.tryAcquire(0L)) {
            entered++;
        }
        return entered;
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

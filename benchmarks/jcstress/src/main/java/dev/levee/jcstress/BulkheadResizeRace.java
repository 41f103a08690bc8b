package dev.levee.jcstress;

import dev.levee.bulkhead.Bulkhead;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZI_Result;

/**
 * Bulkhead of 1, held. One actor grows it to 2 while the other tries twice: at most one more call
 * enters (the new slot), and the active count matches the grants exactly.
 */
@JCStressTest
@Description("Bulkhead: resize racing acquire never over-admits and keeps the count exact")
@Outcome(id = {"false, false, 1", "true, false, 2", "false, true, 2"}, expect = Expect.ACCEPTABLE, desc = "at most the new slot")
@Outcome(expect = Expect.FORBIDDEN, desc = "over the new bound, or the active count drifted")
@State
public class BulkheadResizeRace {
    private final Bulkhead bulkhead = Bulkhead.of("jcstress", 1);

    public BulkheadResizeRace() {
        bulkhead.tryAcquire(0L);
    }

    @Actor
    public void grow() {
        bulkhead.resize(2);
    }

    @Actor
    public void acquire(ZZI_Result r) {
        r.r1 = bulkhead.tryAcquire(0L);
        r.r2 = bulkhead.tryAcquire(0L);
    }

    @Arbiter
    public void count(ZZI_Result r) {
        r.r3 = bulkhead.activeCount();
    }
}

package dev.levee.jcstress;

import dev.levee.bulkhead.Bulkhead;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZI_Result;

/** Bulkhead of 1, held. One actor releases while the other tries: the count stays exact. */
@JCStressTest
@Description("Bulkhead: a release racing an acquire keeps the active count exact")
@Outcome(id = {"true, 1", "false, 0"}, expect = Expect.ACCEPTABLE, desc = "the freed slot taken, or not yet")
@Outcome(expect = Expect.FORBIDDEN, desc = "the active count drifted")
@State
public class BulkheadReleaseRace {
    private final Bulkhead bulkhead = Bulkhead.of("jcstress", 1);

    public BulkheadReleaseRace() {
        bulkhead.tryAcquire(0L);
    }

    @Actor
    public void release() {
        bulkhead.onSuccess(0L);
    }

    @Actor
    public void acquire(ZI_Result r) {
        r.r1 = bulkhead.tryAcquire(0L);
    }

    @Arbiter
    public void count(ZI_Result r) {
        r.r2 = bulkhead.activeCount();
    }
}

package dev.levee.jcstress;

import dev.levee.redis.internal.LeasePool;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * The Redis limiter's local lease pool (size 4, refill at half), holding 1 leased permit. One actor
 * takes permits one at a time (3 tries) while the other runs a refill that Redis grants in full. The
 * local handout never exceeds what was leased (1 + the refill's grant), and stock + handed out is
 * exactly what was leased: nothing is handed out twice or lost. The refill asks for the pool's room
 * when it starts: 3, or 4 if a take emptied the pool first.
 * Codes: r1 = taken, r2 = granted by the refill, r3 = leased − (taken + stock left), 0 when exact.
 */
@JCStressTest
@Description("LeasePool: local handout racing a refill never exceeds what was leased")
@Outcome(id = {"1, 3, 0", "2, 3, 0", "3, 3, 0", "1, 4, 0", "2, 4, 0", "3, 4, 0"}, expect = Expect.ACCEPTABLE,
        desc = "taken + stock = leased, wherever the refill landed")
@Outcome(expect = Expect.FORBIDDEN, desc = "more handed out than leased, or permits lost")
@State
public class LeasePoolNeverOverLeased {
    private final LeasePool pool = new LeasePool(4, 0.5);
    private long granted;

    public LeasePoolNeverOverLeased() {
        pool.refilled(pool.startRefill(0L) - 3, 0L); // lease 1 of the 4
    }

    @Actor
    public void take(III_Result r) {
        int taken = 0;
        for (int i = 0; i < 3; i++) {
            if (pool.tryTake(1)) {
                taken++;
            }
        }
        r.r1 = taken;
    }

    @Actor
    public void refill() {
        long want = pool.startRefill(0L);
        pool.refilled(want, 0L);
        granted = want;
    }

    @Arbiter
    public void stock(III_Result r) {
        r.r2 = (int) granted;
        r.r3 = (int) (1 + granted - r.r1 - pool.stock());
    }
}

package dev.levee.jcstress;

import dev.levee.redis.internal.LeasePool;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJJ_Result;

/**
 * An empty lease pool (size 4): two callers find it low and try to start a refill at once. Exactly
 * one refill goes to Redis (asking for the pool's whole room, 4); the other caller starts none. After
 * the grant lands the stock is exactly the grant, never above the pool's size.
 * Codes: r1, r2 = what each caller asked Redis for (0 = started none), r3 = the stock after the grant.
 */
@JCStressTest
@Description("LeasePool: one refill at a time, the stock never above the pool's size")
@Outcome(id = {"4, 0, 4", "0, 4, 4"}, expect = Expect.ACCEPTABLE, desc = "one refill of the whole room")
@Outcome(expect = Expect.FORBIDDEN, desc = "two refills at once (over-leasing), none, or the stock over the size")
@State
public class LeasePoolOneRefillAtATime {
    private final LeasePool pool = new LeasePool(4, 0.5);

    @Actor
    public void caller1(JJJ_Result r) {
        r.r1 = pool.startRefill(0L);
    }

    @Actor
    public void caller2(JJJ_Result r) {
        r.r2 = pool.startRefill(0L);
    }

    @Arbiter
    public void land(JJJ_Result r) {
        pool.refilled(r.r1 + r.r2, 0L);
        r.r3 = pool.stock();
    }
}

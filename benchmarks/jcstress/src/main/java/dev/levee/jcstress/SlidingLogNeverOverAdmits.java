package dev.levee.jcstress;

import dev.levee.ratelimiter.RateLimitAlgorithm;
import dev.levee.ratelimiter.RateLimiter;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Sliding log, limit 2 per period, fresh: two actors try twice each at the same instant. A grant claims
 * its number with a CAS on the cursor and writes its time afterwards; a decision that needs a grant
 * claimed but not yet written must wait for it, never read the slot's older occupant as expired.
 */
@JCStressTest
@Description("SLIDING_LOG: never more grants than the limit at one instant, and no permit lost to a race")
@Outcome(id = {"0, 2", "1, 1", "2, 0"}, expect = Expect.ACCEPTABLE, desc = "exactly the limit granted")
@Outcome(expect = Expect.FORBIDDEN, desc = "over-admitted or lost a permit")
@State
public class SlidingLogNeverOverAdmits {
    private final RateLimiter limiter = Limiters.of(RateLimitAlgorithm.SLIDING_LOG, 2);

    @Actor
    public void actor1(II_Result r) {
        r.r1 = Limiters.twoTries(limiter, 0L);
    }

    @Actor
    public void actor2(II_Result r) {
        r.r2 = Limiters.twoTries(limiter, 0L);
    }
}

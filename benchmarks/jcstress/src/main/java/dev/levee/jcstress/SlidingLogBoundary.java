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
 * Sliding log, limit 2, with one grant at {@code t = 0} and one at {@code t = P/2}. Both actors try
 * twice at {@code t = P}: the first grant has just left the window {@code (now - P, now]}, the second
 * has not, so exactly one more permit is granted, whichever actor claims it; the slot it reuses is the
 * first grant's (the ring holds exactly the limit), and the other actor must see the new occupant, not
 * the expired one.
 */
@JCStressTest
@Description("SLIDING_LOG: at the edge of the window exactly the expired grant is reusable, under a racing claim")
@Outcome(id = {"0, 1", "1, 0"}, expect = Expect.ACCEPTABLE, desc = "one grant: only the grant at t = 0 has expired")
@Outcome(id = {"0, 2", "1, 1", "2, 0"}, expect = Expect.FORBIDDEN, desc = "two grants: the grant at P/2 was taken for expired")
@Outcome(expect = Expect.FORBIDDEN, desc = "no grant: a permit was lost")
@State
public class SlidingLogBoundary {
    private final RateLimiter limiter = Limiters.of(RateLimitAlgorithm.SLIDING_LOG, 2);

    public SlidingLogBoundary() {
        limiter.tryAcquire(1, 0L);
        limiter.tryAcquire(1, Limiters.PERIOD_NANOS / 2);
    }

    @Actor
    public void actor1(II_Result r) {
        r.r1 = Limiters.twoTries(limiter, Limiters.PERIOD_NANOS);
    }

    @Actor
    public void actor2(II_Result r) {
        r.r2 = Limiters.twoTries(limiter, Limiters.PERIOD_NANOS);
    }
}

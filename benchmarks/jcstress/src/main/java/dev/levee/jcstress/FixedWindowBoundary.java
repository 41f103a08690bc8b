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
 * Fixed window, limit 2, window 0 spent. Both actors decide in window 1 (one at its first nanosecond,
 * one a nanosecond later), so both race to reset the stale window: the new window still grants exactly 2.
 */
@JCStressTest
@Description("FIXED_WINDOW: the window rotation racing decisions never grants more than the limit")
@Outcome(id = {"0, 2", "1, 1", "2, 0"}, expect = Expect.ACCEPTABLE, desc = "exactly the limit in the new window")
@Outcome(expect = Expect.FORBIDDEN, desc = "the rotation over-admitted or lost a permit")
@State
public class FixedWindowBoundary {
    private final RateLimiter limiter = Limiters.of(RateLimitAlgorithm.FIXED_WINDOW, 2);

    public FixedWindowBoundary() {
        Limiters.twoTries(limiter, 0L);
    }

    @Actor
    public void atBoundary(II_Result r) {
        r.r1 = Limiters.twoTries(limiter, Limiters.PERIOD_NANOS);
    }

    @Actor
    public void justAfter(II_Result r) {
        r.r2 = Limiters.twoTries(limiter, Limiters.PERIOD_NANOS + 1);
    }
}

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
 * Sliding-window counter, limit 2, window 0 spent (both permits at t = 0). Both actors decide at the
 * first nanosecond of window 1, where the sliding window {@code (now - P, now]} still covers all of
 * window 0 but its first nanosecond: the estimate is {@code floor(2 · (P - 1) / P) = 1}, so exactly one
 * more permit may be granted, whichever actor rotates the window. (A counter that dropped the previous
 * window's weight at the rotation would grant two.)
 */
@JCStressTest
@Description("SLIDING_WINDOW_COUNTER: across the boundary the previous window's weight holds under a racing rotation")
@Outcome(id = {"0, 1", "1, 0"}, expect = Expect.ACCEPTABLE, desc = "one grant: the previous window weighs (P - 1) / P")
@Outcome(id = {"0, 2", "1, 1", "2, 0"}, expect = Expect.FORBIDDEN, desc = "two grants: the previous window's weight was dropped")
@Outcome(expect = Expect.FORBIDDEN, desc = "no grant: a permit was lost")
@State
public class SlidingWindowCounterBoundary {
    private final RateLimiter limiter = Limiters.of(RateLimitAlgorithm.SLIDING_WINDOW_COUNTER, 2);

    public SlidingWindowCounterBoundary() {
        Limiters.twoTries(limiter, 0L);
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

package dev.levee.jcstress;

import dev.levee.ratelimiter.RateLimitAlgorithm;
import dev.levee.ratelimiter.RateLimiter;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZ_Result;

/**
 * Sliding log, limit 2, fresh: one actor asks for 2 permits at once while the other asks for 1, at the
 * same instant. A multi-permit grant claims all its numbers in one CAS, after checking each of them:
 * the two requests (3 permits) can never both be granted, and one of them always is.
 */
@JCStressTest
@Description("SLIDING_LOG: a 2-permit and a 1-permit request at once under a limit of 2: exactly one granted")
@Outcome(id = {"true, false", "false, true"}, expect = Expect.ACCEPTABLE, desc = "one request granted")
@Outcome(id = "true, true", expect = Expect.FORBIDDEN, desc = "3 permits granted under a limit of 2")
@Outcome(id = "false, false", expect = Expect.FORBIDDEN, desc = "both refused: a permit was lost")
@State
public class SlidingLogMultiPermitRace {
    private final RateLimiter limiter = Limiters.of(RateLimitAlgorithm.SLIDING_LOG, 2);

    @Actor
    public void two(ZZ_Result r) {
        r.r1 = limiter.tryAcquire(2, 0L);
    }

    @Actor
    public void one(ZZ_Result r) {
        r.r2 = limiter.tryAcquire(1, 0L);
    }
}

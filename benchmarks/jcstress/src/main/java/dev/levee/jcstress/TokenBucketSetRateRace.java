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
 * TOKEN_BUCKET, limit 1 per period, fresh. One actor takes a permit; the other re-applies the same rate with
 * {@code setRate} and then tries: a grant made on the old state must survive the swap.
 */
@JCStressTest
@Description("TOKEN_BUCKET: setRate racing a decision neither refills the limiter nor loses a grant")
@Outcome(id = {"true, false", "false, true"}, expect = Expect.ACCEPTABLE, desc = "one grant")
@Outcome(id = "true, true", expect = Expect.FORBIDDEN, desc = "setRate refilled a spent permit")
@Outcome(id = "false, false", expect = Expect.FORBIDDEN, desc = "a permit was lost")
@State
public class TokenBucketSetRateRace {
    private final RateLimiter limiter = Limiters.of(RateLimitAlgorithm.TOKEN_BUCKET, 1);

    @Actor
    public void decide(ZZ_Result r) {
        r.r1 = limiter.tryAcquire(1, 0L);
    }

    @Actor
    public void setRateThenDecide(ZZ_Result r) {
        limiter.setRate(1, Limiters.PERIOD);
        r.r2 = limiter.tryAcquire(1, 0L);
    }
}

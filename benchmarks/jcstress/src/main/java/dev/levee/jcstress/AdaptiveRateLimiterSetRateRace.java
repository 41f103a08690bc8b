package dev.levee.jcstress;

import dev.levee.core.ManualTicker;
import dev.levee.ratelimiter.AdaptiveRateLimiter;
import dev.levee.ratelimiter.AdaptiveRateLimiterConfig;
import java.io.IOException;
import java.time.Duration;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

/**
 * An adaptive rate limiter at 10/s whose first interval saw one failed call (so its adjustment halves
 * the rate). One actor makes the first decision after the interval, which runs the adjustment; the
 * other sets the rate to 100/s by hand. Either order is fine, as long as it is one: the hand-set rate
 * then halved (50/s) or the halved rate then overwritten by hand (100/s). The rate reported and the
 * rate the inner GCRA enforces always agree. (An adjustment that computed from 10/s, read before the
 * hand-set rate, and wrote 5/s after it would silently undo the user's change.)
 */
@JCStressTest
@Description("AdaptiveRateLimiter: a hand-set rate racing an adjustment is neither lost nor left disagreeing with the enforced rate")
@Outcome(id = "50, 50", expect = Expect.ACCEPTABLE, desc = "set by hand to 100/s, then halved by the adjustment")
@Outcome(id = "100, 100", expect = Expect.ACCEPTABLE, desc = "halved to 5/s, then set by hand to 100/s")
@Outcome(id = "5, 5", expect = Expect.FORBIDDEN, desc = "the hand-set rate was lost: the adjustment wrote a rate computed before it")
@Outcome(expect = Expect.FORBIDDEN, desc = "the rate reported is not the rate enforced")
@State
public class AdaptiveRateLimiterSetRateRace {
    private static final long INTERVAL = 1_000_000_000L;
    private final AdaptiveRateLimiter limiter = AdaptiveRateLimiter.of("jcstress", AdaptiveRateLimiterConfig.builder()
            .initialRate(10.0)
            .minSamples(1)
            .decreaseFactor(0.5)
            .adjustInterval(Duration.ofNanos(INTERVAL))
            .ticker(new ManualTicker(0L))
            .build());

    public AdaptiveRateLimiterSetRateRace() {
        limiter.onFailure(1_000L, new IOException("down"));
    }

    @Actor
    public void decide() {
        limiter.tryAcquire(1, INTERVAL);
    }

    @Actor
    public void setRate() {
        limiter.setRate(100, Duration.ofSeconds(1));
    }

    @Arbiter
    public void check(JJ_Result r) {
        r.r1 = Math.round(limiter.currentRate());
        r.r2 = limiter.limit();
    }
}

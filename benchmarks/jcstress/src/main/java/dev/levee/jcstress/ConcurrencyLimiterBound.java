package dev.levee.jcstress;

import dev.levee.core.ManualTicker;
import dev.levee.loadshed.ConcurrencyLimiter;
import dev.levee.loadshed.ConcurrencyLimiterConfig;
import dev.levee.loadshed.limit.FixedLimit;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/** Concurrency limiter at a fixed limit of 2: two actors try twice each, never releasing; exactly 2 enter. */
@JCStressTest
@Description("ConcurrencyLimiter: never more in flight than the limit, no slot lost")
@Outcome(id = {"0, 2", "1, 1", "2, 0"}, expect = Expect.ACCEPTABLE, desc = "exactly the limit")
@Outcome(expect = Expect.FORBIDDEN, desc = "over the limit, or a slot lost")
@State
public class ConcurrencyLimiterBound {
    private final ConcurrencyLimiter limiter = ConcurrencyLimiter.of("jcstress", ConcurrencyLimiterConfig.builder()
            .algorithm(() -> FixedLimit.of(2))
            .ticker(new ManualTicker(0L))
            .build());

    private int twoTries() {
        int entered = 0;
        if (limiter.tryAcquire(0L)) {
            entered++;
        }
        if (limiter.tryAcquire(0L)) {
            entered++;
        }
        return entered;
    }

    @Actor
    public void actor1(II_Result r) {
        r.r1 = twoTries();
    }

    @Actor
    public void actor2(II_Result r) {
        r.r2 = twoTries();
    }
}

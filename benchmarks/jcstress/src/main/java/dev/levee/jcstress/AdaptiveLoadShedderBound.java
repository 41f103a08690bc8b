package dev.levee.jcstress;

import dev.levee.core.ManualTicker;
import dev.levee.loadshed.AdaptiveLoadShedder;
import dev.levee.loadshed.AdaptiveLoadShedderConfig;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * An adaptive load shedder with at most 2 in flight (no queue, CPU and memory signals idle, every
 * request high priority). Two actors try twice each: exactly 2 enter, and the in-flight count the
 * shedder reports is exactly 2: never above the bound, no permit lost.
 *
 * <p>Correctness only, no timing: clock readings are handed in on a manual ticker so the race is the
 * only variable (see the package documentation).
 */
@JCStressTest
@Description("AdaptiveLoadShedder: never more in flight than maxConcurrent, in-flight count exact")
@Outcome(id = {"0, 2, 2", "1, 1, 2", "2, 0, 2"}, expect = Expect.ACCEPTABLE, desc = "exactly the bound")
@Outcome(expect = Expect.FORBIDDEN, desc = "over the bound, a permit lost, or the count drifted")
@State
public class AdaptiveLoadShedderBound {
    private final AdaptiveLoadShedder shedder = AdaptiveLoadShedder.of("jcstress", AdaptiveLoadShedderConfig.builder()
            .maxConcurrent(2)
            .maxQueueDepth(0)
            .cpu(() -> 0.0)
            .memory(() -> 0.0)
            .priorityThreshold(1.0)
            .ticker(new ManualTicker(0L))
            .build());

    private int twoTries() {
        int entered = 0;
        if (shedder.tryAcquire(0L)) {
            entered++;
        }
        if (shedder.tryAcquire(0L)) {
            entered++;
        }
        return entered;
    }

    @Actor
    public void actor1(III_Result r) {
        r.r1 = twoTries();
    }

    @Actor
    public void actor2(III_Result r) {
        r.r2 = twoTries();
    }

    @Arbiter
    public void inFlight(III_Result r) {
        r.r3 = shedder.inFlight();
    }
}

package dev.levee.jcstress;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZ_Result;

/**
 * Half-open with 1 probe. A probe taken in an earlier half-open round (era 100) is given back as ignored
 * while the current round (era 200) hands out its only probe: the stale release must not free it.
 */
@JCStressTest
@Description("CircuitBreaker: an old-era release never frees a current probe")
@Outcome(id = "true, false", expect = Expect.ACCEPTABLE, desc = "the current round's one probe, once")
@Outcome(id = "true, true", expect = Expect.FORBIDDEN, desc = "the old release freed the current probe")
@Outcome(expect = Expect.FORBIDDEN, desc = "the current probe was refused")
@State
public class OldEraReleaseNeverFreesCurrentProbe {
    private static final long OLD_PROBE = Breakers.ERA + 1;
    private static final long NEW_ERA = Breakers.ERA + 100;
    private final Breakers b = new Breakers(1);

    public OldEraReleaseNeverFreesCurrentProbe() {
        b.breaker.tryAcquire(OLD_PROBE);
        b.ticker.advance(100L);
        b.breaker.transitionToOpen();
        b.breaker.transitionToHalfOpen();
    }

    @Actor
    public void oldRelease() {
        b.breaker.onIgnoredAt(OLD_PROBE);
    }

    @Actor
    public void currentRound(ZZ_Result r) {
        r.r1 = b.breaker.tryAcquire(NEW_ERA + 1);
        r.r2 = b.breaker.tryAcquire(NEW_ERA + 2);
    }
}

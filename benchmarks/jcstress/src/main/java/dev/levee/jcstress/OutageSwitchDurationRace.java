package dev.levee.jcstress;

import dev.levee.core.internal.OutageSwitch;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZJ_Result;

/**
 * The outage switch of the Redis-backed parts, available: one call fails at {@code t = 100} and
 * switches to an outage; another call reads the phase and, if it started inside that outage, gets an
 * answer at {@code t = 150} and switches back. The duration it reports is the outage's: exactly 50 ns,
 * never measured from a start the switching call has not recorded yet.
 */
@JCStressTest
@Description("OutageSwitch: the call that ends an outage reports its duration from the start the outage began with")
@Outcome(id = "true, -2", expect = Expect.ACCEPTABLE, desc = "the second call started before the outage: nothing to switch back")
@Outcome(id = "true, 50", expect = Expect.ACCEPTABLE, desc = "the outage began at 100 and ended at 150")
@Outcome(expect = Expect.FORBIDDEN, desc = "a wrong duration (read before the outage's start was recorded), or a lost switch")
@State
public class OutageSwitchDurationRace {
    private final OutageSwitch outage = new OutageSwitch();

    @Actor
    public void fails(ZJ_Result r) {
        r.r1 = outage.outageBegan(outage.phase(), 100L);
    }

    @Actor
    public void answers(ZJ_Result r) {
        long phase = outage.phase();
        r.r2 = OutageSwitch.inOutage(phase) ? outage.storeAnswered(phase, 150L) : -2L;
    }
}

package dev.levee.jcstress;

import dev.levee.degrade.Coalescer;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * A coalescer with the defaults (no hold window): two synchronous calls for one key whose loads finish
 * at once, so the second call can arrive before, during or after the first's flight (the window in
 * which the leader removes its entry and then publishes its value included). A caller that joins gets
 * the leader's value; a caller that comes after the removal starts a load of its own. Either way every
 * caller's value comes from a load that ran, there are as many distinct values as loads, and the map
 * is empty afterwards.
 */
@JCStressTest
@Description("Coalescer: a joiner gets the leader's value, a late caller loads anew, nothing is left in the map")
@Outcome(id = {"1, 1, 1, 0", "2, 2, 1, 0"}, expect = Expect.ACCEPTABLE, desc = "one load, shared by both callers")
@Outcome(id = {"1, 2, 2, 0", "2, 1, 2, 0"}, expect = Expect.ACCEPTABLE, desc = "two loads one after the other, each caller its own")
@Outcome(expect = Expect.FORBIDDEN, desc = "a value no load produced, two loads with one value, or an entry left behind")
@State
public class CoalescerNothingLeftBehind {
    private final Coalescer<String, Integer> coalescer = Coalescer.ofDefaults("jcstress");
    private final AtomicInteger loads = new AtomicInteger();

    @Actor
    public void actor1(IIII_Result r) {
        Integer value = coalescer.execute("k", loads::incrementAndGet);
        r.r1 = value == null ? -1 : value;
    }

    @Actor
    public void actor2(IIII_Result r) {
        Integer value = coalescer.execute("k", loads::incrementAndGet);
        r.r2 = value == null ? -1 : value;
    }

    @Arbiter
    public void check(IIII_Result r) {
        r.r3 = loads.get();
        r.r4 = coalescer.size();
    }
}

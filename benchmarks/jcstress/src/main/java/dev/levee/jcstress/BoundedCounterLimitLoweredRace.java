package dev.levee.jcstress;

import dev.levee.core.internal.BoundedCounter;
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
 * Core's bounded counter (the occupancy of a bulkhead, the in-flight count of a concurrency limit) at
 * 1 of a limit of 2. One actor lowers the limit to 1 and then reads the count; the other tries to
 * enter. The entry re-reads the limit after its CAS: if the lowering came first it must give its
 * permit back. So an entry admitted at 2 while the lowering actor still read 1 after lowering (the
 * entry's CAS came after the lowering) is FORBIDDEN, and the final count is exactly 1 plus the entry.
 */
@JCStressTest
@Description("BoundedCounter: an increment that raced a lowering of the limit re-checks it and never stays above it")
@Outcome(id = {"1, -1, 1, .*", "2, -1, 1, .*"}, expect = Expect.ACCEPTABLE,
        desc = "refused (or given back after the re-check saw the lowered limit): the count is 1")
@Outcome(id = "2, 2, 2, 0", expect = Expect.ACCEPTABLE, desc = "admitted before the lowering: the count is 2")
@Outcome(id = "1, 2, .*", expect = Expect.FORBIDDEN, desc = "admitted above a limit lowered before its CAS")
@Outcome(expect = Expect.FORBIDDEN, desc = "the count does not match the outcome")
@State
public class BoundedCounterLimitLoweredRace {
    private final BoundedCounter counter = new BoundedCounter();
    private volatile int limit = 2;
    private final AtomicInteger gaveBack = new AtomicInteger();

    public BoundedCounterLimitLoweredRace() {
        counter.tryIncrement(2);
    }

    @Actor
    public void lower(IIII_Result r) {
        limit = 1;
        r.r1 = counter.get();
    }

    @Actor
    public void enter(IIII_Result r) {
        r.r2 = counter.tryIncrement(() -> limit, gaveBack::incrementAndGet);
    }

    @Arbiter
    public void check(IIII_Result r) {
        r.r3 = counter.get();
        r.r4 = gaveBack.get();
    }
}

package dev.levee.jcstress;

import dev.levee.bulkhead.Bulkhead;
import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * A bulkhead of 1, held, with one asynchronous waiter (maxWait 1 s on a manual clock, inline executor).
 * One actor releases the held slot (its drain takes the slot for the waiter, then claims the waiter);
 * the other moves the clock to the waiter's expiry, which refuses it. Exactly one of the two wins the
 * waiter: granted with the slot held for it, or refused with the slot free again (a drain that took the
 * slot and then lost the waiter to its expiry gives the slot back). Never both, never neither, never a
 * slot held for nobody.
 */
@JCStressTest
@Description("Bulkhead async waiter: a release racing the waiter's expiry grants or refuses it exactly once, no slot leaked")
@Outcome(id = "1, 1, 0", expect = Expect.ACCEPTABLE, desc = "granted: the waiter holds the freed slot")
@Outcome(id = "2, 0, 0", expect = Expect.ACCEPTABLE, desc = "refused at its expiry: the freed slot is free")
@Outcome(id = "2, 1, 0", expect = Expect.FORBIDDEN, desc = "refused, yet the slot is held: leaked by a drain that lost the waiter")
@Outcome(expect = Expect.FORBIDDEN, desc = "pending, granted without its slot, or the counts drifted")
@State
public class BulkheadAsyncGrantRacingExpiry {
    private final ManualScheduler scheduler = new ManualScheduler(new ManualTicker(0L));
    private final Bulkhead bulkhead = Bulkheads.heldOne(scheduler, Duration.ofSeconds(1));
    private final CompletionStage<Void> permit;

    public BulkheadAsyncGrantRacingExpiry() {
        permit = bulkhead.acquireAsync(0L);
    }

    @Actor
    public void release() {
        bulkhead.onSuccess(0L);
    }

    @Actor
    public void expire() {
        scheduler.advance(Duration.ofSeconds(1));
    }

    @Arbiter
    public void check(III_Result r) {
        r.r1 = AsyncOutcomes.of(permit);
        r.r2 = bulkhead.activeCount();
        r.r3 = bulkhead.waitingCount();
    }
}

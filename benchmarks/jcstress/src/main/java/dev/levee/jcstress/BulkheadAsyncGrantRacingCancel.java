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
import org.openjdk.jcstress.infra.results.ZII_Result;

/**
 * A bulkhead of 1, held, with one asynchronous waiter (maxWait 5 s on a manual clock that never moves,
 * inline executor). One actor releases the held slot; the other cancels the waiter's permit stage (as a
 * caller that gives up does, or {@code orTimeout} on it). Either the cancel wins (the stage is
 * cancelled, the waiter leaves the queue and the freed slot stays free) or the grant does (the cancel
 * finds the stage completed and the waiter holds the slot). A waiter whose stage was cancelled must
 * never be granted a slot: nobody would ever give it back.
 */
@JCStressTest
@Description("Bulkhead async waiter: a release racing the cancel of the waiter's stage never hands the slot to the cancelled waiter")
@Outcome(id = "true, 0, 0", expect = Expect.ACCEPTABLE, desc = "cancelled first: the waiter left, the freed slot is free")
@Outcome(id = "false, 1, 0", expect = Expect.ACCEPTABLE, desc = "granted first: the cancel came too late, the waiter holds the slot")
@Outcome(id = "true, 1, .*", expect = Expect.FORBIDDEN, desc = "the cancelled waiter was granted the slot: leaked for good")
@Outcome(expect = Expect.FORBIDDEN, desc = "the waiter is still counted, or the counts drifted")
@State
public class BulkheadAsyncGrantRacingCancel {
    private final Bulkhead bulkhead = Bulkheads.heldOne(new ManualScheduler(new ManualTicker(0L)), Duration.ofSeconds(5));
    private final CompletionStage<Void> permit;

    public BulkheadAsyncGrantRacingCancel() {
        permit = bulkhead.acquireAsync(0L);
    }

    @Actor
    public void release() {
        bulkhead.onSuccess(0L);
    }

    @Actor
    public void cancel(ZII_Result r) {
        r.r1 = permit.toCompletableFuture().cancel(false);
    }

    @Arbiter
    public void check(ZII_Result r) {
        r.r2 = bulkhead.activeCount();
        r.r3 = bulkhead.waitingCount();
    }
}

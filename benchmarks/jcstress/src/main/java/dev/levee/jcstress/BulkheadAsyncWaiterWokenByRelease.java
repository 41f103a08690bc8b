package dev.levee.jcstress;

import dev.levee.bulkhead.Bulkhead;
import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
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
 * A bulkhead of 1, held, with a 5 s maxWait on a manual clock that never moves (so the wait never
 * expires) and an inline executor. One actor asks for a slot asynchronously ({@code acquireAsync}: it
 * finds none and enqueues a waiter in the core's {@code AsyncWaitQueue}), the other releases the held
 * slot. The waiter adds itself and then drains; the releaser frees the slot and then drains: of the two,
 * at least one sees the other, so the waiter is always granted (a lost grant would leave its stage
 * pending for good, as the clock never reaches its expiry), exactly once, and the bound holds.
 */
@JCStressTest
@Description("Bulkhead async waiter: a release racing the enqueue always grants it (AsyncWaitQueue, no lost grant)")
@Outcome(id = "1, 1, 0", expect = Expect.ACCEPTABLE, desc = "the waiter got the freed slot; one inside, nobody waiting")
@Outcome(id = "0, .*", expect = Expect.FORBIDDEN, desc = "the waiter is still pending though the slot was freed (lost grant)")
@Outcome(expect = Expect.FORBIDDEN, desc = "refused, or the counts drifted")
@State
public class BulkheadAsyncWaiterWokenByRelease {
    private final Bulkhead bulkhead = Bulkheads.heldOne(new ManualScheduler(new ManualTicker(0L)), Duration.ofSeconds(5));
    private CompletionStage<Void> permit = new CompletableFuture<>();

    @Actor
    public void waiter() {
        permit = bulkhead.acquireAsync(0L);
    }

    @Actor
    public void release() {
        bulkhead.onSuccess(0L);
    }

    @Arbiter
    public void check(III_Result r) {
        r.r1 = AsyncOutcomes.of(permit);
        r.r2 = bulkhead.activeCount();
        r.r3 = bulkhead.waitingCount();
    }
}

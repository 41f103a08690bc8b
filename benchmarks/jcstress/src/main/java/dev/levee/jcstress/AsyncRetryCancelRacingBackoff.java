package dev.levee.jcstress;

import java.util.concurrent.CompletableFuture;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * An asynchronous retry whose first attempt failed: its backoff is scheduled. One actor fires the
 * backoff (the scheduler's thread starts attempt 2), the other cancels the result. Either the cancel
 * stops the backoff (one attempt) or attempt 2 starts and is cancelled too: no attempt is left running
 * after the cancel, and the withdrawn retry ends exactly once (the budget comes back to 0).
 */
@JCStressTest
@Description("AsyncRetry: cancel racing the backoff timer, no attempt left running after cancel")
@Outcome(id = "1, 1, 0, 0", expect = Expect.ACCEPTABLE, desc = "the cancel stopped the backoff: one attempt")
@Outcome(id = "1, 2, 1, 0", expect = Expect.ACCEPTABLE, desc = "attempt 2 started and was cancelled with the result")
@Outcome(expect = Expect.FORBIDDEN, desc = "an attempt left running after cancel, the cancel lost, or a retry leaked")
@State
public class AsyncRetryCancelRacingBackoff {
    private final Retries r = new Retries();

    public AsyncRetryCancelRacingBackoff() {
        r.first.completeExceptionally(new IllegalStateException("transient"));
    }

    @Actor
    public void fireBackoff() {
        r.scheduler.runNext();
    }

    @Actor
    public void cancel(IIII_Result out) {
        out.r1 = r.result.cancel(true) ? 1 : 0;
    }

    @Arbiter
    public void after(IIII_Result out) {
        r.scheduler.drain(4);
        out.r2 = r.attempts.get();
        CompletableFuture<String> second = r.later.get();
        out.r3 = second == null ? 0 : second.isCancelled() ? 1 : 2;
        out.r4 = (int) r.budget.retriesInFlight();
    }
}

package dev.levee.jcstress;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * An asynchronous retry with its first attempt in flight. One actor fails the attempt (retryable:
 * the retry schedules a backoff and withdraws a retry from the budget), the other cancels the
 * result. The arbiter then runs any backoff still scheduled, as a late timer would. The cancel always
 * wins (the result was pending), no second attempt ever starts after it, and the retry the failure
 * withdrew ends exactly once (the budget's retries in flight come back to 0, its request too).
 */
@JCStressTest
@Description("AsyncRetry: cancel racing a failed attempt, no attempt after cancel, the budget balanced")
@Outcome(id = "1, 1, 0, 0", expect = Expect.ACCEPTABLE, desc = "cancelled; one attempt; nothing left in flight")
@Outcome(expect = Expect.FORBIDDEN, desc = "an attempt after cancel, the cancel lost, or a retry/request leaked in the budget")
@State
public class AsyncRetryCancelRacingFailure {
    private final Retries r = new Retries();

    @Actor
    public void fail() {
        r.first.completeExceptionally(new IllegalStateException("transient"));
    }

    @Actor
    public void cancel(IIII_Result out) {
        out.r1 = r.result.cancel(true) ? 1 : 0;
    }

    @Arbiter
    public void after(IIII_Result out) {
        r.scheduler.drain(4);
        out.r2 = r.attempts.get();
        out.r3 = (int) r.budget.retriesInFlight();
        out.r4 = (int) r.budget.requestsInFlight();
    }
}

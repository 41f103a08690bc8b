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
 * An asynchronous retry with its first attempt in flight. One actor completes the attempt with a
 * value, the other cancels the result: the result completes exactly once, with the value (and the
 * cancel reports false) or cancelled (and the cancel reports true); one attempt only; the budget's
 * request ends either way.
 */
@JCStressTest
@Description("AsyncRetry: cancel racing a successful attempt, the result completes exactly once")
@Outcome(id = "0, 1, 1, 0", expect = Expect.ACCEPTABLE, desc = "the value won; the cancel came too late")
@Outcome(id = "1, 2, 1, 0", expect = Expect.ACCEPTABLE, desc = "the cancel won; the value is dropped")
@Outcome(expect = Expect.FORBIDDEN, desc = "both or neither won, a second attempt, or the request leaked")
@State
public class AsyncRetryCancelRacingSuccess {
    private final Retries r = new Retries();

    @Actor
    public void succeed() {
        r.first.complete("ok");
    }

    @Actor
    public void cancel(IIII_Result out) {
        out.r1 = r.result.cancel(true) ? 1 : 0;
    }

    @Arbiter
    public void after(IIII_Result out) {
        r.scheduler.drain(4);
        out.r2 = r.resultState();
        out.r3 = r.attempts.get();
        out.r4 = (int) r.budget.requestsInFlight();
    }
}

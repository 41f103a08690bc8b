package dev.levee.jcstress;

import dev.levee.retry.RetryBudget;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZJ_Result;

/**
 * Four deposits in the current bucket earn two retries (ratio 0.5); one is already spent in the same
 * bucket. Two actors withdraw at once: exactly one gets the last retry, and two are counted. A
 * withdrawal reads the older buckets first and the current bucket last, and its CAS validates only the
 * current bucket, so this is the race that CAS must serialize.
 */
@JCStressTest
@Description("RetryBudget: two withdrawals racing for the last retry of the current bucket, exactly one passes")
@Outcome(id = {"true, false, 2", "false, true, 2"}, expect = Expect.ACCEPTABLE, desc = "the last retry, counted once")
@Outcome(expect = Expect.FORBIDDEN, desc = "over the allowance, or a withdrawal lost")
@State
public class RetryBudgetLastRetryInTheCurrentBucket {
    private final RetryBudget budget = new Budgets().budget;

    public RetryBudgetLastRetryInTheCurrentBucket() {
        for (int i = 0; i < 4; i++) {
            budget.onRequestStart();
        }
        if (!budget.tryRetry()) {
            throw new IllegalStateException("the setup's retry must pass: " + budget);
        }
    }

    @Actor
    public void actor1(ZZJ_Result r) {
        r.r1 = budget.tryRetry();
    }

    @Actor
    public void actor2(ZZJ_Result r) {
        r.r2 = budget.tryRetry();
    }

    @Arbiter
    public void withdrawn(ZZJ_Result r) {
        r.r3 = budget.withdrawals();
    }
}

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
 * Two deposits in the current bucket earn one retry (ratio 0.5). Two actors withdraw at once, both
 * rotating the stale withdrawal slot: exactly one retry passes and exactly one is counted.
 */
@JCStressTest
@Description("RetryBudget: withdrawals racing a bucket rotation stay within the allowance, none lost")
@Outcome(id = {"true, false, 1", "false, true, 1"}, expect = Expect.ACCEPTABLE, desc = "one retry, counted once")
@Outcome(expect = Expect.FORBIDDEN, desc = "over the allowance, or a withdrawal lost")
@State
public class RetryBudgetWithdrawalsRacingRotation {
    private final RetryBudget budget = new Budgets().budget;

    public RetryBudgetWithdrawalsRacingRotation() {
        budget.onRequestStart();
        budget.onRequestStart();
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

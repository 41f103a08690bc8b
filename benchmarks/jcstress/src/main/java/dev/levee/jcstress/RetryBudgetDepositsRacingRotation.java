package dev.levee.jcstress;

import dev.levee.retry.RetryBudget;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

/**
 * Two actors deposit at once, both rotating the stale deposit slot: both deposits count (a rotation
 * that replaced the slot after the other's increment would lose one and shrink the allowance).
 */
@JCStressTest
@Description("RetryBudget: deposits racing a bucket rotation are never lost")
@Outcome(id = "2, 1", expect = Expect.ACCEPTABLE, desc = "both deposits counted; they earn one retry")
@Outcome(expect = Expect.FORBIDDEN, desc = "a deposit lost in the rotation")
@State
public class RetryBudgetDepositsRacingRotation {
    private final RetryBudget budget = new Budgets().budget;

    @Actor
    public void actor1() {
        budget.onRequestStart();
    }

    @Actor
    public void actor2() {
        budget.onRequestStart();
    }

    @Arbiter
    public void deposits(JJ_Result r) {
        r.r1 = budget.deposits();
        r.r2 = budget.available();
    }
}

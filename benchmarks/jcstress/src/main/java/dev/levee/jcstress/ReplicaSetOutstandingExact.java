package dev.levee.jcstress;

import dev.levee.core.ManualTicker;
import dev.levee.retry.ReplicaSet;
import dev.levee.retry.ReplicaSetConfig;
import dev.levee.retry.ReplicaSetMetrics;
import dev.levee.retry.SelectionRule;
import java.util.List;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJJ_Result;

/**
 * A replica set of two (least outstanding), one call already in flight on the replica it picked. One
 * actor completes that call while the other picks and completes a call of its own: the outstanding
 * counts (ReplicaStates' per-replica counters) come back to exactly 0, and the picks and successes
 * total exactly 2.
 */
@JCStressTest
@Description("ReplicaSet: outstanding counts exact after racing picks and completions")
@Outcome(id = "0, 2, 2", expect = Expect.ACCEPTABLE, desc = "nothing in flight; 2 picks, 2 successes")
@Outcome(expect = Expect.FORBIDDEN, desc = "an outstanding count leaked or went negative, or a pick was lost")
@State
public class ReplicaSetOutstandingExact {
    private final ReplicaSet<String> set = ReplicaSet.of("jcstress", ReplicaSetConfig.builder()
            .selectionRule(SelectionRule.LEAST_OUTSTANDING)
            .ticker(new ManualTicker(0L))
            .build(), List.of("a", "b"));
    private final int held;

    public ReplicaSetOutstandingExact() {
        held = set.pick();
    }

    @Actor
    public void complete() {
        set.onSuccess(held, 1_000L);
    }

    @Actor
    public void pickAndComplete() {
        int replica = set.pick();
        set.onSuccess(replica, 1_000L);
    }

    @Arbiter
    public void totals(JJJ_Result r) {
        ReplicaSetMetrics m = set.metrics();
        r.r1 = set.outstanding(0) + set.outstanding(1);
        r.r2 = m.picks();
        r.r3 = m.successes();
    }
}

package dev.levee.jcstress;

import dev.levee.core.ManualTicker;
import dev.levee.retry.ReplicaSet;
import dev.levee.retry.ReplicaSetConfig;
import java.util.List;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A replica set of one with one call in flight. Two "cancelled" completions of that call race (a
 * caller's bug, e.g. a hedge and its original both reporting): exactly one counts. The outstanding
 * count goes to 0, never below, and the call is counted once among the picks (picks = completions
 * counted + calls in flight = 1).
 */
@JCStressTest
@Description("ReplicaSet: a duplicate completion never takes the outstanding count below zero")
@Outcome(id = "0, 1", expect = Expect.ACCEPTABLE, desc = "one completion counted, the duplicate dropped")
@Outcome(expect = Expect.FORBIDDEN, desc = "the count went below zero, or the call was counted twice or not at all")
@State
public class ReplicaSetDuplicateCompletion {
    private final ReplicaSet<String> set = ReplicaSet.of("jcstress", ReplicaSetConfig.builder()
            .ticker(new ManualTicker(0L))
            .build(), List.of("a"));

    public ReplicaSetDuplicateCompletion() {
        set.pick();
    }

    @Actor
    public void first() {
        set.onCancelled(0, 1_000L);
    }

    @Actor
    public void duplicate() {
        set.onCancelled(0, 1_000L);
    }

    @Arbiter
    public void totals(II_Result r) {
        r.r1 = (int) set.outstanding(0);
        r.r2 = (int) set.metrics().picks();
    }
}

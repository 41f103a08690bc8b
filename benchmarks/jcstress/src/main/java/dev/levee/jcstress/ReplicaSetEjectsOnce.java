package dev.levee.jcstress;

import dev.levee.core.ManualTicker;
import dev.levee.retry.ReplicaSet;
import dev.levee.retry.ReplicaSetConfig;
import dev.levee.retry.ReplicaSetMetrics;
import java.util.List;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIZ_Result;

/**
 * A replica set of 4 that ejects a replica after 2 consecutive failures (at most 2 ejected). Replica 0
 * has three calls in flight and one has failed; the other two fail at once, and both see a streak at the threshold. The
 * replica is ejected exactly once: one ejection counted, one slot of the ejection cap taken.
 * Codes: r1 = ejections counted, r2 = replicas ejected, r3 = replica 0 ejected.
 */
@JCStressTest
@Description("ReplicaSet: racing failures at the threshold eject a replica exactly once")
@Outcome(id = "1, 1, true", expect = Expect.ACCEPTABLE, desc = "ejected once")
@Outcome(expect = Expect.FORBIDDEN, desc = "ejected twice (a cap slot leaked) or not at all")
@State
public class ReplicaSetEjectsOnce {
    private static final RuntimeException FAILURE = new IllegalStateException("down");
    private final ReplicaSet<String> set = ReplicaSet.of("jcstress", ReplicaSetConfig.builder()
            .consecutiveFailures(2)
            .maxEjectedShare(0.5)
            .ticker(new ManualTicker(0L))
            .build(), List.of("a", "b", "c", "d"));

    public ReplicaSetEjectsOnce() {
        // Three calls on "a" (a shard of one), as a completion counts only for a call outstanding.
        int[] onlyA = {0};
        for (int i = 0; i < 3; i++) {
            set.pick(onlyA);
        }
        set.onFailure(0, 1_000L, FAILURE);
    }

    @Actor
    public void failure1() {
        set.onFailure(0, 1_000L, FAILURE);
    }

    @Actor
    public void failure2() {
        set.onFailure(0, 1_000L, FAILURE);
    }

    @Arbiter
    public void ejected(IIZ_Result r) {
        ReplicaSetMetrics m = set.metrics();
        r.r1 = (int) m.ejections();
        r.r2 = m.ejected();
        r.r3 = set.isEjected(0);
    }
}

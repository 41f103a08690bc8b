package dev.levee.jcstress;

import dev.levee.loadshed.internal.SampleCell;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJJ_Result;

/**
 * The concurrency limiter's per-thread sample cell, holding one 10 ns sample: a completion folds in a
 * 20 ns drop while the single writer empties the cell; the arbiter empties what is left. Across the
 * two takes every sample is seen exactly once: 2 samples in all, the largest latency 20, the drop
 * kept. Codes: r1 = samples across both takes, r2 = largest latency seen, r3 = 1 if a drop was seen.
 */
@JCStressTest
@Description("SampleCell: completions racing the writer's take, no sample lost or counted twice")
@Outcome(id = "2, 20, 1", expect = Expect.ACCEPTABLE, desc = "both samples seen once, the drop kept")
@Outcome(expect = Expect.FORBIDDEN, desc = "a sample lost or counted twice, a latency or a drop lost")
@State
public class SampleCellNoSampleLost {
    private static final long COUNT = 0xFF;
    private final SampleCell cell = new SampleCell();
    private long firstTake;

    public SampleCellNoSampleLost() {
        cell.add(10L, false);
    }

    @Actor
    public void drop() {
        cell.add(20L, true);
    }

    @Actor
    public void writer() {
        firstTake = cell.take();
    }

    @Arbiter
    public void rest(JJJ_Result r) {
        long second = cell.take();
        r.r1 = (firstTake & COUNT) + (second & COUNT);
        long rtt = 0;
        boolean drop = false;
        for (long w : new long[] {firstTake, second}) {
            if (w != 0) {
                rtt = Math.max(rtt, SampleCell.rtt(w));
                drop |= SampleCell.drop(w);
            }
        }
        r.r2 = rtt;
        r.r3 = drop ? 1 : 0;
    }
}

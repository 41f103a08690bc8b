package dev.levee.jcstress;

import dev.levee.core.ManualTicker;
import dev.levee.loadshed.ConcurrencyLimiter;
import dev.levee.loadshed.ConcurrencyLimiterConfig;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * A concurrency limiter (uncontended mode: one writer flag, a pending sample folded in while the
 * writer is busy) with two requests in flight. One completes in 10 ns, the other fails in 20 ns (a
 * drop) at the same moment; then the arbiter's own request completes, which applies anything left
 * pending. The algorithm sees the drop exactly once and the 20 ns sample exactly once (never lost in
 * {@code pending}, never applied twice), 2 or 3 updates in all (the 10 ns sample may be merged into the
 * slower one), and nothing left in flight.
 * Codes: r1 = updates with a drop, r2 = updates carrying 20 ns, r3 = updates, r4 = in flight.
 *
 * <p>Correctness only, no timing: clock readings are handed in on a manual ticker so the race is the
 * only variable (see the package documentation).
 */
@JCStressTest
@Description("ConcurrencyLimiter: completions racing the single-writer flag, no sample lost or applied twice")
@Outcome(id = {"1, 1, 2, 0", "1, 1, 3, 0"}, expect = Expect.ACCEPTABLE, desc = "the drop applied once; the fast sample applied or merged")
@Outcome(expect = Expect.FORBIDDEN, desc = "a sample lost or applied twice, or a slot leaked")
@State
public class ConcurrencyLimiterNoSampleLost {
    private static final RuntimeException FAILURE = new IllegalStateException("overloaded");
    private final RecordingLimit algorithm = new RecordingLimit();
    private final ConcurrencyLimiter limiter = ConcurrencyLimiter.of("jcstress", ConcurrencyLimiterConfig.builder()
            .algorithm(() -> algorithm)
            .ticker(new ManualTicker(0L))
            .build());

    public ConcurrencyLimiterNoSampleLost() {
        limiter.tryAcquire(0L);
        limiter.tryAcquire(0L);
    }

    @Actor
    public void success() {
        limiter.onSuccess(10L);
    }

    @Actor
    public void drop() {
        limiter.onFailure(20L, FAILURE);
    }

    @Arbiter
    public void after(IIII_Result r) {
        limiter.tryAcquire(0L);
        limiter.onSuccess(5L);
        r.r1 = algorithm.drops.get();
        r.r2 = algorithm.slowest.get();
        r.r3 = algorithm.updates.get() - 1; // the arbiter's own sample is not counted
        r.r4 = limiter.inflight();
    }
}

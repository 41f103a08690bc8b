package dev.levee.jcstress;

import dev.levee.core.ManualTicker;
import dev.levee.loadshed.ConcurrencyLimiter;
import dev.levee.loadshed.ConcurrencyLimiterConfig;
import dev.levee.loadshed.internal.SampleCell;
import java.lang.reflect.Field;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * A concurrency limiter in contended mode (per-thread {@link SampleCell}s, installed here as heavy
 * contention would), two requests in flight. One completes in 10 ns (its sample waits in its cell:
 * fewer than a batch, and recent), the other fails in 20 ns at the same moment (a drop: it applies
 * every cell at once, if it wins the writer flag). Then 2 ms pass and the arbiter's own request
 * completes, which applies whatever the cells still hold. The algorithm sees the drop exactly once,
 * the 20 ns sample exactly once, and every cell ends empty; nothing is left in flight.
 * Codes: r1 = updates with a drop, r2 = updates carrying 20 ns, r3 = 1 if every cell is empty, r4 = in flight.
 *
 * <p>Correctness only, no timing: clock readings are handed in on a manual ticker so the race is the
 * only variable (see the package documentation).
 */
@JCStressTest
@Description("ConcurrencyLimiter: per-thread sample cells racing the writer flag, no sample lost or applied twice")
@Outcome(id = "1, 1, 1, 0", expect = Expect.ACCEPTABLE, desc = "the drop applied once; the cells drained")
@Outcome(expect = Expect.FORBIDDEN, desc = "a sample lost (left in a cell or dropped) or applied twice, or a slot leaked")
@State
public class ConcurrencyLimiterCellsNoSampleLost {
    private static final RuntimeException FAILURE = new IllegalStateException("overloaded");
    private static final Field CELLS;

    static {
        try {
            CELLS = ConcurrencyLimiter.class.getDeclaredField("cells");
            CELLS.setAccessible(true);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final ManualTicker ticker = new ManualTicker(0L);
    private final RecordingLimit algorithm = new RecordingLimit();
    private final ConcurrencyLimiter limiter = ConcurrencyLimiter.of("jcstress", ConcurrencyLimiterConfig.builder()
            .algorithm(() -> algorithm)
            .ticker(ticker)
            .build());
    private final SampleCell[] cells = SampleCell.newCells();

    public ConcurrencyLimiterCellsNoSampleLost() {
        try {
            CELLS.set(limiter, cells);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
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
        ticker.advance(2_000_000L);
        limiter.tryAcquire(ticker.read());
        limiter.onSuccess(5L);
        r.r1 = algorithm.drops.get();
        r.r2 = algorithm.slowest.get();
        boolean empty = true;
        for (SampleCell c : cells) {
            empty &= c.take() == 0;
        }
        r.r3 = empty ? 1 : 0;
        r.r4 = limiter.inflight();
    }
}

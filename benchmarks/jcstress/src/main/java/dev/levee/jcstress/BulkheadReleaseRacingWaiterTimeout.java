package dev.levee.jcstress;

import dev.levee.bulkhead.Bulkhead;
import dev.levee.bulkhead.BulkheadConfig;
import dev.levee.core.BulkheadFullException;
import dev.levee.core.ContextScope;
import dev.levee.core.Deadline;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * A bulkhead of 1, held, maxWait 5 s on the system clock. Waiter A waits under a {@link Deadline} of
 * 20 us, so its wait ends about when the slot is freed (if it gets in, it leaves at once). The other
 * actor frees the held slot and then waits itself (waiter B, up to 5 s). The release's signal can
 * reach A just as A times out; A must then pass it on. B always gets in (a lost wake-up would leave it
 * parked for 5 s with a free slot and then refuse it), and A and B are never inside at once.
 * Codes (1 = yes): r1 = A entered, r2 = B entered, r3 = two inside at once, r4 = inside at the end (B).
 */
@JCStressTest
@Description("Bulkhead: a release racing a waiter's timeout never loses the next waiter's wake-up")
@Outcome(id = {"1, 1, 0, 1", "0, 1, 0, 1"}, expect = Expect.ACCEPTABLE,
        desc = "B got in, whether or not A did first; never both inside")
@Outcome(expect = Expect.FORBIDDEN, desc = "B refused though a slot was free (lost wake-up), the bound broken, or the count drifted")
@State
public class BulkheadReleaseRacingWaiterTimeout {
    private final Bulkhead bulkhead = Bulkhead.of("jcstress", BulkheadConfig.builder()
            .maxConcurrentCalls(1)
            .maxWait(Duration.ofSeconds(5))
            .build());
    private final AtomicInteger inside = new AtomicInteger();
    private volatile boolean overlap;

    public BulkheadReleaseRacingWaiterTimeout() {
        bulkhead.tryAcquire();
    }

    private boolean enter() {
        try {
            bulkhead.acquire(bulkhead.ticker().read());
        } catch (BulkheadFullException refused) {
            return false;
        }
        if (inside.incrementAndGet() > 1) {
            overlap = true;
        }
        return true;
    }

    @Actor
    public void waiterA(IIII_Result r) {
        try (ContextScope ignored = Deadline.after(Duration.ofNanos(20_000)).attach()) {
            r.r1 = enter() ? 1 : 0;
        }
        if (r.r1 == 1) {
            inside.decrementAndGet();
            bulkhead.onSuccess(0L);
        }
    }

    @Actor
    public void releaseThenWaiterB(IIII_Result r) {
        bulkhead.onSuccess(0L);
        r.r2 = enter() ? 1 : 0;
    }

    @Arbiter
    public void count(IIII_Result r) {
        r.r3 = overlap ? 1 : 0;
        r.r4 = bulkhead.activeCount();
    }
}

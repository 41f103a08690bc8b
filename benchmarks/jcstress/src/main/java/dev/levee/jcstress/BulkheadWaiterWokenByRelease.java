package dev.levee.jcstress;

import dev.levee.bulkhead.Bulkhead;
import dev.levee.bulkhead.BulkheadConfig;
import dev.levee.core.BulkheadFullException;
import java.time.Duration;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZI_Result;

/**
 * A bulkhead of 1, held, with a 5 s maxWait on the system clock. One actor waits for a slot
 * ({@code acquire}), the other releases the held one. The waiter may find the slot free before it
 * parks, or be parked and woken: either way it enters. A lost wake-up would leave it parked for the
 * whole 5 s and then refused (FORBIDDEN), and the bound holds (one inside at the end).
 */
@JCStressTest
@Description("Bulkhead: a release wakes a waiting caller (no lost wake-up), the bound holds")
@Outcome(id = "true, 1", expect = Expect.ACCEPTABLE, desc = "the waiter entered the freed slot")
@Outcome(expect = Expect.FORBIDDEN, desc = "the waiter was refused though a slot was freed (lost wake-up), or the count drifted")
@State
public class BulkheadWaiterWokenByRelease {
    private final Bulkhead bulkhead = Bulkhead.of("jcstress", BulkheadConfig.builder()
            .maxConcurrentCalls(1)
            .maxWait(Duration.ofSeconds(5))
            .build());

    public BulkheadWaiterWokenByRelease() {
        bulkhead.tryAcquire();
    }

    @Actor
    public void waiter(ZI_Result r) {
        try {
            bulkhead.acquire(bulkhead.ticker().read());
            r.r1 = true;
        } catch (BulkheadFullException refused) {
            r.r1 = false;
        }
    }

    @Actor
    public void release() {
        bulkhead.onSuccess(0L);
    }

    @Arbiter
    public void count(ZI_Result r) {
        r.r2 = bulkhead.activeCount();
    }
}

package dev.levee.jcstress;

import dev.levee.bulkhead.Bulkhead;
import dev.levee.bulkhead.BulkheadConfig;
import dev.levee.core.ManualScheduler;
import java.time.Duration;

/** The bulkhead the asynchronous-waiter races start from. */
final class Bulkheads {
    private Bulkheads() {}

    /**
     * A bulkhead of one slot, already held, whose asynchronous waits expire after {@code maxWait} on
     * {@code scheduler}'s manual clock and complete inline (so a grant completes on the releasing actor).
     *
     * @param scheduler the manual scheduler (and, through it, the ticker)
     * @param maxWait the waiters' expiry
     * @return the bulkhead, its only slot taken
     */
    static Bulkhead heldOne(ManualScheduler scheduler, Duration maxWait) {
        Bulkhead bulkhead = Bulkhead.of("jcstress", BulkheadConfig.builder()
                .maxConcurrentCalls(1)
                .maxWait(maxWait)
                .ticker(scheduler.ticker())
                .scheduler(scheduler)
                .asyncExecutor(Runnable::run)
                .build());
        bulkhead.tryAcquire();
        return bulkhead;
    }
}

package dev.levee.jcstress;

import dev.levee.core.ManualScheduler;
import dev.levee.loadshed.CoDelGate;
import dev.levee.loadshed.ConcurrencyLimiter;
import dev.levee.loadshed.ConcurrencyLimiterConfig;
import dev.levee.loadshed.limit.FixedLimit;
import dev.levee.loadshed.queue.CoDelQueueConfig;
import java.time.Duration;

/** The CoDel gate the asynchronous-waiter races start from. */
final class CoDelGates {
    private CoDelGates() {}

    /**
     * A concurrency limiter of 1 on {@code scheduler}'s manual clock, for the gate to wrap.
     *
     * @param scheduler the manual scheduler (and, through it, the ticker)
     * @return the limiter, nothing held
     */
    static ConcurrencyLimiter limiterOfOne(ManualScheduler scheduler) {
        return ConcurrencyLimiter.of("jcstress", ConcurrencyLimiterConfig.builder()
                .algorithm(() -> FixedLimit.of(1))
                .ticker(scheduler.ticker())
                .build());
    }

    /**
     * A CoDel gate over {@code inner} whose only permit is held, with its asynchronous waits on
     * {@code scheduler} and completed inline (so a grant completes on the releasing actor).
     *
     * @param inner the limiter of one
     * @param scheduler the manual scheduler
     * @param interval CoDel's interval, also the waiters' re-check period
     * @param maxWait the waiters' expiry
     * @return the gate, the permit taken
     */
    static CoDelGate heldOne(ConcurrencyLimiter inner, ManualScheduler scheduler, Duration interval, Duration maxWait) {
        CoDelGate gate = CoDelGate.of("jcstress", CoDelQueueConfig.builder().interval(interval)
                .scheduler(scheduler).asyncExecutor(Runnable::run).build(), maxWait, inner);
        gate.tryAcquire();
        return gate;
    }
}

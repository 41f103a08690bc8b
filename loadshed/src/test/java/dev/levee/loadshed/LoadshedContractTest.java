package dev.levee.loadshed;

import dev.levee.core.Gate;
import dev.levee.core.LoadSignal;
import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import dev.levee.core.RandomSource;
import dev.levee.loadshed.limit.FixedLimit;
import dev.levee.loadshed.queue.CoDelQueueConfig;
import dev.levee.testing.GateContract;
import java.time.Duration;
import org.junit.jupiter.api.Nested;

/** The load-shedding gates pass the shared {@link GateContract}. */
class LoadshedContractTest {

    /** A gate bounded at 3 permits that its completions return. */
    abstract static class BoundedAtThree extends GateContract {
        @Override
        protected int permitsAtOnce() {
            return 3;
        }

        @Override
        protected boolean completionReturnsPermit() {
            return true;
        }
    }

    /** A gate that admits everything at one instant and does not count permits back. */
    abstract static class AdmitsAll extends GateContract {
        @Override
        protected int permitsAtOnce() {
            return Integer.MAX_VALUE;
        }

        @Override
        protected boolean completionReturnsPermit() {
            return false;
        }

        @Override
        protected boolean claimsAllocationFreeSuccessPath() {
            return true;
        }
    }

    private static ConcurrencyLimiter fixedLimit(ManualTicker ticker, int limit) {
        return ConcurrencyLimiter.of("contract", ConcurrencyLimiterConfig.builder()
                .algorithm(() -> FixedLimit.of(limit)).ticker(ticker).build());
    }

    /** A concurrency limiter at a fixed limit of 3: a bound like a bulkhead's. */
    @Nested
    class FixedConcurrencyLimit extends BoundedAtThree {
        @Override
        protected Gate newGate(ManualTicker ticker) {
            return ConcurrencyLimiter.of("contract", ConcurrencyLimiterConfig.builder()
                    .algorithm(() -> FixedLimit.of(3)).ticker(ticker).build());
        }

        @Override
        protected boolean claimsAllocationFreeSuccessPath() {
            return true;
        }
    }

    /** A client-side throttle that has seen no refusals admits everything. */
    @Nested
    class Throttle extends AdmitsAll {
        @Override
        protected Gate newGate(ManualTicker ticker) {
            return ClientThrottle.of("contract", ClientThrottleConfig.builder()
                    .random(RandomSource.seeded(7)).ticker(ticker).build());
        }
    }

    /**
     * A concurrency limiter that waits up to a second for a slot: a drained limiter delays
     * {@code execute} and {@code executeAsync} instead of refusing them.
     */
    @Nested
    class WaitingConcurrencyLimit extends BoundedAtThree {
        @Override
        protected Gate newGate(ManualTicker ticker) {
            return ConcurrencyLimiter.of("contract", ConcurrencyLimiterConfig.builder()
                    .algorithm(() -> FixedLimit.of(3)).maxWait(Duration.ofSeconds(1)).ticker(ticker)
                    .scheduler(new ManualScheduler(ticker)).build());
        }

        @Override
        protected boolean waitsForAPermit() {
            return true;
        }

        @Override
        protected boolean claimsAllocationFreeSuccessPath() {
            return true;
        }
    }

    /** Seed 002's composite shedder at a limit of 3 with quiet CPU and memory, failing fast. */
    @Nested
    class Adaptive extends BoundedAtThree {
        @Override
        protected Gate newGate(ManualTicker ticker) {
            return AdaptiveLoadShedder.of("contract", AdaptiveLoadShedderConfig.builder().maxConcurrent(3)
                    .maxQueueDepth(0).cpu(LoadSignal.constant(0.0)).memory(LoadSignal.constant(0.0))
                    .priorityThreshold(1.0).ticker(ticker).build());
        }

        @Override
        protected boolean claimsAllocationFreeSuccessPath() {
            return true;
        }
    }

    /** The composite shedder that queues callers for a slot (up to a second). */
    @Nested
    class AdaptiveQueueing extends BoundedAtThree {
        @Override
        protected Gate newGate(ManualTicker ticker) {
            return AdaptiveLoadShedder.of("contract", AdaptiveLoadShedderConfig.builder().maxConcurrent(3)
                    .maxQueueDepth(10).maxQueueTime(Duration.ofSeconds(1)).cpu(LoadSignal.constant(0.0))
                    .memory(LoadSignal.constant(0.0)).priorityThreshold(1.0).ticker(ticker).build());
        }

        @Override
        protected boolean waitsForAPermit() {
            return true;
        }
    }

    /** The PID shedder before its first update: rejection probability 0, it admits everything. */
    @Nested
    class Pid extends AdmitsAll {
        @Override
        protected Gate newGate(ManualTicker ticker) {
            return PidShedder.of("contract", PidShedderConfig.builder().measurement(() -> 0.0)
                    .random(RandomSource.seeded(7)).scheduler(new ManualScheduler(ticker)).ticker(ticker).build());
        }
    }

    /** The priority shedder under no load admits every level. */
    @Nested
    class Priority extends AdmitsAll {
        @Override
        protected Gate newGate(ManualTicker ticker) {
            return PriorityShedder.of("contract", PriorityShedderConfig.builder().load(LoadSignal.constant(0.0))
                    .ticker(ticker).build());
        }
    }

    /** CoDel around a concurrency limit of 3, failing fast: the inner gate's bound, CoDel idle. */
    @Nested
    class CoDel extends BoundedAtThree {
        @Override
        protected Gate newGate(ManualTicker ticker) {
            return CoDelGate.of("contract", CoDelQueueConfig.defaults(), Duration.ZERO, fixedLimit(ticker, 3));
        }

        @Override
        protected boolean claimsAllocationFreeSuccessPath() {
            return true;
        }
    }

    /** CoDel around a concurrency limit of 3 whose callers wait up to a second for a slot. */
    @Nested
    class CoDelWaiting extends BoundedAtThree {
        @Override
        protected Gate newGate(ManualTicker ticker) {
            return CoDelGate.of("contract", CoDelQueueConfig.defaults(), Duration.ofSeconds(1), fixedLimit(ticker, 3));
        }

        @Override
        protected boolean waitsForAPermit() {
            return true;
        }
    }

    /** The goodput meter: a gate that always admits and only counts. */
    @Nested
    class GoodputMeter extends AdmitsAll {
        @Override
        protected Gate newGate(ManualTicker ticker) {
            return Goodput.of("contract", Duration.ofSeconds(1), ticker);
        }
    }
}

package dev.levee.loadshed;

import dev.levee.core.Gate;
import dev.levee.core.ManualTicker;
import dev.levee.core.RandomSource;
import dev.levee.loadshed.limit.FixedLimit;
import dev.levee.testing.GateContract;
import org.junit.jupiter.api.Nested;

/** The load-shedding gates pass the shared {@link GateContract}. */
class LoadshedContractTest {

    /** A concurrency limiter at a fixed limit of 3: a bound like a bulkhead's. */
    @Nested
    class FixedConcurrencyLimit extends GateContract {
        @Override
        protected Gate newGate(ManualTicker ticker) {
            return ConcurrencyLimiter.of("contract", ConcurrencyLimiterConfig.builder()
                    .algorithm(() -> FixedLimit.of(3)).ticker(ticker).build());
        }

        @Override
        protected int permitsAtOnce() {
            return 3;
        }

        @Override
        protected boolean completionReturnsPermit() {
            return true;
        }

        @Override
        protected boolean claimsAllocationFreeSuccessPath() {
            return true;
        }
    }

    /** A client-side throttle that has seen no refusals admits everything. */
    @Nested
    class Throttle extends GateContract {
        @Override
        protected Gate newGate(ManualTicker ticker) {
            return ClientThrottle.of("contract", ClientThrottleConfig.builder()
                    .random(RandomSource.seeded(7)).ticker(ticker).build());
        }

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
}

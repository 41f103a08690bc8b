package dev.levee.loadshed;

import dev.levee.core.Gate;
import dev.levee.core.ManualTicker;
import dev.levee.loadshed.limit.FixedLimit;
import dev.levee.testing.GateContract;

/**
 * A partition's gate passes the shared {@link GateContract}: with a limit of 4 shared 50/50 by two
 * idle partitions, one partition may borrow the idle one's slots, so it grants all 4 at once, and each
 * completion returns its slot.
 */
class PartitionedConcurrencyLimiterContractTest extends GateContract {

    @Override
    protected Gate newGate(ManualTicker ticker) {
        PartitionedConcurrencyLimiter limiter = PartitionedConcurrencyLimiter.of("contract",
                ConcurrencyLimiterConfig.builder().algorithm(() -> FixedLimit.of(4)).ticker(ticker).build(),
                Partitions.builder().add("checkout", 0.5).add("search", 0.5).build());
        return limiter.partition("checkout");
    }

    @Override
    protected int permitsAtOnce() {
        return 4;
    }

    @Override
    protected boolean completionReturnsPermit() {
        return true;
    }
}

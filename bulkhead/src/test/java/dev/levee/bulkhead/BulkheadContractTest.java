package dev.levee.bulkhead;

import dev.levee.core.Gate;
import dev.levee.core.ManualTicker;
import dev.levee.testing.GateContract;
import java.time.Duration;
import org.junit.jupiter.api.Nested;

/** The semaphore bulkhead, alone and per key, passes the shared {@link GateContract}. */
class BulkheadContractTest {
    private static final int SLOTS = 3;

    private static BulkheadConfig config(ManualTicker ticker) {
        return BulkheadConfig.builder().maxConcurrentCalls(SLOTS).maxWait(Duration.ZERO).ticker(ticker).build();
    }

    @Nested
    class Semaphore extends GateContract {
        @Override
        protected Gate newGate(ManualTicker ticker) {
            return Bulkhead.of("contract", config(ticker));
        }

        @Override
        protected int permitsAtOnce() {
            return SLOTS;
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

    @Nested
    class PerKey extends GateContract {
        @Override
        protected Gate newGate(ManualTicker ticker) {
            KeyedBulkhead<String> keyed = KeyedBulkhead.of("contract",
                    KeyedBulkheadConfig.builder().perKey(config(ticker)).build());
            return keyed.forKey("tenant-a");
        }

        @Override
        protected int permitsAtOnce() {
            return SLOTS;
        }

        @Override
        protected boolean completionReturnsPermit() {
            return true;
        }
    }
}

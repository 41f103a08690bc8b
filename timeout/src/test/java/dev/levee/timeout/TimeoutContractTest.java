package dev.levee.timeout;

import dev.levee.core.ManualTicker;
import dev.levee.core.Policy;
import dev.levee.testing.PolicyContract;
import java.time.Duration;
import org.junit.jupiter.api.Nested;

/** Both timeout modes pass the shared {@link PolicyContract}. */
class TimeoutContractTest {

    @Nested
    class Cooperative extends PolicyContract {
        @Override
        protected Policy newPolicy(ManualTicker ticker) {
            return Timeout.of("contract", TimeoutConfig.builder().timeout(Duration.ofSeconds(5))
                    .mode(TimeoutMode.COOPERATIVE).ticker(ticker).build());
        }
    }

    @Nested
    class OnAThread extends PolicyContract {
        @Override
        protected Policy newPolicy(ManualTicker ticker) {
            return Timeout.of("contract", TimeoutConfig.builder().timeout(Duration.ofSeconds(5))
                    .mode(TimeoutMode.THREAD).ticker(ticker).build());
        }

        @Override
        protected boolean runsTheCallOnTheCallersThread() {
            return false;
        }
    }
}

package dev.levee.timeout;

import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import dev.levee.core.Policy;
import dev.levee.testing.PolicyContract;
import java.time.Duration;
import org.junit.jupiter.api.Nested;

/** Every timeout mode passes the shared {@link PolicyContract}. */
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
    class Interrupting extends PolicyContract {
        @Override
        protected Policy newPolicy(ManualTicker ticker) {
            return Timeout.of("contract", TimeoutConfig.builder().timeout(Duration.ofSeconds(5))
                    .mode(TimeoutMode.INTERRUPT).ticker(ticker).scheduler(new ManualScheduler(ticker)).build());
        }
    }

    @Nested
    class OnAThread extends PolicyContract {
        @Override
        protected Policy newPolicy(ManualTicker ticker) {
            // A manual scheduler, like the interrupting one's: on the system scheduler the deadline of a
            // call on the worker fires after 5 s of real time whatever the manual ticker says, and one
            // call stalled that long on a loaded machine would fail a contract that is not about timing.
            return Timeout.of("contract", TimeoutConfig.builder().timeout(Duration.ofSeconds(5))
                    .mode(TimeoutMode.THREAD).ticker(ticker).scheduler(new ManualScheduler(ticker)).build());
        }

        @Override
        protected boolean runsTheCallOnTheCallersThread() {
            return false;
        }
    }
}
